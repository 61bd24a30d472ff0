import { describe, expect, it } from 'vitest';
import { HeartbeatSlices, heartbeatSliceCount } from './heartbeat.ts';

describe('heartbeat slices', () => {
  it('heartbeats are staggered: each tick pings about 1/slices of the sockets, every socket once per interval', () => {
    const h = new HeartbeatSlices(20);
    const slots = Array.from({ length: 10_000 }, () => h.assign());
    const pinged = new Array<number>(slots.length).fill(0);
    let largestTick = 0;
    for (let t = 0; t < 20; t++) {
      const due = h.tick();
      let n = 0;
      slots.forEach((slot, i) => {
        if (slot === due) {
          pinged[i]!++;
          n++;
        }
      });
      largestTick = Math.max(largestTick, n);
    }
    expect(largestTick).toBe(500);
    expect(pinged.every((p) => p === 1)).toBe(true);
  });

  it('20 ticks per interval, at least 10 ms apart for short (test) intervals', () => {
    expect(heartbeatSliceCount(20_000)).toBe(20);
    expect(heartbeatSliceCount(300)).toBe(20);
    expect(heartbeatSliceCount(100)).toBe(10);
    expect(heartbeatSliceCount(50)).toBe(5);
    expect(() => new HeartbeatSlices(0)).toThrow();
  });
});
