import { CHAT_BATCH_WINDOW_MS } from '@fanfare/protocol';

/** Timer functions, injectable so tests drive time. */
export interface BatchTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * Collects items and hands them over together once per window (spec 4: chat events are batched
 * in a 150 ms window). The window starts with the first item after a flush.
 */
export class Batcher<T> {
  private items: T[] = [];
  private timer: unknown = null;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly windowMs: number = CHAT_BATCH_WINDOW_MS,
    private readonly timers: BatchTimers = {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    },
  ) {}

  push(item: T): void {
    this.items.push(item);
    if (this.timer === null) this.timer = this.timers.setTimeout(() => this.flushNow(), this.windowMs);
  }

  /** Hands over what is pending now. */
  flushNow(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    if (this.items.length === 0) return;
    const batch = this.items;
    this.items = [];
    this.flush(batch);
  }

  /** Drops pending items and the timer. */
  dispose(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.items = [];
  }
}
