/**
 * SQL of the funnel: writes of raw events with their hourly rollup, and the grouped reads of the
 * rollup. Only SQL here; `service.ts` decides what to record and shapes the report.
 */
import { sql, type Expression } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import type { FunnelKeys } from '../../platform/db/tables/funnel.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
/** 1970-01-05, the first Monday after the epoch: weeks start on Mondays (ISO 8601). */
const MONDAY_MS = 4 * DAY_MS;

export interface FunnelEventRow extends FunnelKeys {
  campaign_id: string;
  at: number;
}

/** Stores raw events and adds them to the hourly rollup, in the caller's transaction. */
export async function insertFunnelEvents(trx: Db, rows: readonly FunnelEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await trx.insertInto('funnel_events').values([...rows]).execute();
  const groups = new Map<string, { row: FunnelEventRow & { hour: number }; count: number }>();
  for (const r of rows) {
    const hour = Math.floor(r.at / HOUR_MS) * HOUR_MS;
    const key = JSON.stringify([r.campaign_id, hour, r.kind, r.territory, r.utm_source, r.utm_medium, r.utm_campaign, r.referrer_host, r.variant]);
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { row: { ...r, hour }, count: 1 });
  }
  for (const { row, count } of groups.values()) {
    const { at: _at, ...keys } = row;
    await trx
      .insertInto('funnel_hourly')
      .values({ ...keys, count })
      .onConflict((oc) =>
        oc
          .columns(['campaign_id', 'hour', 'kind', 'territory', 'utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'variant'])
          .doUpdateSet({ count: sql<number>`funnel_hourly.count + ${count}` }),
      )
      .execute();
  }
}

/** The rollup's rows of one campaign in [from, to) (both multiples of an hour). */
function inRange(db: Db, campaignId: string, from: number, to: number) {
  return db
    .selectFrom('funnel_hourly')
    .where('campaign_id', '=', campaignId)
    .where('hour', '>=', from)
    .where('hour', '<', to);
}

const total = sql<number>`sum(count)`.as('n');

/** Counts per variant and kind. */
export async function countsByVariant(db: Db, campaignId: string, from: number, to: number) {
  return inRange(db, campaignId, from, to).select(['variant', 'kind', total]).groupBy(['variant', 'kind']).execute();
}

/** Counts per territory and kind. */
export async function countsByTerritory(db: Db, campaignId: string, from: number, to: number) {
  return inRange(db, campaignId, from, to).select(['territory', 'kind', total]).groupBy(['territory', 'kind']).execute();
}

/** Counts per channel (UTM source, medium, campaign and referrer host) and kind. */
export async function countsByChannel(db: Db, campaignId: string, from: number, to: number) {
  return inRange(db, campaignId, from, to)
    .select(['utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'kind', total])
    .groupBy(['utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'kind'])
    .execute();
}

/** Start of the bucket an hour falls in: the hour, its UTC day, or its ISO week (Monday, UTC). */
function bucketOf(size: 'hour' | 'day' | 'week'): Expression<number> {
  if (size === 'hour') return sql<number>`hour`;
  // Literals, not parameters: PostgreSQL matches a grouped expression by its text, and $1 is not $3.
  if (size === 'day') return sql<number>`(hour / ${sql.lit(DAY_MS)}) * ${sql.lit(DAY_MS)}`;
  return sql<number>`((hour - ${sql.lit(MONDAY_MS)}) / ${sql.lit(WEEK_MS)}) * ${sql.lit(WEEK_MS)} + ${sql.lit(MONDAY_MS)}`;
}

/** Counts per time bucket and kind. */
export async function countsByBucket(db: Db, campaignId: string, from: number, to: number, size: 'hour' | 'day' | 'week') {
  const bucket = bucketOf(size);
  return inRange(db, campaignId, from, to)
    .select([sql<number>`${bucket}`.as('start'), 'kind', total])
    .groupBy(sql`${bucket}`)
    .groupBy('kind')
    .execute();
}

/** The hour of the campaign's first recorded event, or null. */
export async function firstHour(db: Db, campaignId: string): Promise<number | null> {
  const row = await db.selectFrom('funnel_hourly').select(sql<number | null>`min(hour)`.as('h')).where('campaign_id', '=', campaignId).executeTakeFirst();
  return row?.h == null ? null : Number(row.h);
}
