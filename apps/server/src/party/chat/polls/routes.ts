import { PARTY_ROUTES, type AnswerPollResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { partyRoute } from '../../route.ts';
import { answerQuestion, createQuestion, type QuestionRuntime } from './service.ts';

export async function registerPollRoutes(app: App, ctx: ServerContext, runtime: QuestionRuntime): Promise<void> {
  const route = partyRoute(ctx);

  // Hosts and admins in the app; the admin tool from the back office's dashboard (issue 14),
  // whose polls are posted without a sender, like the other system messages.
  route(app, PARTY_ROUTES.postPoll, async (req, _reply, caller) => {
    return createQuestion(ctx, runtime, req.params.id, caller.fan, 'poll', req.body);
  });

  route(app, PARTY_ROUTES.answerPoll, async (req, _reply, fan) => {
    const answer = await answerQuestion(ctx, runtime, req.params.id, fan, 'poll', req.params.pollId, req.body.answer_id);
    return answer as AnswerPollResponse;
  });
}
