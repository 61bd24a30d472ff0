import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import type { JobScheduler } from '../../platform/jobs.ts';
import type { Closer } from '../surface.ts';
import type { FakeTraffic } from './fake/service.ts';
import { registerFakeRoutes } from './fake/routes.ts';
import { registerMediaRoutes } from './media/routes.ts';
import { registerMessageRoutes } from './messages/routes.ts';
import { registerModerationRoutes } from './moderation/routes.ts';
import { registerPollRoutes } from './polls/routes.ts';
import { questionClosing, ResultsThrottle, type QuestionRuntime } from './polls/service.ts';
import { registerPopupRoutes } from './popups/routes.ts';
import { registerPreparedRoutes } from './prepared/routes.ts';
import { registerQuizRoutes } from './quiz/routes.ts';
import { registerScheduleRoutes } from './schedule/routes.ts';
import { registerSlowModeRoutes } from './slowMode.ts';
import { scheduledPosting } from './schedule/service.ts';

/** Live poll and quiz counts are published at most this often per question. */
const RESULTS_WINDOW_MS = 100;

/**
 * Chat, moderation, popups, polls, quizzes (and those prepared for later), scheduled and fake traffic; their due-time jobs go to
 * `jobs`. The fake-traffic generator comes from the composition root (tests read its counters);
 * it is stopped here, with the rest of chat, before the hub closes.
 */
export async function registerChat(app: App, ctx: ServerContext, jobs: JobScheduler, fake: FakeTraffic): Promise<Closer[]> {
  jobs.add(questionClosing(ctx), scheduledPosting(ctx));
  const results = new ResultsThrottle(ctx, RESULTS_WINDOW_MS);
  const runtime: QuestionRuntime = {
    pokeTimers: () => jobs.poke(),
    touchResults: (partyId, questionId) => results.touch(partyId, questionId),
  };

  await registerMessageRoutes(app, ctx);
  await registerMediaRoutes(app, ctx);
  await registerModerationRoutes(app, ctx);
  await registerSlowModeRoutes(app, ctx);
  await registerPopupRoutes(app, ctx);
  await registerPollRoutes(app, ctx, runtime);
  await registerQuizRoutes(app, ctx, runtime);
  await registerPreparedRoutes(app, ctx);
  await registerScheduleRoutes(app, ctx, runtime.pokeTimers);
  await registerFakeRoutes(app, ctx, fake);

  return [() => fake.close(), () => results.close()];
}
