import type { Kysely } from 'kysely';

/** The name and country a fan gives with a newsletter signup (party page, issue 10): stored and exported. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_newsletter_subscribers').addColumn('name', 'text').execute();
  await db.schema.alterTable('cms_newsletter_subscribers').addColumn('country', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['country', 'name']) await db.schema.alterTable('cms_newsletter_subscribers').dropColumn(column).execute();
}
