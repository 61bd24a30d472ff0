import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/** The keys every funnel event carries besides campaign and time (empty text when absent, never NULL: NULLs would defeat the rollup's key). */
const KEYS = ['kind', 'territory', 'utm_source', 'utm_medium', 'utm_campaign', 'referrer_host', 'variant'] as const;

/**
 * The campaign funnel (decision 0039): `funnel_events` keeps every anonymous event as it came (the
 * raw record a recount reads); `funnel_hourly` and `funnel_daily` count the same events per campaign,
 * hour (day) and keys, updated in the same transaction, so a report by days or weeks sums the far
 * fewer daily rows, and one by hours the hourly rows, instead of every event.
 * The confirmation of a newsletter signup keeps the visit's funnel context, so the later
 * `confirmed` event is keyed like its `signup`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let events = db.schema.createTable('funnel_events').addColumn('campaign_id', 'text', notNull).addColumn('at', 'bigint', notNull);
  for (const k of KEYS) events = events.addColumn(k, 'text', notNull);
  await events.execute();
  await db.schema.createIndex('funnel_events_campaign_at').on('funnel_events').columns(['campaign_id', 'at']).execute();

  for (const table of ['funnel_hourly', 'funnel_daily']) {
    let rollup = db.schema.createTable(table).addColumn('campaign_id', 'text', notNull).addColumn('period_start', 'bigint', notNull);
    for (const k of KEYS) rollup = rollup.addColumn(k, 'text', notNull);
    await rollup
      .addColumn('count', 'integer', notNull)
      .addPrimaryKeyConstraint(`${table}_pk`, ['campaign_id', 'period_start', ...KEYS] as never)
      .execute();
  }

  await db.schema.alterTable('cms_newsletter_confirmations').addColumn('funnel_context', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_newsletter_confirmations').dropColumn('funnel_context').execute();
  await db.schema.dropTable('funnel_daily').execute();
  await db.schema.dropTable('funnel_hourly').execute();
  await db.schema.dropTable('funnel_events').execute();
}
