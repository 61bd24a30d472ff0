import {
  CHAT_INITIAL_MESSAGES,
  CHAT_RATE_LIMIT_MESSAGES,
  CHAT_RATE_LIMIT_WINDOW_MS,
  CHAT_RATE_LIMITED_ERROR,
  type ChatMessage,
  type PostChatMediaBody,
  type PostChatMessageBody,
} from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { cached, cacheKind, onChange, onWrite } from '../../../platform/db/cache.ts';
import { sharedAnswer } from '../../../platform/route.ts';
import { lockForTransaction, type Db } from '../../../platform/db/database.ts';
import { forbidden, HttpError, notFound, unprocessable } from '../../../platform/errors.ts';
import { newId } from '../../../platform/tokens.ts';
import type { Fan } from '../../auth/sessions.ts';
import { roleInParty } from '../../grants/service.ts';
import { requireParty, requirePartyCached, type PartyRow } from '../../parties/queries.ts';
import { denial, roleHas } from '../../policies.ts';
import { startAllowedOf, storedSettingsOf } from '../../parties/service.ts';
import { checkChatMedia } from '../media/store.ts';
import { enforceSlowMode, slowModeSecondsOf } from '../slowMode.ts';
import { resolveAuthor, senderColumns, type ChatAuthor } from './author.ts';
import { runPartyWrite } from '../../../realtime/unitOfWork.ts';
import { queueMessage, queueMessageWithinAllowance, queueUnstored, storeAndPublish } from './publish.ts';
import {
  deleteAllMessages,
  deleteMessage,
  emptyMessageRow,
  findMessage,
  listMessages,
  listMessagesAfter,
  recentMessagesBy,
  toChatMessages,
  type NewMessageRow,
} from './queries.ts';
import { markReplayStale } from '../../replay/service.ts';

export interface PostOptions {
  /**
   * Skips the per-fan rate limit. Only the fake-traffic generator sets it: it is an admin-started
   * load generator whose small pool of fake fans posts far beyond a real fan's rate by design.
   */
  exemptFromRateLimit?: boolean;
}

/** The party's selected sticker ids (frontend.visual.stickers, shared per party row); empty means stickers are off. */
export function partyStickers(party: PartyRow): readonly string[] {
  return storedSettingsOf(party).visual?.stickers ?? [];
}

/** Refuses a sticker that is not in the party's list (stickers are allowed only if it is non-empty). */
export function checkSticker(party: PartyRow, sticker: string | null | undefined, loc: (string | number)[] = ['body', 'sticker']): void {
  if (sticker === undefined || sticker === null) return;
  const stickers = partyStickers(party);
  if (stickers.length === 0) throw unprocessable(loc, 'Stickers are not enabled in this party', 'sticker_disabled');
  if (!stickers.includes(sticker)) throw unprocessable(loc, `Sticker ${sticker} is not in this party's sticker list`, 'sticker_not_allowed');
}

/**
 * Checks that the fan holds `chat.post` in the party (signed up, not blocked: 403) and returns
 * them as author. The route entries check `chat.post` first; this check stays because it reads
 * the author row the message needs anyway, and the fake-traffic generator posts without a route.
 */
async function authorize(ctx: ServerContext, party: PartyRow, fan: Fan): Promise<ChatAuthor> {
  const author = await resolveAuthor(ctx.db, party.id, fan);
  const actor = { role: author.role, isSignedUp: author.signup !== null, canChat: author.canChat, startAllowed: startAllowedOf(party) };
  const reason = denial(actor, 'chat.post');
  if (reason) throw forbidden(reason);
  return author;
}

/**
 * At most CHAT_RATE_LIMIT_MESSAGES per window per fan (429), counted from the stored messages so
 * it holds across nodes. Checked last, so a refused message never uses up the allowance.
 */
