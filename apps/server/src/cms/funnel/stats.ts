import { errorFunction } from 'simple-statistics';

/** A two-sided two-proportion z-test: successes and trials of two groups. */
export interface ProportionTest {
  z: number;
  pValue: number;
}

/** Φ, the standard normal distribution function. */
export function normalCdf(x: number): number {
  return 0.5 * (1 + errorFunction(x / Math.SQRT2));
}

/**
 * Whether the share of successes differs between group A and group B (pooled standard error,
 * two-sided). Null when a group has no trials. Equal shares of 0 or 1 (no variance) give z = 0,
 * p = 1. Successes above the trials (a visitor who logs in twice) are counted as the trials.
 */
export function twoProportionZTest(successesA: number, trialsA: number, successesB: number, trialsB: number): ProportionTest | null {
  if (trialsA <= 0 || trialsB <= 0) return null;
  const xa = Math.min(successesA, trialsA);
  const xb = Math.min(successesB, trialsB);
  const pooled = (xa + xb) / (trialsA + trialsB);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / trialsA + 1 / trialsB));
  if (se === 0) return { z: 0, pValue: 1 };
  const z = (xb / trialsB - xa / trialsA) / se;
  const pValue = Math.min(1, Math.max(0, 2 * (1 - normalCdf(Math.abs(z)))));
  return { z, pValue };
}
