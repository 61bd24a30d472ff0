import type { Kysely } from 'kysely';

/**
 * Fans' data rights (GDPR art. 15, 17, 20): the audit of every export and erasure, apart from any
 * general audit log (its lines hold no address, only a keyed hash), and the time a newsletter
 * consent was withdrawn (an erased consent keeps only the minimal proof: see docs/SECURITY.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('data_rights_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('subject_hash', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_rights_audit_created').on('data_rights_audit').column('created_at').execute();
  await db.schema.alterTable('cms_newsletter_consents').addColumn('withdrawn_at', 'bigint').execute();
  // Erasure finds a fan's messages in every party.
  await db.schema.createIndex('chat_messages_by_sender').on('chat_messages').column('sender_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('chat_messages_by_sender').ifExists().execute();
  await db.schema.alterTable('cms_newsletter_consents').dropColumn('withdrawn_at').execute();
  await db.schema.dropTable('data_rights_audit').ifExists().execute();
}
