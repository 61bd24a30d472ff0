import type { Kysely } from 'kysely';

/**
 * Media items get the alt text the campaign page shows with them, and their size in pixels
 * (read from the image header at upload; files uploaded before stay null until re-uploaded).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_uploads').addColumn('alt', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('cms_uploads').addColumn('width', 'integer').execute();
  await db.schema.alterTable('cms_uploads').addColumn('height', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('cms_uploads').dropColumn('height').execute();
  await db.schema.alterTable('cms_uploads').dropColumn('width').execute();
  await db.schema.alterTable('cms_uploads').dropColumn('alt').execute();
}
