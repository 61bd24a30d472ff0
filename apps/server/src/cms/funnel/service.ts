/**
 * The campaign funnel (decision 0039). `recordFunnelEvent(s)` is what pages (through the ingest
 * route) and the server's own flows (newsletter signup and confirmation, pre-saves) call;
 * `funnelReport` answers `GET /api/campaigns/{id}/funnel` from the hourly rollup.
 */
import {
  FUNNEL_EVENT_KINDS,
  FUNNEL_MAX_BUCKETS,
  FUNNEL_MAX_CHANNELS,
  FUNNEL_STEPS,
  FUNNEL_VARIANTS,
  FunnelContext,
  funnelChannelName,
  type FunnelBucket,
  type FunnelChannelRow,
  type FunnelComparisonRow,
  type FunnelContextInput,
  type FunnelCounts,
  type FunnelEventKind,
  type FunnelEventsBody,
  type FunnelQueryValues,
  type FunnelReport,
  type FunnelVariant,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import { unprocessable } from '../../platform/errors.ts';
import { getCampaign } from '../campaigns/service.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { csvLine } from '../../party/exports/csv.ts';
import { countsByBucket, countsByChannel, countsByTerritory, countsByVariant, DAY_MS, firstHour, GRAINS, HOUR_MS, insertFunnelEvents, WEEK_MS, type FunnelEventRow, type Grain } from './queries.ts';
import { twoProportionZTest } from './stats.ts';

/** One funnel event as the server records it. */
export interface FunnelEventInput {
  campaignId: string;
  kind: FunnelEventKind;
  /** ISO 3166-1 alpha-2 country from the geo lookup (`geoOf`), e.g. `DE`. */
  territory: string;
  /** UTM parameters, referrer host and variant of the visit (absent: a direct visit to variant A). */
  context?: FunnelContextInput | null;
  /** When it happened (default: the server's now). */
  at?: number;
}

function rowOf(ctx: ServerContext, e: FunnelEventInput): FunnelEventRow {
  // Context from a stored signup or another module is parsed again: bounded and normalised like a page's.
  const c = FunnelContext.safeParse(e.context ?? {});
  const context = c.success ? c.data : FunnelContext.parse({});
  return {
    campaign_id: e.campaignId,
    at: e.at ?? ctx.now(),
    kind: e.kind,
    territory: /^[A-Z]{2}$/.test(e.territory) ? e.territory : '',
    ...context,
  };
}

/**
 * Records funnel events: raw rows and the hourly rollup together, in `trx` when given (so an event
 * is recorded exactly when the caller's own write commits), else in a transaction of its own.
 */
export async function recordFunnelEvents(ctx: ServerContext, events: readonly FunnelEventInput[], trx?: Db): Promise<void> {
  const rows = events.map((e) => rowOf(ctx, e));
  if (trx) return insertFunnelEvents(trx, rows);
  await ctx.db.transaction().execute(async (t) => insertFunnelEvents(t, rows));
}

/**
 * Records one funnel event, e.g. a pre-save: `recordFunnelEvent(ctx, { campaignId, kind: 'presave',
 * territory, context })`. Pass `trx` to record it with the write that caused it.
 */
export async function recordFunnelEvent(ctx: ServerContext, event: FunnelEventInput, trx?: Db): Promise<void> {
  return recordFunnelEvents(ctx, [event], trx);
}

/** The ingest call: a page's batch, for a published campaign, in the caller's territory. */
export async function recordPageFunnelEvents(ctx: ServerContext, campaignId: string, territory: string, body: FunnelEventsBody): Promise<number> {
  await requirePublishedCampaign(ctx, campaignId);
  await recordFunnelEvents(
    ctx,
    body.events.map(({ kind, ...context }) => ({ campaignId, kind, territory, context })),
  );
  return body.events.length;
}

const zeroCounts = (): FunnelCounts => Object.fromEntries(FUNNEL_EVENT_KINDS.map((k) => [k, 0])) as FunnelCounts;

function add(counts: FunnelCounts, kind: string, n: number | string): void {
  if ((FUNNEL_EVENT_KINDS as readonly string[]).includes(kind)) counts[kind as FunnelEventKind] += Number(n);
}

/** Rows of `{ ...keys, kind, n }` folded into one counts object per key. */
function fold<R extends { kind: string; n: number | string }>(rows: readonly R[], keyOf: (r: R) => string): Map<string, { first: R; counts: FunnelCounts }> {
  const out = new Map<string, { first: R; counts: FunnelCounts }>();
  for (const r of rows) {
    const key = keyOf(r);
    let entry = out.get(key);
    if (!entry) out.set(key, (entry = { first: r, counts: zeroCounts() }));
    add(entry.counts, r.kind, r.n);
  }
  return out;
}

const BUCKET_MS: Record<FunnelBucket, number> = { hour: HOUR_MS, day: DAY_MS, week: WEEK_MS };

/** The rollup a report reads: hourly for hours, daily for days and weeks. */
export const grainOf = (bucket: FunnelBucket): Grain => (bucket === 'hour' ? 'hour' : 'day');

/**
 * The report's range in whole periods of its rollup (UTC hours for hourly reports, UTC days for
 * daily and weekly ones): `from` rounded down, `to` (default now) rounded up.
 */
export function funnelRange(query: { from?: number | undefined; to?: number | undefined }, now: number, first: number | null, grain: Grain): { from: number | null; to: number } {
  const ms = GRAINS[grain].ms;
  const to = Math.ceil((query.to ?? now + 1) / ms) * ms;
  const start = query.from ?? first;
  return { from: start === null ? null : Math.floor(start / ms) * ms, to };
}

/** Step B against A: share of each variant's visits, and the z-test of the difference. */
function compare(a: FunnelCounts, b: FunnelCounts): FunnelComparisonRow[] {
  return FUNNEL_STEPS.filter((k) => k !== 'visit').map((kind) => {
    const rateA = a.visit > 0 ? a[kind] / a.visit : 0;
    const rateB = b.visit > 0 ? b[kind] / b.visit : 0;
    const test = twoProportionZTest(a[kind], a.visit, b[kind], b.visit);
    return { kind, rate_a: rateA, rate_b: rateB, difference: rateB - rateA, z: test?.z ?? null, p_value: test?.pValue ?? null, confidence: test ? 1 - test.pValue : null };
  });
}

/**
 * The funnel of a campaign over [from, to): totals, steps, channels, territories, time buckets and
 * variants, all sums of the same rollup rows, so every breakdown adds up to the totals and the
 * totals equal a count of the raw events of those hours.
 */
export async function funnelReport(ctx: ServerContext, campaignId: string, query: FunnelQueryValues): Promise<FunnelReport> {
  const campaign = await getCampaign(ctx, campaignId);
  const bucket = query.bucket ?? 'day';
  const grain = grainOf(bucket);
  const { from, to } = funnelRange(query, ctx.now(), query.from === undefined ? await firstHour(ctx.db, campaignId) : null, grain);
  const start = from ?? to;
  if ((to - start) / BUCKET_MS[bucket] > FUNNEL_MAX_BUCKETS) {
    throw unprocessable(['query', 'bucket'], `More than ${FUNNEL_MAX_BUCKETS} ${bucket} buckets: choose a shorter range or a larger bucket`);
  }
  const summary = await summariseFunnel(ctx.db, grain, campaignId, start, to, bucket);
  return { campaign_id: campaignId, from, to, bucket, ...summary, ab_test_enabled: campaign.data.ab_test?.enabled === true };
}

/** The report's figures from the hourly rollup of [start, to): what `funnelReport` answers besides the campaign's own fields. */
export async function summariseFunnel(db: Db, grain: Grain, campaignId: string, start: number, to: number, bucket: FunnelBucket): Promise<Omit<FunnelReport, 'campaign_id' | 'from' | 'to' | 'bucket' | 'ab_test_enabled'>> {
  const [byVariant, byTerritory, byChannel, byBucket] = await Promise.all([
    countsByVariant(db, grain, campaignId, start, to),
    countsByTerritory(db, grain, campaignId, start, to),
    countsByChannel(db, grain, campaignId, start, to),
    countsByBucket(db, grain, campaignId, start, to, bucket),
  ]);

  const totals = zeroCounts();
  for (const r of byVariant) add(totals, r.kind, r.n);
  const variantCounts = fold(byVariant, (r) => r.variant);
  const variants = FUNNEL_VARIANTS.map((variant) => ({ variant, counts: variantCounts.get(variant)?.counts ?? zeroCounts() }));

  const steps = FUNNEL_STEPS.map((kind, i) => {
    const previous = i === 0 ? totals[kind] : totals[FUNNEL_STEPS[i - 1]!];
    return {
      kind,
      count: totals[kind],
      rate_from_previous: previous > 0 ? totals[kind] / previous : 0,
      rate_from_visits: totals.visit > 0 ? totals[kind] / totals.visit : 0,
    };
  });

  const allChannels: FunnelChannelRow[] = [...fold(byChannel, (r) => JSON.stringify([r.utm_source, r.utm_medium, r.utm_campaign, r.referrer_host])).values()]
    .map(({ first, counts }) => ({
      channel: funnelChannelName(first),
      utm_source: first.utm_source,
      utm_medium: first.utm_medium,
      utm_campaign: first.utm_campaign,
      referrer_host: first.referrer_host,
      counts,
    }))
    .sort((x, y) => y.counts.visit - x.counts.visit || x.channel.localeCompare(y.channel));
  const channels = allChannels.slice(0, FUNNEL_MAX_CHANNELS);
  if (allChannels.length > FUNNEL_MAX_CHANNELS) {
    const other = zeroCounts();
    for (const c of allChannels.slice(FUNNEL_MAX_CHANNELS)) for (const k of FUNNEL_EVENT_KINDS) other[k] += c.counts[k];
    channels.push({ channel: 'other', utm_source: '', utm_medium: '', utm_campaign: '', referrer_host: '', counts: other });
  }

  const territories = [...fold(byTerritory, (r) => r.territory).values()]
    .map(({ first, counts }) => ({ territory: first.territory, counts }))
    .sort((x, y) => y.counts.visit - x.counts.visit || x.territory.localeCompare(y.territory));
  const series = [...fold(byBucket, (r) => String(Number(r.start))).values()]
    .map(({ first, counts }) => ({ start: Number(first.start), counts }))
    .sort((x, y) => x.start - y.start);
  const [a, b] = variants;
  return { totals, steps, channels, territories, series, variants, comparison: compare(a!.counts, b!.counts) };
}

const CSV_COLUMNS = ['section', 'channel', 'utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'territory', 'bucket_start', 'variant', ...FUNNEL_EVENT_KINDS] as const;

/** The report as CSV: one line for the totals, then one per channel, territory, bucket and variant. */
export function funnelCsv(report: FunnelReport): string {
  type Line = Partial<Record<(typeof CSV_COLUMNS)[number], string | number>>;
  const line = (cells: Line, counts: FunnelCounts) => csvLine(CSV_COLUMNS.map((c) => (c in counts ? counts[c as FunnelEventKind] : (cells[c] ?? ''))));
  let out = csvLine(CSV_COLUMNS);
  out += line({ section: 'total' }, report.totals);
  for (const c of report.channels) out += line({ section: 'channel', ...c }, c.counts);
  for (const t of report.territories) out += line({ section: 'territory', territory: t.territory }, t.counts);
  for (const s of report.series) out += line({ section: 'bucket', bucket_start: new Date(s.start).toISOString() }, s.counts);
  for (const v of report.variants) out += line({ section: 'variant', variant: v.variant }, v.counts);
  return out;
}

export type { FunnelVariant };
