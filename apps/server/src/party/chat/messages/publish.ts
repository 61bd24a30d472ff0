import type { ChatMessage, ChatMessageEvent } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { Audience } from '../../live/hub.ts';
import type { QuestionPayload } from '../polls/queries.ts';
import { insertMessage, toChatMessage, type NewMessageRow } from './queries.ts';

/**
 * Stores a chat message and broadcasts it: the party's next seq_id is reserved first so the row
 * keeps the seq_id its event carries, and the event is published only after the insert committed.
 */
export async function storeAndPublish(
  ctx: ServerContext,
  row: NewMessageRow,
  options: { questions?: ReadonlyMap<string, QuestionPayload>; audience?: Audience } = {},
): Promise<ChatMessage> {
  const seq = await ctx.hub.nextSeq(row.party_id);
  const now = ctx.now();
  const full = { ...row, seq_id: seq, timestamp_ms: now };
  await insertMessage(ctx.db, full);
  const message = toChatMessage(full, options.questions);
  await ctx.hub.publish(row.party_id, toEvent(message, now), options.audience);
  return message;
}

/** Broadcasts a message that is not stored (a deletion message). */
export async function publishOnly(ctx: ServerContext, partyId: string, message: Omit<ChatMessage, 'seq_id' | 'timestamp_ms'>): Promise<ChatMessage> {
  const seq = await ctx.hub.nextSeq(partyId);
  const now = ctx.now();
  const full: ChatMessage = { ...message, seq_id: seq, timestamp_ms: now };
  await ctx.hub.publish(partyId, toEvent(full, now));
  return full;
}

function toEvent(message: ChatMessage, now: number): ChatMessageEvent {
  return { ...message, server_time_ms: now };
}
