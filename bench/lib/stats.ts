/** Summaries over a bench's rounds: the median and the min–max of the finite values. */

/** The median of the finite values (the mean of the middle two for an even count); NaN when none. */
export function median(xs: number[]): number {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

/** "min–max" of the finite values, each written by `format`; "-" when none. */
export function spread(xs: number[], format: (x: number) => string = String): string {
  const v = xs.filter((x) => Number.isFinite(x));
  return v.length ? `${format(Math.min(...v))}–${format(Math.max(...v))}` : '-';
}

/** "median (min–max)" of the values, each written by `format`. */
export function medianWithSpread(xs: number[], format: (x: number) => string = String): string {
  return `${format(median(xs))} (${spread(xs, format)})`;
}
