import { STATS_BUCKET_MS, STATS_CHAT_TAIL, type ChatMessageEvent } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { PartyStatsAggregator, type StatsSnapshot } from './aggregator.ts';
import { JoinLedger } from './joinLedger.ts';

const T0 = 1_700_000_000_000 - (1_700_000_000_000 % STATS_BUCKET_MS);

const snapshot = (): StatsSnapshot => ({
  tracks: [{ track_id: 't1', name: 'One' }, { track_id: 't2', name: 'Two' }],
  votes: new Map([['t1', 2]]),
  questions: [],
  status: null,
  started_at: null,
  ends_at: null,
  blocked: [],
  messageBuckets: new Map(),
  totalMessages: 0,
  totalAnswers: 0,
  recentChat: [],
  names: new Map(),
});

let seq = 0;
const message = (text: string, over: Partial<ChatMessageEvent> = {}): ChatMessageEvent => ({
  id: `m${++seq}`,
  seq_id: seq,
  timestamp_ms: T0,
  server_time_ms: T0,
  type: 'message',
  sender: { id: 'f1', role: 'listener', quiz_score: 0, display_name: 'Fan One', profile_picture: null, profile_sticker: null },
  text,
  ...over,
});

describe('the party stats aggregator', () => {
  it('counts fan chat per bucket and carries at most STATS_CHAT_TAIL messages per event, counting the rest as skipped', () => {
    const a = new PartyStatsAggregator(snapshot(), 'cluster');
    for (let i = 0; i < STATS_CHAT_TAIL + 15; i++) a.apply(message(`m ${i}`), T0 + 100);
    a.apply(message('system', { sender: null }), T0 + 100); // a system post is not fan chat
    const e = a.take(T0 + 500);
    expect(e.totals.messages).toBe(STATS_CHAT_TAIL + 15);
    expect(e.chat).toHaveLength(STATS_CHAT_TAIL);
    expect(e.chat.at(-1)!.text).toBe(`m ${STATS_CHAT_TAIL + 14}`);
    expect(e.chat_skipped).toBe(15);
    expect(e.buckets.at(-1)).toMatchObject({ start_ms: T0, messages: STATS_CHAT_TAIL + 15 });
    expect(e.messages_last_minute).toBe(STATS_CHAT_TAIL + 15);
    // The next event carries only what came after.
    expect(a.dirty).toBe(false);
    expect(a.take(T0 + 1500).chat).toEqual([]);
  });

  it('joins, leaves and listeners land in the bucket of their time; votes and poll results are absolute', () => {
    const a = new PartyStatsAggregator(snapshot(), 'node');
    a.joined(T0 + 1, 1);
    a.joined(T0 + 2, 2);
    a.left(T0 + STATS_BUCKET_MS + 5, 1);
    a.apply({ type: 'votes_changed', seq_id: 1, server_time_ms: T0, track_id: 't2', votes: 3 }, T0);
    const poll = message('Best?', { type: 'poll', sender: null, poll_id: 'p1', poll: { id: 'p1', question: 'Best?', options: ['a', 'b'], duration_seconds: 60, set_next_track: false, created_at_ms: T0, closes_at_ms: T0 + 60_000, closed: false, results: [0, 0] } });
    a.apply(poll, T0);
    a.apply({ type: 'poll_results', seq_id: 2, server_time_ms: T0, poll_id: 'p1', results: [1, 2], closed: false }, T0);
    const e = a.take(T0 + STATS_BUCKET_MS + 10);
    expect(e.listeners_scope).toBe('node');
    expect(e.buckets.map((b) => [b.joins, b.leaves, b.listeners])).toEqual([
      [2, 0, 2],
      [0, 1, 1],
    ]);
    expect(e.totals).toMatchObject({ joins: 2, leaves: 1, votes: 5, answers: 3 });
    expect(e.votes).toEqual([
      { track_id: 't1', name: 'One', votes: 2 },
      { track_id: 't2', name: 'Two', votes: 3 },
    ]);
    expect(e.questions[0]).toMatchObject({ id: 'p1', results: [1, 2], closed: false });
  });

  it('a deletion leaves the tail and is named; a block lists the fan by name, an unblock removes them', () => {
    const a = new PartyStatsAggregator(snapshot(), 'cluster');
    const m = message('oops');
    a.apply(m, T0);
    a.apply(message('', { sender: null, delete_message_id: m.id }), T0);
    a.apply({ type: 'user_can_chat', seq_id: 9, server_time_ms: T0, user_id: 'f1', can_chat: false }, T0);
    const e = a.take(T0 + 10);
    expect(e.chat).toEqual([]);
    expect(e.deleted_message_ids).toEqual([m.id]);
    expect(e.blocked).toEqual([{ user_id: 'f1', display_name: 'Fan One' }]);
    a.apply({ type: 'user_can_chat', seq_id: 10, server_time_ms: T0, user_id: 'f1', can_chat: true }, T0);
    expect(a.take(T0 + 20).blocked).toEqual([]);
  });

  it('messages per minute is the count of the last 60 s to the second, not of every 10 s bucket touching the minute', () => {
    const a = new PartyStatsAggregator(snapshot(), 'cluster');
    // Three messages 65 s, 30 s and 1 s before the reading; two of them in the last minute.
    const now = T0 + 5 * STATS_BUCKET_MS + 5_500;
    a.apply(message('old'), now - 65_000);
    a.apply(message('half'), now - 30_000);
    a.apply(message('new'), now - 1_000);
    const e = a.take(now);
    expect(e.totals.messages).toBe(3);
    expect(e.messages_last_minute).toBe(2);
    // A minute later the rate falls to zero while the total stays.
    const later = a.take(now + 60_000);
    expect(later.messages_last_minute).toBe(0);
    expect(later.totals.messages).toBe(3);
  });

  it('starts the per-minute rate from the stored messages of the last minute', () => {
    const a = new PartyStatsAggregator({ ...snapshot(), totalMessages: 7, messageSeconds: new Map([[T0 - 70_000, 4], [T0 - 10_000, 3]]) }, 'cluster');
    const e = a.take(T0);
    expect(e.messages_last_minute).toBe(3);
    expect(e.totals.messages).toBe(7);
  });

  it('joins and leaves of fan sockets before the first dashboard opened are counted (the ledger keeps them)', () => {
    const ledger = new JoinLedger();
    ledger.joined('p', T0 + 1, 1);
    ledger.joined('p', T0 + 2, 2);
    ledger.joined('p', T0 + 3, 3);
    ledger.left('p', T0 + STATS_BUCKET_MS + 1, 2);
    ledger.joined('other', T0, 1);
    const a = new PartyStatsAggregator({ ...snapshot(), joins: ledger.of('p') }, 'cluster');
    a.joined(T0 + 2 * STATS_BUCKET_MS, 3);
    const e = a.take(T0 + 2 * STATS_BUCKET_MS + 5);
    expect(e.totals).toMatchObject({ joins: 4, leaves: 1 });
    expect(e.listeners).toBe(3);
    expect(e.buckets.map((b) => [b.joins, b.leaves, b.listeners])).toEqual([
      [3, 0, 3],
      [0, 1, 2],
      [1, 0, 3],
    ]);
  });
});
