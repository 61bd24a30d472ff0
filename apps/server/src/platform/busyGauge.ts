/**
 * Whether this process is busy: a timer that should fire every `periodMs` and fires more than
 * `lateMs` late means the event loop is saturated (a reconnect storm, a burst of requests). The
 * node stays busy for `holdMs` after the last late tick, so the state does not flap.
 */
export class BusyGauge {
  private timer: NodeJS.Timeout | null = null;
  private expected = 0;
  private busyUntil = 0;
  /** Late ticks seen (for tests and metrics). */
  lateTicks = 0;

  constructor(
    private readonly options: { periodMs: number; lateMs: number; holdMs: number },
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
      this.busyUntil = now + this.options.holdMs;
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
