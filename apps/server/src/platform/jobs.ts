import type { Logger } from 'pino';

/** Work that becomes due at stored times (a poll closing, a scheduled message). */
export interface DueWork {
  name: string;
  /** Runs everything due at `now`; each item must be claimed in the database so one node runs it. */
  runDue(now: number): Promise<void>;
  /** The earliest stored due time, or null when nothing is pending. */
  nextDue(): Promise<number | null>;
}

/**
 * One timer per node that wakes for the earliest due time in the database (and at least every
 * `sweepMs`, which also picks up work created on other nodes). Every node may run the same item;
 * the claim in the database lets exactly one of them post it. `poke()` re-plans after new work.
 */
export class DueTimers {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly works: DueWork[],
    private readonly now: () => number,
    private readonly logger: Logger,
    private readonly sweepMs: number,
  ) {}

  start(): void {
    this.plan(0);
  }

  /** Something new may be due sooner than planned: run and re-plan now. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.plan(0);
  }

  /** Stops the timer and waits for a run in progress. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
      });
    }, delayMs);
  }

  private async tick(): Promise<void> {
    let next: number | null = null;
    let failed = false;
    do {
      this.again = false;
      next = null;
      for (const work of this.works) {
        if (this.stopped) return;
        try {
          await work.runDue(this.now());
          const due = await work.nextDue();
          if (due !== null && (next === null || due < next)) next = due;
        } catch (err) {
          failed = true;
          this.logger.error({ err, work: work.name }, 'chat timer work failed');
        }
      }
    } while (this.again && !this.stopped);
    const wait = next === null || failed ? this.sweepMs : Math.min(this.sweepMs, Math.max(0, next - this.now()));
    // A due time in the past that could not be claimed yet (another node on it) must not spin.
    this.plan(Math.max(wait, 5));
  }
}
