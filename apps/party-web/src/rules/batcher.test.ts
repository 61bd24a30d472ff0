import { describe, expect, it } from 'vitest';
import { CHAT_BATCH_WINDOW_MS } from '@fanfare/protocol';
import { Batcher } from './batcher.ts';

describe('chat batch rule: events applied together per 150 ms window (spec 4 and 9)', () => {
  it('flushes everything pushed within one window at once, after 150 ms', () => {
    const timers: { fn: () => void; ms: number }[] = [];
    const batches: number[][] = [];
    const b = new Batcher<number>((items) => batches.push(items), CHAT_BATCH_WINDOW_MS, {
      setTimeout: (fn, ms) => timers.push({ fn, ms }),
      clearTimeout: () => undefined,
    });
    b.push(1);
    b.push(2);
    b.push(3);
    expect(timers).toHaveLength(1);
    expect(timers[0]!.ms).toBe(150);
    expect(batches).toEqual([]);
    timers[0]!.fn();
    expect(batches).toEqual([[1, 2, 3]]);
    b.push(4);
    expect(timers).toHaveLength(2);
  });
});
