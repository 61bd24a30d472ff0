import type { ChatMessage, PartyStatsEvent } from '@fanfare/protocol';
import { describe, expect, it } from 'vitest';
import { CHAT_VIEW_SIZE, dashboardReducer, initialDashboardState, messagesPerMinute, reconnectDelayMs, sourceRows } from './statsState.ts';

const msg = (id: string): ChatMessage => ({ id, seq_id: 1, timestamp_ms: 1, type: 'message', sender: null, text: id });
const stats = (chat: ChatMessage[], deleted: string[] = [], skipped = 0): PartyStatsEvent => ({
  type: 'party_stats',
  server_time_ms: 1,
  listeners: 0,
  listeners_scope: 'cluster',
  sources: { provider: 0, label_stream: 0, preview: 0, none: 0, unknown: 0 },
  buckets: [],
  messages_last_minute: 0,
  totals: { messages: 0, joins: 0, leaves: 0, votes: 0, answers: 0 },
  votes: [],
  questions: [],
  status: null,
  started_at: null,
  ends_at: null,
  chat,
  chat_skipped: skipped,
  deleted_message_ids: deleted,
  blocked: [],
});

describe('the live dashboard state', () => {
  it('keeps the newest CHAT_VIEW_SIZE messages across events, without duplicates, and drops deleted ones', () => {
    let s = dashboardReducer(initialDashboardState, { type: 'stats', event: stats([msg('a'), msg('b')]), at: 1 });
    s = dashboardReducer(s, { type: 'stats', event: stats([msg('b'), msg('c')], ['a'], 5), at: 2 });
    expect(s.chat.map((m) => m.id)).toEqual(['b', 'c']);
    expect(s.skipped).toBe(5);
    expect(s.connection).toBe('live');
    const many = Array.from({ length: CHAT_VIEW_SIZE + 10 }, (_, i) => msg(`x${i}`));
    s = dashboardReducer(s, { type: 'stats', event: stats(many), at: 3 });
    expect(s.chat).toHaveLength(CHAT_VIEW_SIZE);
    expect(s.chat.at(-1)!.id).toBe(`x${CHAT_VIEW_SIZE + 9}`);
  });

  it('reconnects after 0.4·(2^n−1) s plus up to 1 s of jitter (spec 4 socket rule), capped', () => {
    expect(reconnectDelayMs(1, () => 0)).toBe(400);
    expect(reconnectDelayMs(3, () => 0)).toBe(2800);
    expect(reconnectDelayMs(2, () => 0.5)).toBe(1700);
    expect(reconnectDelayMs(50, () => 0)).toBe(25_200);
  });
});

describe('the chat chart\'s messages per minute', () => {
  it('is the count of the minute ending with each bucket, not a 10 s count times 6', () => {
    const b = (start_ms: number, messages: number) => ({ start_ms, joins: 0, leaves: 0, messages, listeners: 0 });
    const series = messagesPerMinute([b(0, 2), b(10_000, 1), b(50_000, 0), b(60_000, 3), b(70_000, 0)]);
    expect(series.map((s) => s.perMinute)).toEqual([2, 3, 3, 4, 3]);
  });
});

describe('listeners by effective source', () => {
  it('lists every source with its listeners and share, previews included, and zero shares without listeners', () => {
    const rows = sourceRows({ provider: 2, label_stream: 1, preview: 1, none: 0, unknown: 0 });
    expect(rows.map((r) => [r.key, r.listeners, r.percent])).toEqual([
      ['provider', 2, 50],
      ['label_stream', 1, 25],
      ['preview', 1, 25],
      ['none', 0, 0],
      ['unknown', 0, 0],
    ]);
    expect(sourceRows({ provider: 0, label_stream: 0, preview: 0, none: 0, unknown: 0 }).every((r) => r.percent === 0)).toBe(true);
  });
});
