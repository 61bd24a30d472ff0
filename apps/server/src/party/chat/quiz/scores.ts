import { SCOREBOARD_DEFAULT_DURATION_SECONDS, type ChatMessage, type ScoreboardResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { newId } from '../../../platform/tokens.ts';
import { requireParty } from '../../parties/queries.ts';
import { storeAndPublish } from '../messages/publish.ts';
import { emptyMessageRow } from '../messages/queries.ts';
import { answerersOf, quizScores, topScores, totalQuizQuestions } from '../polls/queries.ts';

/**
 * Posts `quiz_user_scores` after a quiz question closed: the new total score of every fan who
 * answered it (`scores[i]` belongs to `user_ids[i]`) and the number of questions asked so far.
 */
export async function postQuizUserScores(ctx: ServerContext, partyId: string, questionId: string): Promise<ChatMessage> {
  const userIds = await answerersOf(ctx.db, questionId);
  const [scores, total] = await Promise.all([quizScores(ctx.db, partyId, userIds), totalQuizQuestions(ctx.db, partyId)]);
  const payload = { user_ids: userIds, scores: userIds.map((id) => scores.get(id) ?? 0), total_questions: total };
  return storeAndPublish(ctx, { ...emptyMessageRow(newId(), partyId, 'quiz_user_scores'), payload: JSON.stringify(payload) });
}

/** The top `count` fans by quiz score and the number of questions asked. */
export async function scoreboard(ctx: ServerContext, partyId: string, count: number): Promise<ScoreboardResponse> {
  await requireParty(ctx.db, partyId);
  const [items, total] = await Promise.all([topScores(ctx.db, partyId, count), totalQuizQuestions(ctx.db, partyId)]);
  return { items, total_questions: total };
}

/**
 * Posts the scoreboard of the top `count` fans to the chat (`quiz_scoreboard`), shown for
 * `durationSeconds` (spec 5: quiz scoreboards take a duration in seconds).
 */
export async function postScoreboard(ctx: ServerContext, partyId: string, count: number, durationSeconds = SCOREBOARD_DEFAULT_DURATION_SECONDS): Promise<ChatMessage> {
  const board = await scoreboard(ctx, partyId, count);
  const payload = {
    scoreboard: board.items,
    total_questions: board.total_questions,
    duration_seconds: durationSeconds,
    closes_at_ms: ctx.now() + durationSeconds * 1000,
  };
  return storeAndPublish(ctx, { ...emptyMessageRow(newId(), partyId, 'quiz_scoreboard'), payload: JSON.stringify(payload) });
}
