/**
 * Whether this process is busy: a timer that should fire every `periodMs` and fires more than
 * `lateMs` late, `lateTicksToTrip` times within `withinMs`, means the event loop is saturated (a
 * reconnect storm, a burst of requests). One late tick is not enough: a garbage collection or a
 * moment without a core makes one, and would widen every party's batch window for nothing. The
 * node stays busy for `holdMs` after the last such run of late ticks, so the state does not flap.
 */
export class BusyGauge {
  private timer: NodeJS.Timeout | null = null;
  private expected = 0;
  private busyUntil = 0;
  /** When the most recent late ticks came (oldest first, at most `lateTicksToTrip` of them). */
  private readonly recentLate: number[] = [];
  /** Late ticks seen (for tests and metrics). */
  lateTicks = 0;

  constructor(
    private readonly options: { periodMs: number; lateMs: number; lateTicksToTrip: number; withinMs: number; holdMs: number },
    private readonly clock: () => number = () => performance.now(),
  ) {}

  start(): void {
    if (this.timer) return;
    this.expected = this.clock() + this.options.periodMs;
    this.timer = setInterval(() => this.tick(), this.options.periodMs);
    this.timer.unref();
  }

  /** One tick of the timer (called by the interval; tests call it with their own clock). */
  tick(): void {
    const now = this.clock();
    if (now - this.expected > this.options.lateMs) {
      this.lateTicks++;
      this.recentLate.push(now);
      if (this.recentLate.length > this.options.lateTicksToTrip) this.recentLate.shift();
      if (this.recentLate.length === this.options.lateTicksToTrip && now - this.recentLate[0]! <= this.options.withinMs) {
        this.busyUntil = now + this.options.holdMs;
      }
    }
    this.expected = now + this.options.periodMs;
  }

  get busy(): boolean {
    return this.clock() < this.busyUntil;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
