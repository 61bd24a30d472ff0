import { PARTY_ROUTES, type AnswerQuizResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { partyRoute } from '../../route.ts';
import { answerQuestion, createQuestion, type QuestionRuntime } from '../polls/service.ts';
import { postScoreboard, scoreboard } from './scores.ts';

export async function registerQuizRoutes(app: App, ctx: ServerContext, runtime: QuestionRuntime): Promise<void> {
  const route = partyRoute(ctx);

  // Hosts and admins in the app; the admin tool from the back office's dashboard (issue 14).
  route(app, PARTY_ROUTES.postQuizQuestion, async (req, _reply, caller) => {
    return createQuestion(ctx, runtime, req.params.id, caller.fan, 'quiz', req.body);
  });

  route(app, PARTY_ROUTES.answerQuizQuestion, async (req, _reply, fan) => {
    const answer = await answerQuestion(ctx, runtime, req.params.id, fan, 'quiz', req.params.questionId, req.body.answer_id);
    return answer as AnswerQuizResponse;
  });

  route(app, PARTY_ROUTES.postScoreboard, async (req) => postScoreboard(ctx, req.params.id, req.body.count, req.body.duration_seconds));

  route(app, PARTY_ROUTES.getScoreboard, async (req) => scoreboard(ctx, req.params.id, req.query.count));
}
