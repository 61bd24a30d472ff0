import { describe, expect, it } from 'vitest';
import { EventLog } from './eventLog.ts';
import { Sequencer } from './sequencer.ts';
import { waitFor } from '../test/liveParty.ts';

describe('Sequencer: per-party delivery in seq_id order', () => {
  it('delivers in order, holding a later event until the earlier one arrives', () => {
    const got: number[] = [];
    const s = new Sequencer<string>(10_000, (_, seq) => got.push(seq));
    s.start(0);
    s.push(1, 'a');
    s.push(3, 'c');
    s.push(4, 'd');
    expect(got).toEqual([1]);
    s.push(2, 'b');
    expect(got).toEqual([1, 2, 3, 4]);
    expect(s.delivered).toBe(4);
    s.close();
  });

  it('buffers events before start and delivers those at or below the head first', () => {
    const got: number[] = [];
    const s = new Sequencer<string>(10_000, (_, seq) => got.push(seq));
    s.push(7, 'x');
    s.push(6, 'y');
    s.push(9, 'z');
    s.start(7);
    expect(got).toEqual([6, 7]);
    s.push(8, 'w');
    expect(got).toEqual([6, 7, 8, 9]);
    s.close();
  });

  it('skips a gap that never fills after the timeout; a straggler is still delivered, not lost', async () => {
    const got: number[] = [];
    const s = new Sequencer<string>(30, (_, seq) => got.push(seq));
    s.start(0);
    s.push(2, 'b');
    s.push(3, 'c');
    await waitFor('gap skipped', () => got.length === 2);
    expect(got).toEqual([2, 3]);
    s.push(1, 'late');
    expect(got).toEqual([2, 3, 1]);
    s.close();
  });

  it('asks fill for the missing range before skipping (events missed by pub/sub are in the log)', async () => {
    const got: string[] = [];
    const asked: [number, number][] = [];
    const s = new Sequencer<string>(
      30,
      (item) => got.push(item),
      async (from, to) => {
        asked.push([from, to]);
        return [
          [2, 'two'],
          [3, 'three'],
        ];
      },
    );
    s.start(1);
    s.push(4, 'four');
    await waitFor('filled', () => got.length === 3);
    expect(asked).toEqual([[2, 3]]);
    expect(got).toEqual(['two', 'three', 'four']);
    s.close();
  });
});

describe('EventLog: the retained window', () => {
  it('keeps the last N events in seq_id order and reports what it dropped', () => {
    const log = new EventLog<number>(3);
    for (const seq of [1, 2, 4, 3, 5]) log.add(seq, seq * 10);
    expect(log.after(0)).toEqual([30, 40, 50]);
    expect(log.trimmedThrough).toBe(2);
    expect(log.after(3)).toEqual([40, 50]);
    log.add(4, 99); // a repeat is ignored
    log.add(1, 99); // older than the window: ignored
    expect(log.after(0)).toEqual([30, 40, 50]);
  });

  it('stays correct over many compactions', () => {
    const log = new EventLog<number>(100);
    for (let seq = 1; seq <= 10_000; seq++) log.add(seq, seq);
    expect(log.size).toBe(100);
    expect(log.after(9_950)).toEqual(Array.from({ length: 50 }, (_, i) => 9_951 + i));
    expect(log.trimmedThrough).toBe(9_900);
  });
});
