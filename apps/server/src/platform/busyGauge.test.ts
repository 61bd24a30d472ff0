import { describe, expect, it } from 'vitest';
import { BusyGauge } from './busyGauge.ts';

describe('busy gauge', () => {
  it('a tick later than the allowance marks the node busy, and it stays busy for the hold time only', () => {
    let now = 0;
    const g = new BusyGauge({ periodMs: 50, lateMs: 40, holdMs: 2_000 }, () => now);
    g.start();
    g.stop();
    // On time, or late within the allowance: not busy.
    now = 50;
    g.tick();
    now = 139;
    g.tick();
    expect(g.busy).toBe(false);
    // 41 ms past the expected 189: busy.
    now = 230;
    g.tick();
    expect(g.busy).toBe(true);
    expect(g.lateTicks).toBe(1);
    now = 2_229;
    expect(g.busy).toBe(true);
    now = 2_230;
    expect(g.busy).toBe(false);
  });
});
