/**
 * Delivers the events of one party in `seq_id` order. Events may arrive out of order (a `seq_id`
 * reserved with `nextSeq` and published after a later one, or two nodes publishing at once): a
 * later event waits until the missing ones arrive, at most `gapTimeoutMs`, after which the gap is
 * skipped (the reserving write failed or its node died). Before skipping, `fill` may fetch the
 * missing events from the shared log (a node that missed pub/sub messages, e.g. during a Redis
 * reconnect). An event that arrives after its gap was skipped is still delivered (late, out of
 * order) rather than lost.
 */
export class Sequencer<T> {
  /** Next `seq_id` to deliver; null until `start` tells where the stream stands. */
  private expected: number | null = null;
  private readonly pending = new Map<number, T>();
  private gapTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private filling = false;
  /** The highest `seq_id` known to exist (from `catchUp`), delivered or not. */
  private knownHead = 0;

  constructor(
    private readonly gapTimeoutMs: number,
    private readonly deliver: (item: T, seq: number) => void,
    private readonly fill?: (fromSeq: number, toSeq: number) => Promise<[number, T][]>,
  ) {}

  /** The last `seq_id` delivered in order (null before `start`). */
  get delivered(): number | null {
    return this.expected === null ? null : this.expected - 1;
  }

  /**
   * Sets the stream position: events up to `head` are history. Events buffered before the start
   * are delivered first, in order.
   */
  start(head: number): void {
    const buffered = [...this.pending.entries()].sort((a, b) => a[0] - b[0]);
    this.pending.clear();
    const later: [number, T][] = [];
    for (const [seq, item] of buffered) {
      if (seq <= head) this.deliver(item, seq);
      else later.push([seq, item]);
    }
    this.expected = head + 1;
    for (const [seq, item] of later) this.pending.set(seq, item);
    this.drain();
  }

  push(seq: number, item: T): void {
    if (this.closed) return;
    if (this.expected === null) {
      this.pending.set(seq, item);
      return;
    }
    if (seq < this.expected) {
      this.deliver(item, seq);
      return;
    }
    this.pending.set(seq, item);
    this.drain();
  }

  /**
   * Events up to `head` exist in the shared log (this node may have missed their messages, e.g.
   * while resubscribing after a reconnect): after the gap timeout, fetch what is still missing,
   * then go on after `head`, as for any gap.
   */
  catchUp(head: number): void {
    if (this.closed || this.expected === null || head < this.expected) return;
    this.knownHead = Math.max(this.knownHead, head);
    if (!this.gapTimer) {
      this.gapTimer = setTimeout(() => this.skipGap(), this.gapTimeoutMs);
      this.gapTimer.unref();
    }
  }

  close(): void {
    this.closed = true;
    if (this.gapTimer) clearTimeout(this.gapTimer);
    this.gapTimer = null;
    this.pending.clear();
  }

  private drain(): void {
    if (this.expected === null) return;
    for (;;) {
      const item = this.pending.get(this.expected);
      if (item === undefined) break;
      this.pending.delete(this.expected);
      this.deliver(item, this.expected);
      this.expected++;
    }
    if (this.pending.size === 0 && this.knownHead < this.expected) {
      if (this.gapTimer) clearTimeout(this.gapTimer);
      this.gapTimer = null;
    } else if (!this.gapTimer) {
      this.gapTimer = setTimeout(() => this.skipGap(), this.gapTimeoutMs);
      this.gapTimer.unref();
    }
  }

  private skipGap(): void {
    this.gapTimer = null;
    if (this.expected === null || this.closed) return;
    if (this.pending.size === 0 && this.knownHead < this.expected) return;
    const from = this.expected;
    const to = this.pending.size > 0 ? Math.min(...this.pending.keys()) - 1 : this.knownHead;
    if (!this.fill) return this.skipTo(to + 1);
    if (this.filling) {
      this.gapTimer = setTimeout(() => this.skipGap(), this.gapTimeoutMs);
      this.gapTimer.unref();
      return;
    }
    this.filling = true;
    let fetched = false;
    this.fill(from, to)
      .then((found) => {
        fetched = true;
        for (const [seq, item] of found) if (this.expected !== null && seq >= this.expected) this.pending.set(seq, item);
      })
      .catch(() => undefined)
      .finally(() => {
        this.filling = false;
        if (this.closed) return;
        if (!fetched) {
          // The shared log is unreachable (Redis away): hold on and ask again, rather than skip
          // events that may well be in it.
          this.gapTimer ??= setTimeout(() => this.skipGap(), this.gapTimeoutMs);
          this.gapTimer.unref();
          return;
        }
        this.drain();
        if (this.expected !== null && this.expected <= to) this.skipTo(to + 1);
      });
  }

  private skipTo(seq: number): void {
    if (this.expected === null || seq <= this.expected) return;
    this.expected = Math.min(seq, ...this.pending.keys());
    this.drain();
  }
}
