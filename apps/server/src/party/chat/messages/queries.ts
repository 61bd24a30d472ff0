import { CHAT_RATE_LIMIT_WINDOW_MS, CHAT_SLOW_MODE_MAX_SECONDS, type ChatMessage, type ChatMessageType, type Popup, type Role, type ScoreboardEntry } from '@fanfare/protocol';
import { sql } from 'kysely';
import type { Db } from '../../../platform/db/database.ts';
import { queryOf } from '../../../platform/db/queryOf.ts';
import { parseJson } from '../../../platform/db/columns.ts';
import type { ChatTables } from '../../../platform/db/tables/chat.ts';
import { loadQuestionPayloads, type QuestionPayload } from '../polls/queries.ts';

export type MessageRow = ChatTables['chat_messages'];
/** A message row before it is numbered and timed. */
export type NewMessageRow = Omit<MessageRow, 'seq_id' | 'timestamp_ms'>;

/** What a message row keeps in `payload`, by message type. */
export interface MessagePayload {
  popup?: Popup;
  scoreboard?: ScoreboardEntry[];
  duration_seconds?: number;
  closes_at_ms?: number;
  user_ids?: string[];
  scores?: number[];
  total_questions?: number;
}

/** A message row with every optional column empty. */
export function emptyMessageRow(id: string, partyId: string, type: ChatMessageType): NewMessageRow {
  return {
    id,
    party_id: partyId,
    type,
    sender_id: null,
    sender_role: null,
    sender_quiz_score: null,
    sender_display_name: null,
    sender_profile_picture: null,
    sender_profile_sticker: null,
    reply_to_message_id: null,
    text: null,
    sticker: null,
    video: null,
    photo: null,
    poll_id: null,
    question_id: null,
    payload: null,
  };
}

const insertMessageQuery = queryOf((db, row: MessageRow) => db.insertInto('chat_messages').values(row));

/** Stores a message row (built once: every chat post runs it). */
export async function insertMessage(db: Db, row: MessageRow): Promise<void> {
  await insertMessageQuery(db, row);
}

/** A sender's allowance: fewer than `limit` of their messages in the party after `since` (ms). */
export interface SenderAllowance {
  since: number;
  limit: number;
}

const MESSAGE_COLUMNS = [...Object.keys(emptyMessageRow('', '', 'message')), 'seq_id', 'timestamp_ms'] as (keyof MessageRow)[];

const insertWithinAllowanceQuery = queryOf((db, v: MessageRow & SenderAllowance) =>
  db
    .insertInto('chat_messages')
    .columns(MESSAGE_COLUMNS)
    .expression(
      db
        .selectNoFrom(MESSAGE_COLUMNS.map((column) => sql`${v[column]}`.as(column)))
        .where((eb) =>
          eb(
            eb(
              eb
                .selectFrom('chat_messages')
                .select((c) => c.fn.countAll().as('n'))
                .where('party_id', '=', v.party_id)
                .where('sender_id', '=', v.sender_id)
                .where('timestamp_ms', '>', v.since),
              '+',
              // Deleted messages count until their window has passed: deleting refunds nothing.
              eb
                .selectFrom('chat_deleted_posts')
                .select((c) => c.fn.countAll().as('n'))
                .where('party_id', '=', v.party_id)
                .where('sender_id', '=', v.sender_id!)
                .where('timestamp_ms', '>', v.since),
            ),
            '<',
            v.limit,
          ),
        ),
    ),
);

/**
 * Stores a message row only while its sender is within `allowance`, counted and inserted by one
 * statement; false when refused (nothing stored). One statement is atomic against other posts only
 * where writes are serial (SQLite): PostgreSQL counts under a lock in a transaction instead.
 */
export async function insertMessageWithinAllowance(db: Db, row: MessageRow, allowance: SenderAllowance): Promise<boolean> {
  // Object.assign, not `{ ...x, more }`: Node 20 builds such a spread slowly (about 1 µs a key, decision 0035).
  const res = await insertWithinAllowanceQuery(db, Object.assign({}, row, allowance));
  return Number(res.numAffectedRows ?? 0) > 0;
}

