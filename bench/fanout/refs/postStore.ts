/**
 * The durable part of a chat post, for the `ws-stored` reference (decision 0024): each post is
 * stored in SQLite before it is answered, the least a server that keeps its chat must do. It uses
 * Fanfare's settings (WAL, `synchronous = NORMAL`, 64 MiB of page cache), a file made by Fanfare's
 * own migrations (`targets.ts`: the same `chat_messages` columns and indexes), and Fanfare's one
 * statement that counts the sender's recent messages and inserts within the allowance (decision
 * 0021). It skips what is Fanfare's own on top: Fastify, validation with the protocol schemas, the
 * token and party lookups, and the seq_id recorded after publishing. It checkpoints as SQLite does
 * by default, inside the commit every 1,000 pages, where Fanfare checkpoints on a thread of its own
 * (decision 0014): both count in the process's CPU.
 */
import { CHAT_RATE_LIMIT_MESSAGES, CHAT_RATE_LIMIT_WINDOW_MS, type ChatMessageEvent } from '@fanfare/protocol';
import SQLite from 'better-sqlite3';

/** Stores a post's event in its party for its sender; false when the sender is over the chat rate limit. */
export type PostStore = (event: ChatMessageEvent, partyId: string, senderId: string) => boolean;

const INSERT_WITHIN_ALLOWANCE = `
insert into chat_messages (id, party_id, seq_id, type, timestamp_ms, sender_id, sender_role,
  sender_quiz_score, sender_display_name, text)
select @id, @party, @seq, 'message', @at, @sender, 'listener', 0, @name, @text
where (select count(*) from chat_messages
       where party_id = @party and sender_id = @sender and timestamp_ms > @since) < @limit`;

/** Opens the store in `file`, which Fanfare's migrations made. */
export function openPostStore(file: string): PostStore {
  const db = new SQLite(file, { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('cache_size = -65536');
  // The migrations' party_id references parties, and the reference has no party row.
  db.pragma('foreign_keys = OFF');
  const insert = db.prepare(INSERT_WITHIN_ALLOWANCE);
  return (event, partyId, senderId) =>
    insert.run({
      id: event.id,
      party: partyId,
      seq: event.seq_id,
      at: event.timestamp_ms,
      sender: senderId,
      name: event.sender?.display_name ?? '',
      text: event.text,
      since: event.timestamp_ms - CHAT_RATE_LIMIT_WINDOW_MS,
      limit: CHAT_RATE_LIMIT_MESSAGES,
    }).changes > 0;
}