async function enforceRateLimit(db: Db, now: number, partyId: string, fanId: string): Promise<void> {
  const { count, oldest } = await recentMessagesBy(db, partyId, fanId, now - CHAT_RATE_LIMIT_WINDOW_MS);
  if (count < CHAT_RATE_LIMIT_MESSAGES) return;
  const retryAfterMs = Math.max(0, (oldest ?? now) + CHAT_RATE_LIMIT_WINDOW_MS - now);
  throw new HttpError(429, {
    message: `Too many messages: at most ${CHAT_RATE_LIMIT_MESSAGES} per ${CHAT_RATE_LIMIT_WINDOW_MS / 1000} s. Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    type: CHAT_RATE_LIMITED_ERROR,
    retry_after_ms: retryAfterMs,
  });
}

/**
 * Stores and publishes a fan's message within the rate limit. The count and the insert are one
 * transaction under a lock per fan and party, so parallel posts (on any node) cannot all pass the
 * count before any of them is stored; the party's slow mode too. Hosts, admins and the
 * fake-traffic generator are exempt from both.
 */
async function storeWithinRateLimit(ctx: ServerContext, party: PartyRow, author: ChatAuthor, options: PostOptions, row: NewMessageRow): Promise<ChatMessage> {
  if (roleHas(author.role, 'chat.postUnlimited') || options.exemptFromRateLimit) return storeAndPublish(ctx, row);
  // SQLite runs one write at a time, so one statement that counts and inserts is as safe as the
  // locked transaction, and it is one statement instead of four (begin, count, insert, commit). A
  // refusal, or slow mode (which counts differently), takes the transaction, which also works out
  // when to try again.
  if (ctx.dialect === 'sqlite' && slowModeSecondsOf(party) <= 0) {
    const allowance = { since: ctx.now() - CHAT_RATE_LIMIT_WINDOW_MS, limit: CHAT_RATE_LIMIT_MESSAGES };
    const stored = await runPartyWrite(ctx, (w) => queueMessageWithinAllowance(w, ctx, row, allowance), { singleStatement: true });
    if (stored) return stored.message;
  }
  const queued = await runPartyWrite(ctx, async (w) => {
    await lockForTransaction(w.db, ctx.dialect, `chat-rate:${row.party_id}:${author.fanId}`);
    // Slow mode counts the same rows: under the same lock, inside the same transaction.
    await enforceSlowMode(Object.assign({}, ctx, { db: w.db }), row.party_id, author, false, party);
    await enforceRateLimit(w.db, ctx.now(), row.party_id, author.fanId);
    return queueMessage(w, ctx, row);
  });
  return queued.message;
}

async function checkReplyTarget(ctx: ServerContext, partyId: string, replyTo: string | null | undefined): Promise<string | null> {
  if (!replyTo) return null;
  const target = await findMessage(ctx.db, partyId, replyTo);
  if (!target) throw unprocessable(['body', 'reply_to_message_id'], `No message ${replyTo} in this party`, 'not_found');
  return replyTo;
}

/**
 * Posts a fan's text or sticker message (optionally a reply). Every path that makes a fan message
 * goes through here: the REST call and the fake-traffic generator.
 */
export async function postChatMessage(
  ctx: ServerContext,
  partyId: string,
  fan: Fan,
  body: PostChatMessageBody,
  options: PostOptions = {},
): Promise<ChatMessage> {
  const party = await requirePartyCached(ctx.db, partyId);
  const author = await authorize(ctx, party, fan);
  checkSticker(party, body.sticker);
  const replyTo = await checkReplyTarget(ctx, partyId, body.reply_to_message_id);
  // Filled in place, not spread: Node 20 builds `{ ...a, ...b, more }` slowly (about 1 µs a key, decision 0035).
  const row = Object.assign(emptyMessageRow(newId(), partyId, 'message'), senderColumns(author), {
    reply_to_message_id: replyTo,
    text: body.text ?? null,
    sticker: body.sticker ?? null,
  });
  return storeWithinRateLimit(ctx, party, author, options, row);
}

/** Posts a fan's photo or video message; the URLs must be the fan's own uploads to this party. */
export async function postChatMedia(ctx: ServerContext, partyId: string, fan: Fan, body: PostChatMediaBody): Promise<ChatMessage> {
  const party = await requireParty(ctx.db, partyId);
  const author = await authorize(ctx, party, fan);
  if (body.photo) await checkChatMedia(ctx, partyId, fan.id, body.photo, 'image', ['body', 'photo']);
  if (body.video) await checkChatMedia(ctx, partyId, fan.id, body.video, 'video', ['body', 'video']);
  const row = Object.assign(emptyMessageRow(newId(), partyId, 'message'), senderColumns(author), {
    text: body.text ?? null,
    photo: body.photo ?? null,
    video: body.video ?? null,
  });
  return storeWithinRateLimit(ctx, party, author, {}, row);
}

/** Posts a message by the system (scheduled messages): no sender. */
export async function postSystemText(ctx: ServerContext, partyId: string, text: string, sticker: string | null): Promise<ChatMessage> {
  return storeAndPublish(ctx, Object.assign(emptyMessageRow(newId(), partyId, 'message'), { text, sticker }));
}

/**
 * Deletes a message: its author may delete their own, a host, an admin or the admin tool any (403 otherwise). The
 * deletion is broadcast as a message whose `delete_message_id` names the deleted one.
 */
export async function deleteChatMessage(ctx: ServerContext, partyId: string, fan: Fan | null, messageId: string): Promise<ChatMessage> {
  await requireParty(ctx.db, partyId);
  const message = await findMessage(ctx.db, partyId, messageId);
  if (!message) throw notFound(`No message ${messageId} in this party`);
  // Own messages only, unless the caller is a host or admin of this party (`fan` null: the admin
  // tool, whose right the route checked through the party policy).
  if (fan && message.sender_id !== fan.id && !roleHas(await roleInParty(ctx.db, partyId, fan), 'chat.deleteAny')) {
    throw forbidden('Only the author, a host or an admin may delete this message');
  }
  const queued = await runPartyWrite(ctx, async (w) => {
    if (!(await deleteMessage(w.db, partyId, messageId, ctx.now()))) throw notFound(`No message ${messageId} in this party`);
    // A deleted message never appears in the party's replay: rebuild it (issue 47).
    await markReplayStale(w.db, partyId);
    return queueUnstored(w, ctx, partyId, { id: newId(), type: 'message', sender: null, delete_message_id: messageId });
  });
  return queued.message;
}

/** The newest `limit` messages before the cursor (`before` ms, then `beforeSeqId`), oldest first. */
export async function listChatMessages(ctx: ServerContext, partyId: string, limit: number, before?: number, beforeSeqId?: number): Promise<ChatMessage[]> {
  await requireParty(ctx.db, partyId);
  return toChatMessages(ctx.db, await listMessages(ctx.db, partyId, limit, before, beforeSeqId));
}

/**
 * Catch-up pages after a `seq_id`, as fans read them after a `resync`. After a restart every fan
 * of a party asks at once, mostly from the same place: identical reads with no chat write in
 * between share one query and one answer (the cache's generation), so the storm costs a query per
 * write, not per fan.
 */
const catchUpPages = cacheKind<string, { items: ChatMessage[] }>({
  max: 1000,
  maxAgeMs: 10_000,
  dependsOn: [onWrite('chat_messages'), onWrite('chat_questions'), onWrite('chat_answers')],
});

/** A page's newest message is this old before the page counts as settled (its seq_ids all recorded). */
const SETTLED_AFTER_MS = 5_000;

/**
 * Full pages of settled messages: new posts come after them, so only a change to a stored row (a
 * deletion, a clear, a vote on a poll it shows) empties them. During a storm the chat goes on, and
 * each post would otherwise send every fan's older pages back to the database (issue 41).
 */
const settledPages = cacheKind<string, { items: ChatMessage[] }>({
  max: 2000,
  maxAgeMs: 60_000,
  dependsOn: [onChange('chat_messages'), onWrite('chat_questions'), onWrite('chat_answers')],
  keep: (page, key) => page.items.length === Number(key.slice(key.lastIndexOf('\n') + 1)) && page.items.at(-1)!.timestamp_ms < Date.now() - SETTLED_AFTER_MS,
});

/** One catch-up page, serialized once for every fan that reads it. */
export async function listChatMessagesAfter(ctx: ServerContext, partyId: string, afterSeq: number, limit: number): Promise<{ items: ChatMessage[] }> {
  await requirePartyCached(ctx.db, partyId);
  const key = `${partyId}\n${afterSeq}\n${limit}`;
  return cached(settledPages, ctx.db, key, () =>
    cached(catchUpPages, ctx.db, key, async () => sharedAnswer({ items: await toChatMessages(ctx.db, await listMessagesAfter(ctx.db, partyId, afterSeq, limit)) })),
  );
}

/**
 * The recent messages per party, as every fan opening the chat reads them (issue 16). Emptied by
 * any write to messages (posts, deletions, clears, recorded seq_ids) or to the polls and quiz
 * questions they show with their current counts. One shared answer: serialized once.
 */
const recentPages = cacheKind<string, { items: ChatMessage[] }>({
  max: 1000,
  maxAgeMs: 60_000,
  dependsOn: [onWrite('chat_messages'), onWrite('chat_questions'), onWrite('chat_answers')],
});

/** The messages shown when the chat opens (spec 9: 80), oldest first, as the answer of `chat/recent`. */
export async function recentChatPage(ctx: ServerContext, partyId: string): Promise<{ items: ChatMessage[] }> {
  await requirePartyCached(ctx.db, partyId);
  return cached(recentPages, ctx.db, partyId, async () =>
    sharedAnswer({ items: await toChatMessages(ctx.db, await listMessages(ctx.db, partyId, CHAT_INITIAL_MESSAGES)) }),
  );
}

/** Deletes every message of the party (CMS) and tells every open page. */
export async function clearChat(ctx: ServerContext, partyId: string): Promise<void> {
  await requireParty(ctx.db, partyId);
  await runPartyWrite(ctx, async (w) => {
    await deleteAllMessages(w.db, partyId, ctx.now());
    await markReplayStale(w.db, partyId);
    w.emit(partyId, { type: 'chat_cleared' });
  });
}