export async function findMessage(db: Db, partyId: string, id: string): Promise<MessageRow | null> {
  return (await db.selectFrom('chat_messages').selectAll().where('party_id', '=', partyId).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** How long a deleted message still counts against its sender's chat limits (the longer of rate window and slow mode). */
export const DELETED_POST_KEPT_MS = Math.max(CHAT_RATE_LIMIT_WINDOW_MS, CHAT_SLOW_MODE_MAX_SECONDS * 1000);

/**
 * Keeps the sender and time of the fan messages about to be deleted that are still inside their
 * limit windows, so deleting gives back no chat allowance (post, delete, post... stays at the
 * limit); and drops the party's records whose windows have passed. Call in the deleting transaction.
 */
async function rememberDeletedPosts(db: Db, partyId: string, now: number, onlyId?: string): Promise<void> {
  let recent = db
    .selectFrom('chat_messages')
    .select(['party_id', 'sender_id', 'timestamp_ms'])
    .where('party_id', '=', partyId)
    .where('sender_id', 'is not', null)
    .where('timestamp_ms', '>', now - DELETED_POST_KEPT_MS);
  if (onlyId !== undefined) recent = recent.where('id', '=', onlyId);
  await db.deleteFrom('chat_deleted_posts').where('party_id', '=', partyId).where('timestamp_ms', '<=', now - DELETED_POST_KEPT_MS).execute();
  await db.insertInto('chat_deleted_posts').columns(['party_id', 'sender_id', 'timestamp_ms']).expression(recent as never).execute();
}

export async function deleteMessage(db: Db, partyId: string, id: string, now: number): Promise<boolean> {
  await rememberDeletedPosts(db, partyId, now, id);
  const res = await db.deleteFrom('chat_messages').where('party_id', '=', partyId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function deleteAllMessages(db: Db, partyId: string, now: number): Promise<number> {
  await rememberDeletedPosts(db, partyId, now);
  const res = await db.deleteFrom('chat_messages').where('party_id', '=', partyId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/**
 * The newest `limit` messages of the party (before `before` when given), returned oldest first in
 * the client's order: timestamp, then seq_id. Popups are not part of the history: each reached only
 * the fans it targeted, and the app shows only popups newer than its page load.
 */
export async function listMessages(db: Db, partyId: string, limit: number, before?: number, beforeSeqId?: number): Promise<MessageRow[]> {
  let q = db.selectFrom('chat_messages').selectAll().where('party_id', '=', partyId).where('type', '!=', 'popup');
  // The cursor is the pair (timestamp_ms, seq_id): messages sharing the edge's millisecond are
  // paged by seq_id instead of being skipped.
  if (before !== undefined && beforeSeqId !== undefined) {
    q = q.where((eb) => eb.or([eb('timestamp_ms', '<', before), eb.and([eb('timestamp_ms', '=', before), eb('seq_id', '<', beforeSeqId)])]));
  } else if (before !== undefined) q = q.where('timestamp_ms', '<', before);
  const rows = await q.orderBy('timestamp_ms', 'desc').orderBy('seq_id', 'desc').limit(limit).execute();
  return rows.reverse();
}

/** The messages numbered after `afterSeq`, oldest first, at most `limit` (the catch-up after a resync). */
export async function listMessagesAfter(db: Db, partyId: string, afterSeq: number, limit: number): Promise<MessageRow[]> {
  return db
    .selectFrom('chat_messages')
    .selectAll()
    .where('party_id', '=', partyId)
    .where('type', '!=', 'popup')
    .where('seq_id', '>', afterSeq)
    .orderBy('seq_id', 'asc')
    .limit(limit)
    .execute();
}

const recentMessagesQuery = queryOf((db, v: { partyId: string; fanId: string; since: number }) =>
  db
    .selectFrom(
      db
        .selectFrom('chat_messages')
        .select('timestamp_ms')
        .where('party_id', '=', v.partyId)
        .where('sender_id', '=', v.fanId)
        .where('timestamp_ms', '>', v.since)
        // A deleted message still counts (see rememberDeletedPosts).
        .unionAll(
          db.selectFrom('chat_deleted_posts').select('timestamp_ms').where('party_id', '=', v.partyId).where('sender_id', '=', v.fanId).where('timestamp_ms', '>', v.since),
        )
        .as('posts'),
    )
    .select((eb) => [eb.fn.countAll<number | string>().as('count'), eb.fn.min<number | string | null>('timestamp_ms').as('oldest')]),
);

/** Count and oldest time of a fan's messages in the party since `since` (the rate-limit window; every chat post asks). */
export async function recentMessagesBy(db: Db, partyId: string, fanId: string, since: number): Promise<{ count: number; oldest: number | null }> {
  const row = (await recentMessagesQuery(db, { partyId, fanId, since })).rows[0];
  return { count: Number(row?.count ?? 0), oldest: row?.oldest == null ? null : Number(row.oldest) };
}

/** Shapes a stored row as the wire's ChatMessage; poll and quiz payloads come from `questions`. */
export function toChatMessage(row: MessageRow, questions: ReadonlyMap<string, QuestionPayload> = new Map()): ChatMessage {
  const payload = parseJson<MessagePayload>(row.payload, {});
  const message: ChatMessage = {
    id: row.id,
    timestamp_ms: Number(row.timestamp_ms),
    seq_id: Number(row.seq_id),
    type: row.type as ChatMessageType,
    sender: row.sender_id
      ? {
          id: row.sender_id,
          role: (row.sender_role ?? 'listener') as Role,
          quiz_score: Number(row.sender_quiz_score ?? 0),
          display_name: row.sender_display_name ?? '',
          profile_picture: row.sender_profile_picture,
          profile_sticker: row.sender_profile_sticker,
        }
      : null,
    poll_id: row.poll_id,
    question_id: row.question_id,
    delete_message_id: null,
    reply_to_message_id: row.reply_to_message_id,
    text: row.text,
    sticker: row.sticker,
    video: row.video,
    photo: row.photo,
  };
  if (payload.popup) message.popup = payload.popup;
  if (payload.scoreboard) message.scoreboard = payload.scoreboard;
  if (payload.duration_seconds !== undefined) message.duration_seconds = payload.duration_seconds;
  if (payload.closes_at_ms !== undefined) message.closes_at_ms = payload.closes_at_ms;
  if (payload.user_ids) message.user_ids = payload.user_ids;
  if (payload.scores) message.scores = payload.scores;
  if (payload.total_questions !== undefined) message.total_questions = payload.total_questions;
  const poll = row.poll_id ? questions.get(row.poll_id) : undefined;
  if (poll && row.type === 'poll') message.poll = poll.poll;
  const quiz = row.question_id ? questions.get(row.question_id) : undefined;
  if (quiz && row.type === 'quiz_question') message.quiz_question = quiz.quizQuestion;
  return message;
}

/** Rows as wire messages, with the current state of the polls and quiz questions they carry. */
export async function toChatMessages(db: Db, rows: MessageRow[]): Promise<ChatMessage[]> {
  const ids = rows.map((r) => r.poll_id ?? r.question_id).filter((id): id is string => id !== null);
  const questions = await loadQuestionPayloads(db, ids);
  return rows.map((r) => toChatMessage(r, questions));
}
