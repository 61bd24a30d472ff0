/** Reads behind the dashboard's first picture and the recap (issue 14): counts straight from the rows. */
import { STATS_BLOCKED, STATS_BUCKET_MS, STATS_BUCKETS, type BlockedFan, type QuestionStats } from '@fanfare/protocol';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import { parseJson } from '../../platform/db/columns.ts';

/** Polls and quiz questions of a party, newest first, with their answer counts per option. */
export async function questionStats(db: Db, partyId: string, limit?: number): Promise<QuestionStats[]> {
  let q = db.selectFrom('chat_questions').selectAll().where('party_id', '=', partyId).orderBy('created_at_ms', 'desc').orderBy('id');
  if (limit !== undefined) q = q.limit(limit);
  const rows = await q.execute();
  if (rows.length === 0) return [];
  const counts = await db
    .selectFrom('chat_answers')
    .select(['question_id', 'answer_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('question_id', 'in', rows.map((r) => r.id))
    .groupBy(['question_id', 'answer_id'])
    .execute();
  return rows.map((r) => {
    const options = parseJson<string[]>(r.options, []);
    const results = options.map(() => 0);
    for (const c of counts) if (c.question_id === r.id && Number(c.answer_id) < results.length) results[Number(c.answer_id)] = Number(c.n);
    return {
      id: r.id,
      kind: r.kind === 'quiz' ? 'quiz' : 'poll',
      question: r.question,
      options,
      results,
      closed: r.closed_at_ms != null,
      correct_answer: r.correct_answer == null ? null : Number(r.correct_answer),
      created_at_ms: Number(r.created_at_ms),
    } satisfies QuestionStats;
  });
}

/** Fans of the party who may not chat, by name. */
export async function blockedFans(db: Db, partyId: string): Promise<BlockedFan[]> {
  const rows = await db
    .selectFrom('party_users')
    .select(['fan_id', 'display_name'])
    .where('party_id', '=', partyId)
    .where('can_chat', '=', 0)
    .orderBy('display_name')
    .limit(STATS_BLOCKED)
    .execute();
  return rows.map((r) => ({ user_id: r.fan_id, display_name: r.display_name }));
}

/**
 * Fan chat messages (type `message`, with a sender) per bucket of `bucketMs` (a dashboard bucket
 * by default) from `since` (the shown window by default).
 */
export async function messageBuckets(
  db: Db,
  partyId: string,
  now: number,
  bucketMs = STATS_BUCKET_MS,
  since = now - (now % STATS_BUCKET_MS) - (STATS_BUCKETS - 1) * STATS_BUCKET_MS,
): Promise<Map<number, number>> {
  // Integer division on both dialects (bigint / integer).
  // A literal, not a parameter: PostgreSQL matches the GROUP BY expression to the select's by text.
  const bucket = sql<number>`(timestamp_ms / ${sql.lit(bucketMs)})`;
  const rows = await db
    .selectFrom('chat_messages')
    .select([bucket.as('b'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('party_id', '=', partyId)
    .where('type', '=', 'message')
    .where('sender_id', 'is not', null)
    .where('timestamp_ms', '>=', since)
    .groupBy(bucket)
    .execute();
  return new Map(rows.map((r) => [Math.floor(Number(r.b)) * bucketMs, Number(r.n)]));
}

/** Every fan chat message of the party, and every answer. */
export async function chatAndAnswerTotals(db: Db, partyId: string): Promise<{ messages: number; answers: number }> {
  const [m, a] = await Promise.all([
    db
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('party_id', '=', partyId)
      .where('type', '=', 'message')
      .where('sender_id', 'is not', null)
      .executeTakeFirst(),
    db.selectFrom('chat_answers').select((eb) => eb.fn.countAll<number>().as('n')).where('party_id', '=', partyId).executeTakeFirst(),
  ]);
  return { messages: Number(m?.n ?? 0), answers: Number(a?.n ?? 0) };
}
