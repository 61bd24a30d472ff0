import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@fanfare/protocol';
import {
  applyQuizScores,
  catchUpCursor,
  dedupeInteractive,
  initialMessages,
  isArtistMessage,
  isListedMessage,
  isPopupFresh,
  mergeMessages,
  mergeOlderPage,
  needsExactOlderPage,
  olderMessagesCursor,
  olderMessagesQuery,
  reconcileWithRecent,
  resultShares,
} from './chat.ts';

let seq = 0;
function msg(over: Partial<ChatMessage> & { id: string }): ChatMessage {
  seq += 1;
  return {
    timestamp_ms: 1000 + seq,
    seq_id: seq,
    type: 'message',
    sender: { id: 'u1', role: 'listener', quiz_score: 0, display_name: 'U', profile_picture: null, profile_sticker: null },
    text: 'hi',
    ...over,
  };
}

describe('chat merge rule: deduplicated and ordered by timestamp and seq_id (spec 4)', () => {
  it('orders by timestamp, then seq_id', () => {
    const a = msg({ id: 'a', timestamp_ms: 2000, seq_id: 5 });
    const b = msg({ id: 'b', timestamp_ms: 1000, seq_id: 9 });
    const c = msg({ id: 'c', timestamp_ms: 2000, seq_id: 3 });
    expect(mergeMessages([], [a, b, c]).map((m) => m.id)).toEqual(['b', 'c', 'a']);
  });
  it('keeps one copy of a message that arrives twice', () => {
    const a = msg({ id: 'a' });
    expect(mergeMessages([a], [a, { ...a }]).map((m) => m.id)).toEqual(['a']);
  });
});

describe('deletion rule: a deletion message removes the message (spec 4)', () => {
  it('removes the named message and does not list the deletion', () => {
    const a = msg({ id: 'a' });
    const b = msg({ id: 'b' });
    const del = msg({ id: 'd', delete_message_id: 'a', text: null });
    expect(mergeMessages([a, b], [del]).map((m) => m.id)).toEqual(['b']);
  });
});

describe('poll and quiz dedupe rule: polls by poll id while open, quizzes by question id (spec 4)', () => {
  const poll = { id: 'p1', question: 'q', options: ['a', 'b'], duration_seconds: 30, set_next_track: false, created_at_ms: 1, closes_at_ms: 2, closed: false, results: [0, 0] };
  it('lists an open poll once per poll id', () => {
    const m1 = msg({ id: 'm1', type: 'poll', poll_id: 'p1', poll });
    const m2 = msg({ id: 'm2', type: 'poll', poll_id: 'p1', poll });
    expect(mergeMessages([], [m1, m2]).map((m) => m.id)).toEqual(['m1']);
  });
  it('lists a quiz question once per question id', () => {
    const q1 = msg({ id: 'q1', type: 'quiz_question', question_id: 'x' });
    const q2 = msg({ id: 'q2', type: 'quiz_question', question_id: 'x' });
    const q3 = msg({ id: 'q3', type: 'quiz_question', question_id: 'y' });
    expect(mergeMessages([], [q1, q2, q3]).map((m) => m.id)).toEqual(['q1', 'q3']);
  });
});

describe('initial messages rule: 80 shown when the chat opens (spec 9)', () => {
  it('keeps the newest 80', () => {
    const many = Array.from({ length: 120 }, (_, i) => msg({ id: `m${i}` }));
    const shown = initialMessages(many);
    expect(shown).toHaveLength(80);
    expect(shown[0]!.id).toBe('m40');
    expect(shown.at(-1)!.id).toBe('m119');
  });
});

