/**
 * The last `capacity` events of one party, ordered by `seq_id` (for `resume`). Events usually
 * arrive in order; one published late (reserved with `nextSeq`) is inserted in its place.
 */
export class EventLog<T = unknown> {
  private seqs: number[] = [];
  private items: T[] = [];
  private start = 0;
  /** Highest `seq_id` dropped to respect the capacity (0 while nothing was dropped). */
  trimmedThrough = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.seqs.length - this.start;
  }

  add(seq: number, item: T): void {
    let i = this.seqs.length;
    while (i > this.start && this.seqs[i - 1]! > seq) i--;
    if (i > this.start && this.seqs[i - 1] === seq) return;
    if (seq <= this.trimmedThrough) return;
    if (i === this.seqs.length) {
      this.seqs.push(seq);
      this.items.push(item);
    } else {
      this.seqs.splice(i, 0, seq);
      this.items.splice(i, 0, item);
    }
    while (this.size > this.capacity) {
      this.trimmedThrough = this.seqs[this.start]!;
      this.items[this.start] = undefined as T;
      this.start++;
    }
    // Compact now and then instead of shifting the arrays on every drop.
    if (this.start > 1024 && this.start > this.size) {
      this.seqs = this.seqs.slice(this.start);
      this.items = this.items.slice(this.start);
      this.start = 0;
    }
  }

  /** Events with `seq_id` greater than `afterSeq`, in order. */
  after(afterSeq: number): T[] {
    let lo = this.start;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqs[mid]! <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    return this.items.slice(lo);
  }
}
