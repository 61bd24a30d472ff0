/**
 * A latency histogram with 1 ms buckets (the resolution of the millisecond timestamps we compare)
 * up to a ceiling; larger values land in the last bucket. Mergeable across processes.
 */
export class Histogram {
  readonly counts: Float64Array;
  total = 0;
  max = 0;
  sum = 0;

  constructor(readonly ceilingMs = 120_000) {
    this.counts = new Float64Array(ceilingMs + 1);
  }

  add(ms: number, times = 1): void {
    const v = ms < 0 ? 0 : Math.round(ms);
    this.counts[v > this.ceilingMs ? this.ceilingMs : v]! += times;
    this.total += times;
    this.sum += v * times;
    if (v > this.max) this.max = v;
  }

  /** The value at quantile q (0..1), in ms; NaN when empty. */
  quantile(q: number): number {
    if (this.total === 0) return NaN;
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return i;
    }
    return this.ceilingMs;
  }

  mean(): number {
    return this.total ? this.sum / this.total : NaN;
  }

  /** Sparse form `[[ms, count], ...]` for IPC and JSON. */
  toSparse(): [number, number][] {
    const out: [number, number][] = [];
    for (let i = 0; i < this.counts.length; i++) if (this.counts[i]) out.push([i, this.counts[i]!]);
    return out;
  }

  addSparse(sparse: [number, number][]): void {
    for (const [ms, n] of sparse) this.add(ms, n);
  }
}