describe('older-message fetch rule: cursor rounded up to 30 s, newest 20 not present kept (spec 9)', () => {
  it('rounds the cursor up to a multiple of 30 s', () => {
    expect(olderMessagesCursor(60_000)).toBe(60_000);
    expect(olderMessagesCursor(60_001)).toBe(90_000);
    expect(olderMessagesCursor(89_999)).toBe(90_000);
  });
  it('keeps the newest 20 of the page that are not already present', () => {
    const existing = [msg({ id: 'e1', timestamp_ms: 100_000 }), msg({ id: 'e2', timestamp_ms: 100_001 })];
    const page = [
      ...Array.from({ length: 50 }, (_, i) => msg({ id: `o${i}`, timestamp_ms: 10_000 + i })),
      existing[0]!,
    ];
    const merged = mergeOlderPage(existing, page);
    expect(merged).toHaveLength(22);
    expect(merged[0]!.id).toBe('o30');
    expect(merged.slice(-2).map((m) => m.id)).toEqual(['e1', 'e2']);
  });
});

describe('older-message paging on (timestamp_ms, seq_id) (messages sharing the edge millisecond are not skipped)', () => {
  it('sends before_seq_id with before: the oldest shown message\'s seq_id', () => {
    expect(olderMessagesQuery({ timestamp_ms: 60_001, seq_id: 41 })).toEqual({ limit: 200, before: 90_000, before_seq_id: 41 });
    // On a 30 s boundary the rounded cursor is the oldest's own millisecond: the tie-breaker then
    // brings the messages of that millisecond with a lower seq_id.
    expect(olderMessagesQuery({ timestamp_ms: 60_000, seq_id: 7 })).toEqual({ limit: 200, before: 60_000, before_seq_id: 7 });
  });
  it('asks from the exact edge when a full rounded page brought nothing new', () => {
    expect(olderMessagesQuery({ timestamp_ms: 60_001, seq_id: 41 }, 'exact')).toEqual({ limit: 200, before: 60_001, before_seq_id: 41 });
    expect(needsExactOlderPage(200, 0)).toBe(true);
    expect(needsExactOlderPage(200, 3)).toBe(false);
    // A short page was the whole history below the cursor: nothing older exists.
    expect(needsExactOlderPage(12, 0)).toBe(false);
  });
});

describe('artist filter rule: admin, host and own messages (spec 6)', () => {
  it('matches admin, host and the current user only', () => {
    const base = msg({ id: 'x' });
    const as = (role: 'admin' | 'host' | 'listener', id = 'other') => ({ ...base, sender: { ...base.sender!, role, id } });
    expect(isArtistMessage(as('admin'), 'me')).toBe(true);
    expect(isArtistMessage(as('host'), 'me')).toBe(true);
    expect(isArtistMessage(as('listener', 'me'), 'me')).toBe(true);
    expect(isArtistMessage(as('listener'), 'me')).toBe(false);
    expect(isArtistMessage({ ...base, sender: null }, 'me')).toBe(false);
  });
});

describe('popup rule: shown only if newer than page load (spec 4)', () => {
  it('compares against the page load time', () => {
    expect(isPopupFresh(1001, 1000)).toBe(true);
    expect(isPopupFresh(1000, 1000)).toBe(false);
    expect(isPopupFresh(10, 1000)).toBe(false);
  });
});

describe('quiz score rule: quiz_user_scores updates scores per user (spec 4)', () => {
  it('sets each listed user to the new total', () => {
    const m = msg({ id: 's', type: 'quiz_user_scores', user_ids: ['a', 'b'], scores: [3, 1], total_questions: 4 });
    expect(applyQuizScores({ a: 1, c: 7 }, m)).toEqual({ a: 3, b: 1, c: 7 });
  });
  it('draws result bars as shares', () => {
    expect(resultShares([1, 3])).toEqual([25, 75]);
    expect(resultShares([0, 0])).toEqual([0, 0]);
  });
});

