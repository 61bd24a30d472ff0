import type { Kysely } from 'kysely';

/**
 * Grant links get a use limit and an expiry (issue 10, SPEC-NOTES: one use and 7 days by
 * default). `uses` counts redemptions atomically, so the limit holds under parallel logins.
 * Links made before this migration keep working as they did: no limit, no expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('grants').addColumn('max_uses', 'integer').execute();
  await db.schema.alterTable('grants').addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('grants').addColumn('expires_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['expires_at', 'uses', 'max_uses']) await db.schema.alterTable('grants').dropColumn(column).execute();
}
