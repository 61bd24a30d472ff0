import {
  CHAT_INITIAL_MESSAGES,
  OLDER_MESSAGES_CURSOR_ROUND_MS,
  OLDER_MESSAGES_FETCH_LIMIT,
  OLDER_MESSAGES_KEEP,
  type ChatMessage,
  type Poll,
  type QuizQuestion,
} from '@fanfare/protocol';

/** Chat order (spec 4): by timestamp, then seq_id. */
export function compareMessages(a: ChatMessage, b: ChatMessage): number {
  return a.timestamp_ms - b.timestamp_ms || a.seq_id - b.seq_id;
}

/** The kinds of message that appear as entries of the chat list. */
export function isListedMessage(m: ChatMessage): boolean {
  if (m.delete_message_id) return false;
  return m.type === 'message' || m.type === 'poll' || m.type === 'quiz_question' || m.type === 'quiz_scoreboard';
}

/**
 * Merges incoming messages into the list (spec 4): deduplicated by id, ordered by timestamp and
 * seq_id; a deletion message removes the message it names (and is not listed itself). Only the
 * kinds shown in the list are kept. A poll is listed once per poll id while it is open, a quiz
 * question once per question id.
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<string, ChatMessage>();
  for (const m of existing) byId.set(m.id, m);
  const deleted = new Set<string>();
  for (const m of incoming) {
    if (m.delete_message_id) {
      deleted.add(m.delete_message_id);
      continue;
    }
    if (!isListedMessage(m)) continue;
    byId.set(m.id, m);
  }
  for (const id of deleted) byId.delete(id);
  return dedupeInteractive([...byId.values()].sort(compareMessages));
}

/** Keeps the first message per open poll id and per quiz question id (spec 4). */
export function dedupeInteractive(sorted: readonly ChatMessage[]): ChatMessage[] {
  const seenPolls = new Set<string>();
  const seenQuestions = new Set<string>();
  const out: ChatMessage[] = [];
  for (const m of sorted) {
    if (m.type === 'poll' && m.poll_id) {
      const isOpen = !m.poll?.closed;
      if (isOpen && seenPolls.has(m.poll_id)) continue;
      if (isOpen) seenPolls.add(m.poll_id);
    }
    if (m.type === 'quiz_question' && m.question_id) {
      if (seenQuestions.has(m.question_id)) continue;
      seenQuestions.add(m.question_id);
    }
    out.push(m);
  }
  return out;
}

/** The messages shown when the chat opens: the newest 80 (spec 9). */
export function initialMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return mergeMessages([], messages).slice(-CHAT_INITIAL_MESSAGES);
}

/**
 * Where a catch-up after a `resync` starts: the highest `seq_id` among the messages the fan has
 * (null with none: the chat is then loaded fresh). Stored rows keep the number their event got.
 */
export function catchUpCursor(messages: readonly ChatMessage[]): number | null {
  let last: number | null = null;
  for (const m of messages) if (m.seq_id > 0 && (last === null || m.seq_id > last)) last = m.seq_id;
  return last;
}

/**
 * The list after a catch-up, reconciled with the server's newest page: a message inside that
 * page's range that the page no longer has was deleted while the fan was away. One newer than the
 * page came live after the page was read, and stays.
 */
export function reconcileWithRecent(existing: readonly ChatMessage[], recent: readonly ChatMessage[]): ChatMessage[] {
  if (recent.length === 0) return mergeMessages([], []);
  const first = recent[0]!;
  const last = recent[recent.length - 1]!;
  const present = new Set(recent.map((m) => m.id));
  const kept = existing.filter((m) => compareMessages(m, first) < 0 || compareMessages(m, last) > 0 || present.has(m.id));
  return mergeMessages(kept, recent);
}

/** The `before` cursor of an older-message fetch: the oldest shown time rounded UP to 30 s (spec 9). */
export function olderMessagesCursor(oldestTimestampMs: number): number {
  return Math.ceil(oldestTimestampMs / OLDER_MESSAGES_CURSOR_ROUND_MS) * OLDER_MESSAGES_CURSOR_ROUND_MS;
}

