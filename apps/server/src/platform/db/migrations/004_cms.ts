import type { Kysely } from 'kysely';
import { bool, notNull } from '../columns.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cms_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text')
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('state', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .execute();

  await db.schema
    .createTable('cms_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('cms_users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('cms_sessions_user').on('cms_sessions').column('user_id').execute();

  await db.schema
    .createTable('cms_password_resets')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('cms_users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('cms_apps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('title', 'text', notNull)
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addColumn('config_reloaded_at', 'bigint')
    .execute();

  await db.schema
    .createTable('cms_campaigns')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('app_id', 'text', (c) => c.notNull().references('cms_apps.id'))
    .addColumn('name', 'text', notNull)
    .addColumn('slug', 'text', notNull)
    .addColumn('starts_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('parent_id', 'text')
    .addColumn('doc', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('lock_user_id', 'text')
    .addColumn('lock_at', 'bigint')
    .addColumn('lock_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addUniqueConstraint('cms_campaigns_app_slug', ['app_id', 'slug'])
    .execute();

  await db.schema
    .createTable('cms_upload_folders')
    .addColumn('path', 'text', (c) => c.primaryKey())
    .addColumn('parent', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .execute();

  await db.schema
    .createTable('cms_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('folder', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('storage_key', 'text', (c) => c.notNull().unique())
    .addColumn('mime', 'text', notNull)
    .addColumn('size', 'bigint', notNull)
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('cms_uploads_folder').on('cms_uploads').column('folder').execute();

  await db.schema
    .createTable('cms_newsletter_subscribers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('newsletter_id', 'text', notNull)
    .addColumn('email', 'text', notNull)
    .addColumn('campaign_id', 'text', notNull)
    .addColumn('locale', 'text', notNull)
    .addColumn('address_book_id', 'text', notNull)
    .addColumn('form_id', 'text', notNull)
    .addColumn('state', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addColumn('confirmed_at', 'bigint')
    .addUniqueConstraint('cms_newsletter_subscribers_email', ['newsletter_id', 'email'])
    .execute();

  await db.schema
    .createTable('cms_newsletter_confirmations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('campaign_id', 'text', notNull)
    .addColumn('email', 'text', notNull)
    .addColumn('newsletter_ids', 'text', notNull)
    .addColumn('locale', 'text', notNull)
    .addColumn('redirect_url', 'text', notNull)
    .addColumn('error_redirect_url', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('cms_newsletter_consents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscriber_id', 'text', (c) => c.notNull().references('cms_newsletter_subscribers.id').onDelete('cascade'))
    .addColumn('newsletter_id', 'text', notNull)
    .addColumn('campaign_id', 'text', notNull)
    .addColumn('email', 'text', notNull)
    .addColumn('signup_mode', 'text', notNull)
    .addColumn('accepted', 'integer', bool(false))
    .addColumn('consent_text_version', 'text', notNull)
    .addColumn('locale', 'text', notNull)
    .addColumn('source_page', 'text', notNull)
    .addColumn('ip', 'text', notNull)
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('confirmed_at', 'bigint')
    .addColumn('confirmation_id', 'text', notNull)
    .execute();
  await db.schema.createIndex('cms_newsletter_consents_subscriber').on('cms_newsletter_consents').column('subscriber_id').execute();

  await db.schema
    .createTable('cms_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('service', 'text', notNull)
    .addColumn('service_user_id', 'text', notNull)
    .addColumn('email', 'text')
    .addColumn('service_access_token', 'text')
    .addColumn('service_refresh_token', 'text')
    .addColumn('service_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addUniqueConstraint('cms_accounts_service_account', ['service', 'service_user_id'])
    .execute();

  await db.schema
    .createTable('cms_account_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('cms_accounts.id').onDelete('cascade'))
    .addColumn('campaign_id', 'text', notNull)
    .addColumn('access_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('access_expires_at', 'bigint', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('revoked_at', 'bigint')
    .execute();

  await db.schema
    .createTable('cms_account_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('cms_account_sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('used_at', 'bigint')
    .execute();

  await db.schema
    .createTable('cms_token_gate_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('product_id', 'text', notNull)
    .addColumn('code_hash', 'text', notNull)
    .addColumn('max_uses', 'integer', notNull)
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', notNull)
    .addUniqueConstraint('cms_token_gate_codes_code', ['product_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('cms_token_gate_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('campaign_id', 'text', notNull)
    .addColumn('product_id', 'text', notNull)
    .addColumn('code_id', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('cms_token_gate_keys_campaign').on('cms_token_gate_keys').column('campaign_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'cms_token_gate_keys',
    'cms_token_gate_codes',
    'cms_account_refresh_tokens',
    'cms_account_sessions',
    'cms_accounts',
    'cms_newsletter_consents',
    'cms_newsletter_confirmations',
    'cms_newsletter_subscribers',
    'cms_uploads',
    'cms_upload_folders',
    'cms_campaigns',
    'cms_apps',
    'cms_password_resets',
    'cms_sessions',
    'cms_users',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
