import type { Kysely } from 'kysely';

/**
 * A scheduled publish may name the locales it publishes (JSON list of locale codes); null
 * publishes every locale, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_campaigns').addColumn('publish_locales', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_campaigns').dropColumn('publish_locales').execute();
}
