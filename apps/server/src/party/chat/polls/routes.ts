import { AnswerBody, AnswerPollResponse, PartyIdParam, PollParams, PostChatMessageResponse, PostPollBody } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireFan } from '../../auth/guards.ts';
import { requireStaff } from '../access.ts';
import { answerQuestion, createQuestion, type QuestionRuntime } from './service.ts';

export async function registerPollRoutes(app: App, ctx: ServerContext, runtime: QuestionRuntime): Promise<void> {
  const tags = ['chat'];

  app.post(
    '/api/parties/:id/chat/polls',
    { schema: { tags, params: PartyIdParam, body: PostPollBody, response: { 201: PostChatMessageResponse } } },
    async (req, reply) => {
      const { fan } = await requireStaff(ctx, req, req.params.id);
      return reply.status(201).send(await createQuestion(ctx, runtime, req.params.id, fan, 'poll', req.body));
    },
  );

  app.post(
    '/api/parties/:id/chat/polls/:pollId/answers',
    { schema: { tags, params: PollParams, body: AnswerBody, response: { 201: AnswerPollResponse } } },
    async (req, reply) => {
      const fan = await requireFan(ctx, req);
      const answer = await answerQuestion(ctx, runtime, req.params.id, fan, 'poll', req.params.pollId, req.body.answer_id);
      return reply.status(201).send(answer as AnswerPollResponse);
    },
  );
}