describe('chat catch-up after a resync', () => {
  const m = (seq: number, ts = 1_000 + seq): ChatMessage => ({ id: `m${seq}`, seq_id: seq, timestamp_ms: ts, type: 'message', text: `t${seq}`, sender: null }) as ChatMessage;

  it('starts after the highest seq_id the fan has; with no numbered message, the chat loads fresh', () => {
    expect(catchUpCursor([m(3), m(9), m(5)])).toBe(9);
    expect(catchUpCursor([])).toBeNull();
    expect(catchUpCursor([m(0)])).toBeNull();
  });

  it('drops a message the newest page no longer has inside its range (deleted meanwhile), keeps older ones and merges the page', () => {
    const existing = [m(1), m(2), m(10), m(11), m(12)];
    const recent = [m(10), m(12), m(13)];
    expect(reconcileWithRecent(existing, recent).map((x) => x.seq_id)).toEqual([1, 2, 10, 12, 13]);
  });

  it('keeps a message newer than the newest page: it arrived live after the page was read', () => {
    const existing = [m(1), m(10), m(14), m(15)];
    const recent = [m(10), m(12)];
    expect(reconcileWithRecent(existing, recent).map((x) => x.seq_id)).toEqual([1, 10, 12, 14, 15]);
  });

  it('an empty newest page means the chat was cleared', () => {
    expect(reconcileWithRecent([m(1), m(2)], [])).toEqual([]);
  });
});