/** Query of an older-message fetch (`GET .../chat/messages`). */
export interface OlderMessagesQuery {
  limit: number;
  before: number;
  before_seq_id: number;
}

/**
 * The older-message query before the oldest shown message (spec 9 and issue 10). The server pages
 * on the pair (timestamp_ms, seq_id): `before_seq_id` goes with `before`, so messages that share a
 * millisecond with the page edge are not skipped. `rounded` is the spec's cursor (rounded up to
 * 30 s); `exact` starts right below the oldest message, for when a rounded page held nothing new.
 */
export function olderMessagesQuery(oldest: Pick<ChatMessage, 'timestamp_ms' | 'seq_id'>, mode: 'rounded' | 'exact' = 'rounded'): OlderMessagesQuery {
  return {
    limit: OLDER_MESSAGES_FETCH_LIMIT,
    before: mode === 'rounded' ? olderMessagesCursor(oldest.timestamp_ms) : oldest.timestamp_ms,
    before_seq_id: oldest.seq_id,
  };
}

/**
 * Whether a rounded older-message page must be asked for again from the exact edge: it was full
 * but brought nothing new (a busy chat holds more than a page within the rounding's 30 s).
 */
export function needsExactOlderPage(pageSize: number, added: number): boolean {
  return added === 0 && pageSize >= OLDER_MESSAGES_FETCH_LIMIT;
}

/**
 * From an older-message page (asked with limit 200), the newest 20 messages not already present
 * (spec 9), merged into the list.
 */
export function mergeOlderPage(existing: readonly ChatMessage[], page: readonly ChatMessage[]): ChatMessage[] {
  const present = new Set(existing.map((m) => m.id));
  const fresh = [...page].filter((m) => !present.has(m.id) && isListedMessage(m)).sort(compareMessages);
  return mergeMessages(existing, fresh.slice(-OLDER_MESSAGES_KEEP));
}

/** Messages counted as artist messages for the artist filter (spec 6): admin, host or own. */
export function isArtistMessage(m: ChatMessage, currentUserId: string | null): boolean {
  if (!m.sender) return false;
  return m.sender.role === 'admin' || m.sender.role === 'host' || (currentUserId !== null && m.sender.id === currentUserId);
}

/** Popups are shown only if newer than the page load (spec 4), both in server time. */
export function isPopupFresh(popupTimestampMs: number, pageLoadServerMs: number): boolean {
  return popupTimestampMs > pageLoadServerMs;
}

/** Applies a `quiz_user_scores` message: new total score per user (spec 4). */
export function applyQuizScores(scores: Readonly<Record<string, number>>, m: ChatMessage): Record<string, number> {
  const next = { ...scores };
  (m.user_ids ?? []).forEach((id, i) => {
    const score = m.scores?.[i];
    if (score !== undefined) next[id] = score;
  });
  return next;
}

/** Live results of a poll or quiz question, keyed by id, kept beside the chat messages. */
export type PollState = Pick<Poll, 'results' | 'closed'> & { correct_answer?: QuizQuestion['correct_answer'] };

/** Share of each option in percent (0 when nobody answered), for the result bars. */
export function resultShares(results: readonly number[]): number[] {
  const total = results.reduce((a, b) => a + b, 0);
  return results.map((n) => (total === 0 ? 0 : Math.round((n / total) * 100)));
}

/**
 * A quiz scoreboard's time left (issue 10): shown until `closes_at_ms` (server time, from the
 * host's `duration_seconds`), then no longer. Null: the message names no end, it stays.
 */
export function scoreboardRemainingMs(m: Pick<ChatMessage, 'closes_at_ms'>, serverNowMs: number): number | null {
  if (m.closes_at_ms === undefined) return null;
  return Math.max(0, m.closes_at_ms - serverNowMs);
}
