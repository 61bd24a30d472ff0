/**
 * Whether this node is taking a reconnect storm: at least `perSecond` sockets arrived within the
 * last second (counted in whole-second buckets). The state holds for `holdMs` after the last such
 * second, so it does not flap while the storm tails off.
 *
 * A storm saturates a node without making its event loop late (each turn stays short, there is
 * just always another one), so the busy gauge alone misses it; joins name the cause directly.
 */
export class JoinStorm {
  private bucketStart = 0;
  private inBucket = 0;
  private stormUntil = -Infinity;
  /** Numbers the storms, from 1: a socket that came with one knows which (decision 0054). */
  episode = 0;

  constructor(
    private readonly options: { perSecond: number; holdMs: number },
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** One socket arrived. */
  joined(): void {
    const now = this.clock();
    if (now - this.bucketStart >= 1_000) {
      this.bucketStart = now;
      this.inBucket = 0;
    }
    if (++this.inBucket < this.options.perSecond) return;
    if (now >= this.stormUntil) this.episode++;
    this.stormUntil = now + this.options.holdMs;
  }

  get active(): boolean {
    return this.clock() < this.stormUntil;
  }
}
