import type { PartyUser } from '@fanfare/protocol';
import { cached, cacheKind, onWrite } from '../../platform/db/cache.ts';
import type { Db } from '../../platform/db/database.ts';
import { answersOf, quizScore } from './polls/queries.ts';

/** A fan's quiz score per party and fan: changes only with answers and (closing) questions. */
const quizScores = cacheKind<string, number>({ max: 20_000, maxAgeMs: 60_000, dependsOn: [onWrite('chat_answers'), onWrite('chat_questions')] });

/** The fan's quiz score in the party, through the cache the chat author and the profile share. */
export function currentQuizScore(db: Db, partyId: string, fanId: string): Promise<number> {
  return cached(quizScores, db, `${partyId}\n${fanId}`, () => quizScore(db, partyId, fanId));
}

/** The chat part of a fan's party profile: their poll and quiz answers and their quiz score. */
export async function chatProfileExtras(db: Db, partyId: string, fanId: string): Promise<Pick<PartyUser, 'poll_answers' | 'quiz_answers' | 'quiz_score'>> {
  const [answers, score] = await Promise.all([answersOf(db, partyId, fanId), currentQuizScore(db, partyId, fanId)]);
  return Object.assign({}, answers, { quiz_score: score });
}
