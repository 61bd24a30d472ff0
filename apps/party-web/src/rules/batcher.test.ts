import { describe, expect, it, vi } from 'vitest';
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

describe('chat batch rule: flushing early, disposing and the default timers', () => {
  function manual() {
    const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
    const batches: number[][] = [];
    const b = new Batcher<number>((items) => batches.push(items), 150, {
      setTimeout: (fn, ms) => timers.push({ fn, ms, cleared: false }) - 1,
      clearTimeout: (h) => void (timers[h as number]!.cleared = true),
    });
    return { b, timers, batches };
  }

  it('flushNow hands over what is pending at once and clears the window timer; with nothing pending it hands over nothing', () => {
    const { b, timers, batches } = manual();
    b.flushNow();
    expect(batches).toEqual([]);
    b.push(1);
    b.flushNow();
    expect(batches).toEqual([[1]]);
    expect(timers[0]!.cleared).toBe(true);
    // The next item opens a new window with its own timer, and only its items are handed over.
    b.push(2);
    expect(timers).toHaveLength(2);
    timers[1]!.fn();
    expect(batches).toEqual([[1], [2]]);
  });

  it('dispose drops pending items and clears the timer; the batcher can be used again after', () => {
    const { b, timers, batches } = manual();
    b.push(1);
    b.dispose();
    expect(timers[0]!.cleared).toBe(true);
    b.flushNow();
    expect(batches).toEqual([]);
    b.push(2);
    expect(timers).toHaveLength(2);
    b.dispose();
    b.dispose();
    expect(batches).toEqual([]);
  });

  it('by default it waits the 150 ms window on the real timers', () => {
    vi.useFakeTimers();
    try {
      const batches: string[][] = [];
      const b = new Batcher<string>((items) => batches.push(items));
      b.push('a');
      vi.advanceTimersByTime(149);
      expect(batches).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(batches).toEqual([['a']]);
      b.push('b');
      b.dispose();
      vi.advanceTimersByTime(500);
      expect(batches).toEqual([['a']]);
    } finally {
      vi.useRealTimers();
    }
  });
});
