/**
 * Campaign timing (spec §4): `started` fires when there is no `starts_at` or it has passed;
 * `ended` fires when `ends_at` passes. Timers cannot wait longer than 2147483647 ms (a longer
 * delay fires at once), so long waits are chunked and re-checked against the clock.
 */
import { TIMER_MAX_MS } from '@fanfare/protocol';
import { Emitter } from './emitter.ts';
import type { TimerApi } from './env.ts';

export type TimingPhase = 'upcoming' | 'running' | 'ended';
export interface TimingEvents extends Record<string, unknown> {
  started: { at: number };
  ended: { at: number };
}

/** Calls `fn` once `now()` reaches `at`, waiting in chunks of at most TIMER_MAX_MS. Returns a cancel function. */
export function waitUntil(timers: TimerApi, now: () => number, at: number, fn: () => void): () => void {
  let handle: unknown = null;
  let cancelled = false;
  const check = () => {
    if (cancelled) return;
    const remaining = at - now();
    if (remaining <= 0) {
      handle = null;
      fn();
      return;
    }
    handle = timers.setTimeout(check, Math.min(remaining, TIMER_MAX_MS));
  };
  check();
  return () => {
    cancelled = true;
    if (handle !== null) timers.clearTimeout(handle);
  };
}

export class CampaignTiming {
  readonly events = new Emitter<TimingEvents>();
  private cancels: Array<() => void> = [];
  private current: TimingPhase = 'upcoming';

  constructor(
    private readonly timers: TimerApi,
    private readonly now: () => number,
    /** Read on every `start()`, so edited dates take effect. */
    private readonly window: () => { starts_at: string | null; ends_at: string | null },
  ) {}

  get phase(): TimingPhase {
    return this.current;
  }

  /** Schedules the events; safe to call again after the campaign's dates change. */
  start(): void {
    this.stop();
    this.current = 'upcoming';
    const w = this.window();
    const startsAt = w.starts_at ? Date.parse(w.starts_at) : null;
    const endsAt = w.ends_at ? Date.parse(w.ends_at) : null;
    const start = () => {
      if (this.current !== 'upcoming') return;
      this.current = 'running';
      this.events.emit('started', { at: this.now() });
    };
    if (startsAt === null) start();
    else this.cancels.push(waitUntil(this.timers, this.now, startsAt, start));
    if (endsAt !== null) {
      this.cancels.push(
        waitUntil(this.timers, this.now, endsAt, () => {
          this.current = 'ended';
          this.events.emit('ended', { at: this.now() });
        }),
      );
    }
  }

  stop(): void {
    for (const cancel of this.cancels) cancel();
    this.cancels = [];
  }

  destroy(): void {
    this.stop();
    this.events.clear();
  }
}
