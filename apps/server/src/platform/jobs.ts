import type { Logger } from 'pino';
import { ALL_TABLES, type TableChanges } from './db/changes.ts';

/**
 * How long a node trusts its last look when no table its jobs read was written and nothing is due:
 * the bound on a missed change message from another node (the other nodes act on their own writes).
 */
export const FULL_LOOK_EVERY_MS = 5_000;

/**
 * Work that becomes due at times stored in the database: a track's end, a party's auto start or
 * end, a poll or quiz question closing, a scheduled message.
 */
export interface Job {
  name: string;
  /**
   * Runs everything due at `now`. Each item must be claimed in the database (a conditional update
   * or a compare-and-set) before it acts, so when every node runs the job exactly one acts.
   */
  runDue(now: number): Promise<void>;
  /** The earliest stored due time, or null when nothing is pending. */
  nextDue(): Promise<number | null>;
  /** The tables whose writes can add work or move its due time. */
  readsTables: readonly string[];
}

/**
 * The one scheduler of a server process for every due-time action. One timer per node wakes for
 * the earliest due time of all jobs, and at least every `sweepMs` (which picks up work created on
 * other nodes, or a clock moved in tests). Every node may run the same item; the claim in the
 * database lets exactly one of them act, so no lock service is needed. `poke()` re-plans at once
 * after new work was stored on this node.
 *
 * Given the database's change feed, a sweep asks the database only when a table the jobs read was
 * written (here or, through Redis, on another node), something is due, or `FULL_LOOK_EVERY_MS`
 * passed: an idle node otherwise ran every job's queries four times a second (issue 16).
 */
export class JobScheduler {
  private readonly jobs: Job[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;
  /** What the last look found: the earliest due time, when it ran, and whether a watched table was written since. */
  private knownDue: number | null = null;
  private lookedAt = -Infinity;
  private stale = true;
  private readonly watched = new Set<string>([ALL_TABLES]);
  private readonly unlisten: (() => void) | null;
  /** Each job's earliest due time at the last look, to tell the metrics how late its run came. */
  private readonly dueOf = new Map<string, number | null>();
  /** Told how late (ms after its due time) a job ran work that was due (the metrics' scheduler lag). */
  onLag: ((job: string, lateMs: number) => void) | null = null;

  constructor(
    private readonly now: () => number,
    private readonly logger: Logger,
    private readonly sweepMs: number,
    changes?: TableChanges,
  ) {
    this.unlisten = changes?.listen((table) => {
      if (this.watched.has(table)) this.stale = true;
    }) ?? null;
  }

  /** Adds jobs; a running scheduler looks at them on its next run (now, when poked). */
  add(...jobs: Job[]): void {
    this.jobs.push(...jobs);
    for (const job of jobs) for (const table of job.readsTables) this.watched.add(table);
    if (this.started) this.poke();
  }

  start(): void {
    this.started = true;
    this.plan(0);
  }

  /** Something new may be due sooner than planned: run and re-plan now. */
  poke(): void {
    this.stale = true;
    if (this.stopped || !this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.plan(0);
  }

  /** Stops the timer and waits for a run in progress. */
  async close(): Promise<void> {
    this.stopped = true;
    this.unlisten?.();
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
    this.timer.unref();
  }

  /** Whether the database may hold work that the last look did not see. */
  private mustLook(now: number): boolean {
    return this.unlisten === null || this.stale || (this.knownDue !== null && this.knownDue <= now) || now - this.lookedAt >= FULL_LOOK_EVERY_MS;
  }

  private async tick(): Promise<void> {
    const now = this.now();
    if (!this.mustLook(now)) return this.planUntil(this.knownDue, false);
    let next: number | null = null;
    let failed = false;
    let ranAt = this.now();
    do {
      this.again = false;
      // Cleared before the queries: a write while they run makes the next sweep look again.
      this.stale = false;
      next = null;
      ranAt = this.now();
      for (const job of this.jobs) {
        if (this.stopped) return;
        try {
          const startedAt = this.now();
          const wasDue = this.dueOf.get(job.name);
          if (wasDue != null && wasDue <= startedAt) this.onLag?.(job.name, startedAt - wasDue);
          await job.runDue(startedAt);
          const due = await job.nextDue();
          this.dueOf.set(job.name, due);
          if (due !== null && (next === null || due < next)) next = due;
        } catch (err) {
          failed = true;
          this.logger.error({ err, job: job.name }, 'scheduled job failed');
        }
      }
    } while (this.again && !this.stopped);
    // Work still due after this run could not be done now (another node holds it, or it was
    // refused): look again at the next sweep rather than spin on it.
    const stuck = next !== null && next <= ranAt;
    this.knownDue = next;
    this.lookedAt = ranAt;
    if (failed) this.stale = true;
    this.planUntil(next, failed || stuck);
  }

  /** The next sweep: at the due time `next` when it comes first, else after `sweepMs` (always, when `atSweep`). */
  private planUntil(next: number | null, atSweep: boolean): void {
    const wait = next === null || atSweep ? this.sweepMs : Math.min(this.sweepMs, Math.max(0, next - this.now()));
    this.plan(Math.max(wait, 5));
  }
}
