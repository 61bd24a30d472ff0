/**
 * SQL of the funnel: writes of raw events with their hourly and daily rollups, and the grouped
 * reads of a rollup. Only SQL here; `service.ts` decides what to record and shapes the report.
 */
import { sql, type Expression } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import type { FunnelKeys } from '../../platform/db/tables/funnel.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday after the epoch: weeks start on Mondays (ISO 8601). */
const MONDAY_MS = 4 * DAY_MS;

/** A rollup's grain: its table and period. */
export const GRAINS = {
  hour: { table: 'funnel_hourly', ms: HOUR_MS },
  day: { table: 'funnel_daily', ms: DAY_MS },
} as const;
export type Grain = keyof typeof GRAINS;

export interface FunnelEventRow extends FunnelKeys {
  campaign_id: string;
  at: number;
}

const KEY_COLUMNS = ['campaign_id', 'period_start', 'kind', 'territory', 'utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'variant'] as const;

/** Stores raw events and adds them to both rollups, in the caller's transaction. */
export async function insertFunnelEvents(trx: Db, rows: readonly FunnelEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx.insertInto('funnel_events').values([...rows]).execute();
  for (const { table, ms } of Object.values(GRAINS)) {
    const groups = new Map<string, { keys: FunnelKeys & { campaign_id: string; period_start: number }; count: number }>();
    for (const { at, ...keys } of rows) {
      const period_start = Math.floor(at / ms) * ms;
      const id = JSON.stringify([keys.campaign_id, period_start, keys.kind, keys.territory, keys.utm_source, keys.utm_medium, keys.utm_campaign, keys.referrer_host, keys.variant]);
      const g = groups.get(id);
      if (g) g.count++;
      else groups.set(id, { keys: { ...keys, period_start }, count: 1 });
    }
    // One multi-row upsert per chunk: the groups are distinct, so no row is hit twice by one statement.
    const values = [...groups.values()].map(({ keys, count }) => ({ ...keys, count }));
    for (let i = 0; i < values.length; i += 500) {
      await trx
        .insertInto(table)
        .values(values.slice(i, i + 500))
        .onConflict((oc) => oc.columns(KEY_COLUMNS).doUpdateSet({ count: sql<number>`${sql.ref(`${table}.count`)} + excluded.count` }))
        .execute();
    }
  }
}

/** A rollup's rows of one campaign in [from, to) (multiples of the grain). Both rollups have one shape. */
function inRange(db: Db, grain: Grain, campaignId: string, from: number, to: number) {
  return db
    .selectFrom(GRAINS[grain].table as 'funnel_hourly')
    .where('campaign_id', '=', campaignId)
    .where('period_start', '>=', from)
    .where('period_start', '<', to);
}

const total = sql<number>`sum(count)`.as('n');

/** Counts per variant and kind. */
export async function countsByVariant(db: Db, grain: Grain, campaignId: string, from: number, to: number) {
  return inRange(db, grain, campaignId, from, to).select(['variant', 'kind', total]).groupBy(['variant', 'kind']).execute();
}

/** Counts per territory and kind. */
export async function countsByTerritory(db: Db, grain: Grain, campaignId: string, from: number, to: number) {
  return inRange(db, grain, campaignId, from, to).select(['territory', 'kind', total]).groupBy(['territory', 'kind']).execute();
}

/** Counts per channel (UTM source, medium, campaign and referrer host) and kind. */
export async function countsByChannel(db: Db, grain: Grain, campaignId: string, from: number, to: number) {
  return inRange(db, grain, campaignId, from, to)
    .select(['utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'kind', total])
    .groupBy(['utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'kind'])
    .execute();
}

/** Start of the bucket a period falls in: the period itself, or its ISO week (Monday, UTC). */
function bucketOf(size: 'hour' | 'day' | 'week'): Expression<number> {
  if (size !== 'week') return sql<number>`period_start`;
  // Literals, not parameters: PostgreSQL matches a grouped expression by its text, and $1 is not $3.
  return sql<number>`((period_start - ${sql.lit(MONDAY_MS)}) / ${sql.lit(WEEK_MS)}) * ${sql.lit(WEEK_MS)} + ${sql.lit(MONDAY_MS)}`;
}

/** Counts per time bucket and kind. */
export async function countsByBucket(db: Db, grain: Grain, campaignId: string, from: number, to: number, size: 'hour' | 'day' | 'week') {
  const bucket = bucketOf(size);
  return inRange(db, grain, campaignId, from, to)
    .select([sql<number>`${bucket}`.as('start'), 'kind', total])
    .groupBy(sql`${bucket}`)
    .groupBy('kind')
    .execute();
}

/** The hour of the campaign's first recorded event, or null. */
export async function firstHour(db: Db, campaignId: string): Promise<number | null> {
  const row = await db.selectFrom('funnel_hourly').select(sql<number | null>`min(period_start)`.as('h')).where('campaign_id', '=', campaignId).executeTakeFirst();
  return row?.h == null ? null : Number(row.h);
}
