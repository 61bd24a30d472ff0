import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/**
 * Limits that hold whatever the caller deletes or whichever token, node or campaign it uses:
 * - `rate_counters`: one row per limit key and fixed window, counted up by one upsert (atomic on
 *   SQLite and PostgreSQL, shared by every node). Uploads per fan, logins per account, token-gate
 *   guesses per product and address.
 * - `chat_deleted_posts`: a fan's deleted message still counts against the chat rate limit and
 *   slow mode until its window has passed (the limit counts stored messages plus these).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_counters')
    .addColumn('key', 'text', notNull)
    .addColumn('window_start', 'bigint', notNull)
    .addColumn('count', 'integer', notNull)
    .addPrimaryKeyConstraint('rate_counters_pk', ['key', 'window_start'])
    .execute();
  await db.schema.createIndex('rate_counters_window').on('rate_counters').column('window_start').execute();

  await db.schema
    .createTable('chat_deleted_posts')
    .addColumn('party_id', 'text', notNull)
    .addColumn('sender_id', 'text', notNull)
    .addColumn('timestamp_ms', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('chat_deleted_posts_sender').on('chat_deleted_posts').columns(['party_id', 'sender_id', 'timestamp_ms']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chat_deleted_posts').execute();
  await db.schema.dropTable('rate_counters').execute();
}
