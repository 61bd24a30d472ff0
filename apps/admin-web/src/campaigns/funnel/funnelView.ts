import type { FunnelCounts, FunnelReport } from '@fanfare/protocol';

/** Names of the funnel's steps as the back office shows them. */
export const STEP_LABELS: Record<keyof FunnelCounts, string> = {
  visit: 'Visits',
  login: 'Logins',
  signup: 'Signups',
  confirmed: 'Confirmed',
  presave: 'Pre-saves',
  gate_pass: 'Gate passes',
  play: 'Plays',
};

/** A share as a percentage with one decimal, e.g. `12.5 %`; a dash without a base. */
export function percent(share: number | null | undefined, hasBase = true): string {
  if (share == null || !hasBase) return '–';
  return `${(share * 100).toFixed(1)} %`;
}

/** The confidence of an A/B difference in words a label can act on. */
export function confidenceText(confidence: number | null): string {
  if (confidence === null) return 'Not enough visits';
  if (confidence >= 0.95) return `${percent(confidence)} — a real difference`;
  if (confidence >= 0.8) return `${percent(confidence)} — likely, keep testing`;
  return `${percent(confidence)} — no clear difference yet`;
}

/** The series for the over-time chart: one point per bucket with the funnel's steps. */
export function seriesRows(report: FunnelReport): Record<string, string | number>[] {
  const fmt = (ms: number) => {
    const iso = new Date(ms).toISOString();
    return report.bucket === 'hour' ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
  };
  return report.series.map((s) => ({ bucket: fmt(s.start), Visits: s.counts.visit, Signups: s.counts.signup, 'Pre-saves': s.counts.presave }));
}
