import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';
import type { Database } from '../schema.ts';
import { snapshotOf } from '../../../cms/editorial/snapshot.ts';

/**
 * The editorial workflow: a campaign's published version next to its draft (the row's own fields
 * stay the draft), a publish and an unpublish scheduled at instants the scheduler claims, the saved
 * versions of campaigns and party settings, and the audit log of every back-office write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const campaigns = db.schema.alterTable('cms_campaigns');
  // JSON {name, slug, starts_at, ends_at, doc} of what visitors see; null while unpublished.
  await campaigns.addColumn('published_doc', 'text').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('published_version', 'integer').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('published_at', 'bigint').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('published_by', 'text').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('cms_campaigns').addColumn('publish_at', 'bigint').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('unpublish_at', 'bigint').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('schedule_time_zone', 'text').execute();
  await db.schema.alterTable('cms_campaigns').addColumn('scheduled_by', 'text').execute();
  await db.schema.createIndex('cms_campaigns_publish_at').on('cms_campaigns').column('publish_at').execute();
  await db.schema.createIndex('cms_campaigns_unpublish_at').on('cms_campaigns').column('unpublish_at').execute();

  await db.schema
    .createTable('cms_versions')
    .addColumn('entity_type', 'text', notNull)
    .addColumn('entity_id', 'text', notNull)
    .addColumn('version', 'integer', notNull)
    .addColumn('action', 'text', notNull)
    .addColumn('snapshot', 'text', notNull)
    .addColumn('actor_id', 'text')
    .addColumn('actor', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('cms_versions_pk', ['entity_type', 'entity_id', 'version'])
    .execute();

  // Every campaign was public before this migration: it stays public, as version 1.
  await publishExisting(db as Kysely<Database>);

  await db.schema
    .createTable('cms_audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('actor_id', 'text')
    .addColumn('actor', 'text', notNull)
    .addColumn('action', 'text', notNull)
    .addColumn('method', 'text', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('entity_type', 'text', notNull)
    .addColumn('entity_id', 'text')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  await db.schema.createIndex('cms_audit_log_created').on('cms_audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('cms_audit_log_entity').on('cms_audit_log').columns(['entity_type', 'entity_id']).execute();
}

async function publishExisting(db: Kysely<Database>): Promise<void> {
  const rows = await db.selectFrom('cms_campaigns').select(['id', 'name', 'slug', 'starts_at', 'ends_at', 'doc', 'updated_at']).execute();
  for (const row of rows) {
    const snapshot = snapshotOf(row);
    await db
      .updateTable('cms_campaigns')
      .set({ version: 1, published_doc: JSON.stringify(snapshot), published_version: 1, published_at: Number(row.updated_at), published_by: 'system' })
      .where('id', '=', row.id)
      .execute();
    await db
      .insertInto('cms_versions')
      .values({ entity_type: 'campaign', entity_id: row.id, version: 1, action: 'create', snapshot: JSON.stringify(snapshot), actor_id: null, actor: 'system', created_at: Number(row.updated_at) })
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cms_audit_log').ifExists().execute();
  await db.schema.dropTable('cms_versions').ifExists().execute();
  await db.schema.dropIndex('cms_campaigns_unpublish_at').ifExists().execute();
  await db.schema.dropIndex('cms_campaigns_publish_at').ifExists().execute();
  for (const c of ['scheduled_by', 'schedule_time_zone', 'unpublish_at', 'publish_at', 'version', 'published_by', 'published_at', 'published_version', 'published_doc']) {
    await db.schema.alterTable('cms_campaigns').dropColumn(c).execute();
  }
}
