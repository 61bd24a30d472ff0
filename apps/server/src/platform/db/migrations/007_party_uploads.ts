import type { Kysely } from 'kysely';

/**
 * Every file a fan uploads to a party (profile pictures, chat media): for the per-fan and
 * per-party quotas and for sweeping files that nothing refers to (issue 10, uploads).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('party_uploads')
    .addColumn('storage_key', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('fan_id', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('party_uploads_owner').on('party_uploads').columns(['party_id', 'fan_id']).execute();
  await db.schema.createIndex('party_uploads_created').on('party_uploads').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('party_uploads').ifExists().execute();
}
