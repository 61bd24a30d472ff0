import { describe, expect, it } from 'vitest';
import { normalCdf, twoProportionZTest } from './stats.ts';

describe('funnel A/B: two-proportion z-test', () => {
  it('10 % against 15 % of 1000 visits each: z ≈ 3.38, p ≈ 0.0007 (pooled, two-sided)', () => {
    const t = twoProportionZTest(100, 1000, 150, 1000)!;
    expect(t.z).toBeCloseTo(3.3806, 3);
    expect(t.pValue).toBeCloseTo(0.000723, 5);
  });

  it('is symmetric: swapping the groups flips z and keeps p', () => {
    const ab = twoProportionZTest(30, 200, 45, 210)!;
    const ba = twoProportionZTest(45, 210, 30, 200)!;
    expect(ba.z).toBeCloseTo(-ab.z, 10);
    expect(ba.pValue).toBeCloseTo(ab.pValue, 10);
  });

  it('equal shares give p = 1, also without variance (all or none converted)', () => {
    expect(twoProportionZTest(20, 100, 40, 200)!.pValue).toBeCloseTo(1, 10);
    expect(twoProportionZTest(0, 100, 0, 50)).toEqual({ z: 0, pValue: 1 });
    expect(twoProportionZTest(100, 100, 50, 50)).toEqual({ z: 0, pValue: 1 });
  });

  it('has no answer when a group has no visits', () => {
    expect(twoProportionZTest(0, 0, 5, 10)).toBeNull();
    expect(twoProportionZTest(5, 10, 0, 0)).toBeNull();
  });

  it('counts successes above the trials as the trials (a visitor who logs in twice)', () => {
    expect(twoProportionZTest(150, 100, 100, 100)).toEqual({ z: 0, pValue: 1 });
  });

  it('Φ matches known values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
  });
});
