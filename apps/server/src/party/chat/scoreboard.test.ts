/** Quiz scoreboards take a duration in seconds (listening-party §5), like polls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { PARTY, startChatWorld, type ChatWorld } from './testkit.ts';

describe.each(DB_TARGETS)('quiz scoreboard duration on %s', (db) => {
  let w: ChatWorld;
  const params = { id: PARTY };
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());

  it('listening-party §5: a quiz scoreboard honours duration_seconds', async () => {
    const board = await w.host.client.call('postScoreboard', { params, body: { count: 5, duration_seconds: 45 } });
    expect(board.type).toBe('quiz_scoreboard');
    expect(board.duration_seconds).toBe(45);
    expect(board.closes_at_ms! - board.timestamp_ms).toBeGreaterThanOrEqual(44_000);
    expect(board.closes_at_ms! - board.timestamp_ms).toBeLessThanOrEqual(46_000);
    const recent = await w.fan.client.call('listRecentChatMessages', { params });
    expect(recent.items.find((m) => m.id === board.id)?.duration_seconds).toBe(45);
  });
});
