/**
 * The heartbeat in slices (issue 16): instead of pinging every socket in one loop each interval
 * (10,000 writes at once: +100 ms on p99 in the window it falls in), the interval is cut into
 * `slices` ticks and each socket is pinged on its own tick, once per interval. Sockets get their
 * tick round-robin when they open, so every tick pings about 1/slices of them.
 */
export class HeartbeatSlices {
  private nextSlot = 0;
  private tickNo = 0;

  constructor(readonly slices: number) {
    if (!Number.isInteger(slices) || slices < 1) throw new Error('slices must be a positive integer');
  }

  /** The tick a new socket is pinged on. */
  assign(): number {
    const slot = this.nextSlot;
    this.nextSlot = (this.nextSlot + 1) % this.slices;
    return slot;
  }

  /** Advances to the next tick; returns the slot whose sockets are due now. */
  tick(): number {
    const slot = this.tickNo;
    this.tickNo = (this.tickNo + 1) % this.slices;
    return slot;
  }
}

/** Ticks per heartbeat interval: 20, fewer for very short intervals (tests) so a tick is at least 10 ms. */
export function heartbeatSliceCount(heartbeatMs: number): number {
  return Math.max(1, Math.min(20, Math.floor(heartbeatMs / 10)));
}