describe('chat list rules, kind by kind and edge by edge', () => {
  it('lists messages, polls, quiz questions and scoreboards; never scores, popups or deletions', () => {
    for (const type of ['message', 'poll', 'quiz_question', 'quiz_scoreboard'] as const) expect(isListedMessage(msg({ id: type, type })), type).toBe(true);
    for (const type of ['quiz_user_scores', 'popup'] as const) expect(isListedMessage(msg({ id: type, type })), type).toBe(false);
    expect(isListedMessage(msg({ id: 'd', delete_message_id: 'x' }))).toBe(false);
    const popup = msg({ id: 'pop', type: 'popup' });
    const kept = msg({ id: 'kept' });
    expect(mergeMessages([kept], [popup]).map((m) => m.id)).toEqual(['kept']);
  });

  it('a deletion in the same batch as its message removes it; an incoming copy replaces the stored one', () => {
    const a = msg({ id: 'a', text: 'old' });
    const b = msg({ id: 'b' });
    expect(mergeMessages([], [b, msg({ id: 'del', delete_message_id: 'b' })]).map((m) => m.id)).toEqual([]);
    expect(mergeMessages([a], [{ ...a, text: 'edited' }])[0]!.text).toBe('edited');
  });

  it('closed polls are each listed; polls and questions without an id are never merged', () => {
    const closed = { id: 'p1', question: 'q', options: ['a'], duration_seconds: 30, set_next_track: false, created_at_ms: 1, closes_at_ms: 2, closed: true, results: [1] };
    const c1 = msg({ id: 'c1', type: 'poll', poll_id: 'p1', poll: closed });
    const c2 = msg({ id: 'c2', type: 'poll', poll_id: 'p1', poll: closed });
    expect(dedupeInteractive([c1, c2]).map((m) => m.id)).toEqual(['c1', 'c2']);
    const open1 = msg({ id: 'o1', type: 'poll', poll_id: 'p2' });
    const open2 = msg({ id: 'o2', type: 'poll', poll_id: 'p2' });
    expect(dedupeInteractive([open1, open2]).map((m) => m.id)).toEqual(['o1']);
    const n1 = msg({ id: 'n1', type: 'poll' });
    const n2 = msg({ id: 'n2', type: 'poll' });
    const q1 = msg({ id: 'q1', type: 'quiz_question' });
    const q2 = msg({ id: 'q2', type: 'quiz_question' });
    expect(dedupeInteractive([n1, n2, q1, q2]).map((m) => m.id)).toEqual(['n1', 'n2', 'q1', 'q2']);
    // A message of another kind that happens to carry a poll or question id is not deduplicated.
    const t1 = msg({ id: 't1', poll_id: 'p9', question_id: 'x9' });
    const t2 = msg({ id: 't2', poll_id: 'p9', question_id: 'x9' });
    expect(dedupeInteractive([t1, t2]).map((m) => m.id)).toEqual(['t1', 't2']);
  });

  it('fewer than 80 messages are all shown, in order', () => {
    const few = [msg({ id: 'f2', timestamp_ms: 20 }), msg({ id: 'f1', timestamp_ms: 10 })];
    expect(initialMessages(few).map((m) => m.id)).toEqual(['f1', 'f2']);
  });

  it('an older page: listed kinds only, present ones skipped, in chat order whatever order it came in', () => {
    const existing = [msg({ id: 'e', timestamp_ms: 900_000 })];
    const page = [msg({ id: 'late', timestamp_ms: 30 }), msg({ id: 'pop', type: 'popup', timestamp_ms: 20 }), msg({ id: 'early', timestamp_ms: 10 })];
    expect(mergeOlderPage(existing, page).map((m) => m.id)).toEqual(['early', 'late', 'e']);
  });

  it('a catch-up page keeps a message of the same millisecond with a lower seq_id than its first', () => {
    const at = (id: string, ts: number, s: number) => msg({ id, timestamp_ms: ts, seq_id: s });
    const existing = [at('before', 5000, 1), at('gone', 5000, 3)];
    const recent = [at('first', 5000, 2), at('last', 5000, 4)];
    expect(reconcileWithRecent(existing, recent).map((m) => m.id)).toEqual(['before', 'first', 'last']);
  });

  it('the catch-up cursor is the highest positive seq_id in any order', () => {
    const m = (s: number) => msg({ id: `s${s}`, seq_id: s });
    expect(catchUpCursor([m(9), m(3)])).toBe(9);
    expect(catchUpCursor([m(-4), m(2)])).toBe(2);
    expect(catchUpCursor([m(1)])).toBe(1);
  });

  it('the older-message query defaults to the rounded cursor', () => {
    expect(olderMessagesQuery({ timestamp_ms: 1, seq_id: 1 }).before).toBe(30_000);
    expect(olderMessagesQuery({ timestamp_ms: 1, seq_id: 1 }, 'rounded').before).toBe(30_000);
    expect(needsExactOlderPage(201, 0)).toBe(true);
    expect(needsExactOlderPage(199, 0)).toBe(false);
  });

  it('own messages count for the artist filter only with a signed-in user', () => {
    const base = msg({ id: 'x' });
    expect(isArtistMessage({ ...base, sender: { ...base.sender!, id: 'me' } }, null)).toBe(false);
  });

  it('quiz scores: a user without a score keeps the old one; missing lists change nothing; the input stays as it was', () => {
    const before = { a: 1 };
    const next = applyQuizScores(before, msg({ id: 's', type: 'quiz_user_scores', user_ids: ['a', 'b'], scores: [0] }));
    expect(next).toEqual({ a: 0 });
    expect(Object.keys(next)).toEqual(['a']);
    expect(before).toEqual({ a: 1 });
    expect(applyQuizScores(before, msg({ id: 's2', type: 'quiz_user_scores' }))).toEqual({ a: 1 });
    expect(applyQuizScores(before, msg({ id: 's3', type: 'quiz_user_scores', user_ids: ['a'] }))).toEqual({ a: 1 });
  });

  it('result shares are rounded percentages of the total', () => {
    expect(resultShares([1, 2])).toEqual([33, 67]);
    expect(resultShares([5])).toEqual([100]);
    expect(resultShares([])).toEqual([]);
  });
});

describe('chat list rules: closed polls before open ones, and long older pages in any order', () => {
  it('a closed poll does not hide a later open poll of the same id', () => {
    const closed = msg({ id: 'c', type: 'poll', poll_id: 'p', poll: { id: 'p', question: 'q', options: ['a'], duration_seconds: 30, set_next_track: false, created_at_ms: 1, closes_at_ms: 2, closed: true, results: [1] } });
    const open = msg({ id: 'o', type: 'poll', poll_id: 'p' });
    expect(dedupeInteractive([closed, open]).map((m) => m.id)).toEqual(['c', 'o']);
  });

  it('of an older page that came newest first, the newest 20 are kept', () => {
    const page = Array.from({ length: 25 }, (_, i) => msg({ id: `p${24 - i}`, timestamp_ms: 1000 + (24 - i) }));
    const merged = mergeOlderPage([], page);
    expect(merged).toHaveLength(20);
    expect(merged[0]!.id).toBe('p5');
    expect(merged.at(-1)!.id).toBe('p24');
  });
});
