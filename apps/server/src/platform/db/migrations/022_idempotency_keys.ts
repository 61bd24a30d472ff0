import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/**
 * Safe retries (issue 43): the first answer of a creating call, by the caller's `Idempotency-Key`.
 * `key_hash` is the SHA-256 of the caller's subject and the key (no raw key or address is kept);
 * `fingerprint` the SHA-256 of the call and its body; `state` is `pending` while the first attempt
 * runs, `stored` once one of its writes committed (set in that write's transaction), `done` with
 * the answer's `status` and `body`. Rows expire after 24 hours (`expires_at`, purged by the job).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('fingerprint', 'text', notNull)
    .addColumn('state', 'text', notNull)
    .addColumn('status', 'integer')
    .addColumn('body', 'text')
    .addColumn('content_type', 'text')
    .addColumn('created_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
}
