import type { PartyUser } from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import { answersOf, quizScore } from './polls/queries.ts';

/** The chat part of a fan's party profile: their poll and quiz answers and their quiz score. */
export async function chatProfileExtras(db: Db, partyId: string, fanId: string): Promise<Pick<PartyUser, 'poll_answers' | 'quiz_answers' | 'quiz_score'>> {
  const [answers, score] = await Promise.all([answersOf(db, partyId, fanId), quizScore(db, partyId, fanId)]);
  return { ...answers, quiz_score: score };
}
