import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/**
 * In-app browser handovers: a visit's locale, UTM parameters and unsent consents, kept for a few
 * minutes under a hashed single-use token so the system browser can pick them up. A redeemed row
 * is deleted; expired rows are swept by `expires_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cms_handovers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('cms_campaigns.id').onDelete('cascade'))
    .addColumn('state', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('cms_handovers_expires').on('cms_handovers').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cms_handovers').execute();
}
