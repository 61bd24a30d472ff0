import type { Kysely } from 'kysely';
import { bool, notNull } from '../columns.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('service', 'text')
    .addColumn('service_user_id', 'text')
    .addColumn('display_name', 'text', notNull)
    .addColumn('email', 'text')
    .addColumn('country', 'text')
    .addColumn('premium', 'integer', bool(false))
    .addColumn('profile_picture', 'text')
    .addColumn('service_access_token', 'text')
    .addColumn('service_refresh_token', 'text')
    .addColumn('service_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addUniqueConstraint('fans_service_account', ['service', 'service_user_id'])
    .execute();

  await db.schema
    .createTable('access_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('fan_id', 'text', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('access_tokens_fan').on('access_tokens').column('fan_id').execute();

  await db.schema
    .createTable('parties')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('updated_at', 'bigint', notNull)
    .addColumn('started_at', 'bigint')
    .addColumn('starts_at', 'bigint', notNull)
    .addColumn('ends_at', 'bigint')
    .addColumn('voting_enabled', 'integer', bool(true))
    .addColumn('auto_start', 'integer', bool(false))
    .addColumn('wp_post_id', 'text')
    .addColumn('login_required', 'integer', bool(true))
    .addColumn('frontend', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('follow', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('music', 'text')
    .execute();

  await db.schema
    .createTable('party_users')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('fan_id', 'text', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('real_name', 'text', notNull)
    .addColumn('display_name', 'text', notNull)
    .addColumn('email', 'text')
    .addColumn('country', 'text')
    .addColumn('profile_picture', 'text')
    .addColumn('profile_sticker', 'text')
    .addColumn('competition_accepted', 'integer', bool(false))
    .addColumn('can_chat', 'integer', bool(true))
    .addColumn('created_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('party_users_pk', ['party_id', 'fan_id'])
    .addUniqueConstraint('party_users_display_name', ['party_id', 'display_name'])
    .addUniqueConstraint('party_users_email', ['party_id', 'email'])
    .execute();

  await db.schema
    .createTable('grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('service', 'text')
    .addColumn('service_id', 'text')
    .addColumn('token_hash', 'text', (c) => c.unique())
    .addColumn('role', 'text', notNull)
    .addColumn('display_name', 'text', notNull)
    .addColumn('profile_picture', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .addUniqueConstraint('grants_account', ['party_id', 'service', 'service_id'])
    .execute();

  await db.schema
    .createTable('grant_redemptions')
    .addColumn('grant_id', 'text', (c) => c.notNull().references('grants.id').onDelete('cascade'))
    .addColumn('fan_id', 'text', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('grant_redemptions_pk', ['grant_id', 'fan_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['grant_redemptions', 'grants', 'party_users', 'parties', 'access_tokens', 'fans']) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
