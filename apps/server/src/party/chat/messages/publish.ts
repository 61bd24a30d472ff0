import type { ChatMessage } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { Audience } from '../../live/hub.ts';
import { runPartyWrite, type PartyWrite } from '../../live/unitOfWork.ts';
import type { QuestionPayload } from '../polls/queries.ts';
import { insertMessage, toChatMessage, type NewMessageRow } from './queries.ts';

export interface StoreOptions {
  questions?: ReadonlyMap<string, QuestionPayload>;
  audience?: Audience;
}

/** A message stored by a write; `message` is readable once the write has committed and published. */
export interface QueuedMessage {
  readonly message: ChatMessage;
}

/**
 * Stores a chat message inside a write and queues its event. The row is inserted without its
 * `seq_id` (0); the event is numbered only after the commit, and the row then records the number,
 * so a failed insert or a rolled-back write uses up no `seq_id` (no gap for fans to wait on).
 */
export async function queueMessage(w: PartyWrite, ctx: ServerContext, row: NewMessageRow, options: StoreOptions = {}): Promise<QueuedMessage> {
  const now = ctx.now();
  const stored = { ...row, seq_id: 0, timestamp_ms: now };
  await insertMessage(w.db, stored);
  const { seq_id: _, ...unnumbered } = toChatMessage(stored, options.questions);
  const queued = w.emit(row.party_id, unnumbered, options.audience);
  w.afterPublish(async (db) => {
    await db.updateTable('chat_messages').set({ seq_id: queued.event.seq_id }).where('id', '=', row.id).execute();
  });
  return {
    get message() {
      const event = queued.event;
      return { ...toChatMessage(stored, options.questions), seq_id: event.seq_id };
    },
  };
}

/** Stores a chat message and broadcasts it after the insert committed (one write of its own). */
export async function storeAndPublish(ctx: ServerContext, row: NewMessageRow, options: StoreOptions = {}): Promise<ChatMessage> {
  const queued = await runPartyWrite(ctx, (w) => queueMessage(w, ctx, row, options), { singleStatement: true });
  return queued.message;
}

/** Queues a message that is not stored (a deletion message) inside a write. */
export function queueUnstored(w: PartyWrite, ctx: ServerContext, partyId: string, message: Omit<ChatMessage, 'seq_id' | 'timestamp_ms'>): QueuedMessage {
  const full = { ...message, timestamp_ms: ctx.now() };
  const queued = w.emit(partyId, full);
  return {
    get message() {
      return { ...full, seq_id: queued.event.seq_id };
    },
  };
}
