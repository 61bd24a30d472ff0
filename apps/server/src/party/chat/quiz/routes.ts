import {
  AnswerBody,
  AnswerQuizResponse,
  PartyIdParam,
  PostChatMessageResponse,
  PostQuizQuestionBody,
  PostScoreboardBody,
  QuizQuestionParams,
  ScoreboardQuery,
  ScoreboardResponse,
} from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireFan } from '../../auth/guards.ts';
import { requireStaff } from '../access.ts';
import { answerQuestion, createQuestion, type QuestionRuntime } from '../polls/service.ts';
import { postScoreboard, scoreboard } from './scores.ts';

export async function registerQuizRoutes(app: App, ctx: ServerContext, runtime: QuestionRuntime): Promise<void> {
  const tags = ['chat'];

  app.post(
    '/api/parties/:id/chat/quiz/questions',
    { schema: { tags, params: PartyIdParam, body: PostQuizQuestionBody, response: { 201: PostChatMessageResponse } } },
    async (req, reply) => {
      const { fan } = await requireStaff(ctx, req, req.params.id);
      return reply.status(201).send(await createQuestion(ctx, runtime, req.params.id, fan, 'quiz', req.body));
    },
  );

  app.post(
    '/api/parties/:id/chat/quiz/questions/:questionId/answers',
    { schema: { tags, params: QuizQuestionParams, body: AnswerBody, response: { 201: AnswerQuizResponse } } },
    async (req, reply) => {
      const fan = await requireFan(ctx, req);
      const answer = await answerQuestion(ctx, runtime, req.params.id, fan, 'quiz', req.params.questionId, req.body.answer_id);
      return reply.status(201).send(answer as AnswerQuizResponse);
    },
  );

  app.post(
    '/api/parties/:id/chat/quiz/scoreboard',
    { schema: { tags, params: PartyIdParam, body: PostScoreboardBody, response: { 201: PostChatMessageResponse } } },
    async (req, reply) => {
      await requireStaff(ctx, req, req.params.id);
      return reply.status(201).send(await postScoreboard(ctx, req.params.id, req.body.count, req.body.duration_seconds));
    },
  );

  app.get(
    '/api/parties/:id/chat/quiz/scoreboard',
    { schema: { tags, params: PartyIdParam, querystring: ScoreboardQuery, response: { 200: ScoreboardResponse } } },
    async (req) => {
      await requireFan(ctx, req);
      return scoreboard(ctx, req.params.id, req.query.count);
    },
  );
}
