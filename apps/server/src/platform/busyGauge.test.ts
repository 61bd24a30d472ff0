import { describe, expect, it } from 'vitest';
import { BusyGauge } from './busyGauge.ts';

const OPTIONS = { periodMs: 50, lateMs: 40, lateTicksToTrip: 3, withinMs: 1_000, holdMs: 2_000 };

/** A gauge on a clock the test moves; `tickAt(t)` fires the timer at time t. */
function gauge() {
  let now = 0;
  const g = new BusyGauge(OPTIONS, () => now);
  g.start();
  g.stop();
  const tickAt = (t: number) => {
    now = t;
    g.tick();
  };
  return { g, tickAt, setNow: (t: number) => (now = t) };
}

describe('busy gauge', () => {
  it('three ticks later than the allowance within a second mark the node busy, and it stays busy for the hold time only', () => {
    const { g, tickAt, setNow } = gauge();
    // On time, or late within the allowance: not busy.
    tickAt(50);
    tickAt(139);
    expect(g.busy).toBe(false);
    // 41 ms past the expected time, three times running.
    tickAt(230);
    tickAt(321);
    expect(g.busy).toBe(false);
    tickAt(412);
    expect(g.busy).toBe(true);
    expect(g.lateTicks).toBe(3);
    setNow(2_411);
    expect(g.busy).toBe(true);
    setNow(2_412);
    expect(g.busy).toBe(false);
  });

  it('one late tick (a garbage collection, a moment without a core) does not mark the node busy', () => {
    const { g, tickAt } = gauge();
    tickAt(400);
    expect(g.lateTicks).toBe(1);
    expect(g.busy).toBe(false);
  });

  it('late ticks spread over more than a second do not mark the node busy', () => {
    const { g, tickAt } = gauge();
    // Late ticks 700 ms apart, on-time ticks between them.
    let t = 0;
    for (let i = 0; i < 4; i++) {
      t += 200;
      tickAt(t);
      for (let k = 0; k < 10; k++) tickAt((t += 50));
    }
    expect(g.lateTicks).toBe(4);
    expect(g.busy).toBe(false);
  });
});
