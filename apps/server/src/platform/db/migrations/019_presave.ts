import type { Kysely } from 'kysely';
import { bool, notNull } from '../columns.ts';

/**
 * Pre-saves and the release clock per territory (issue 46).
 *
 * `cms_release_territories`: where a campaign's release stands in each territory. Its due time is
 * `next_check_at` (the release time, then the next look while the storefront lacks it); a node
 * claims a check by moving that time forward with a compare-and-set, so one node checks.
 *
 * `cms_presaves`: one per fan (campaign account) and campaign, with the consent wording the fan
 * was shown. `next_attempt_at` is null until the release is out in the fan's territory; a node
 * claims an attempt by moving it forward (the lease) and writing its `claim_token`, so exactly one
 * node performs the saves, and a node that dies mid-way leaves the row due again after the lease.
 * The receipt e-mail is claimed the same way on `receipt_next_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cms_release_territories')
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('cms_campaigns.id').onDelete('cascade'))
    .addColumn('country', 'text', notNull)
    .addColumn('time_zone', 'text')
    .addColumn('release_at', 'bigint', notNull)
    .addColumn('state', 'text', notNull)
    .addColumn('services', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('checked_at', 'bigint')
    .addColumn('next_check_at', 'bigint')
    .addColumn('source', 'text', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('cms_release_territories_pk', ['campaign_id', 'country'])
    .execute();
  await db.schema.createIndex('cms_release_territories_due').on('cms_release_territories').column('next_check_at').execute();

  await db.schema
    .createTable('cms_presaves')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('campaign_id', 'text', (c) => c.notNull().references('cms_campaigns.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('cms_accounts.id').onDelete('cascade'))
    .addColumn('service', 'text', notNull)
    .addColumn('territory', 'text', notNull)
    .addColumn('save_target', 'text', notNull)
    .addColumn('follow_artist', 'integer', bool(false))
    .addColumn('state', 'text', notNull)
    .addColumn('consent_text', 'text', notNull)
    .addColumn('consent_text_version', 'text', notNull)
    .addColumn('locale', 'text', notNull)
    .addColumn('source_page', 'text', notNull)
    .addColumn('ip', 'text', notNull)
    .addColumn('user_agent', 'text')
    .addColumn('email', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('claim_token', 'text')
    .addColumn('results', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addColumn('done_at', 'bigint')
    .addColumn('receipt_next_at', 'bigint')
    .addColumn('receipt_sent_at', 'bigint')
    .addUniqueConstraint('cms_presaves_fan', ['campaign_id', 'account_id'])
    .execute();
  await db.schema.createIndex('cms_presaves_due').on('cms_presaves').column('next_attempt_at').execute();
  await db.schema.createIndex('cms_presaves_receipt_due').on('cms_presaves').column('receipt_next_at').execute();
  await db.schema.createIndex('cms_presaves_territory').on('cms_presaves').columns(['campaign_id', 'territory', 'state']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('cms_presaves').execute();
  await db.schema.dropTable('cms_release_territories').execute();
}
