import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/**
 * Polls and quiz questions a party's hosts prepare for later (before the party, on any device):
 * kept per party until a host starts or removes them. `body` is the JSON of the poll or quiz call
 * that will start it, checked by the protocol's schema (so bounded) before it is stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('chat_prepared_questions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('kind', 'text', notNull)
    .addColumn('body', 'text', notNull)
    .addColumn('created_at', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('chat_prepared_questions_party').on('chat_prepared_questions').columns(['party_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('chat_prepared_questions').execute();
}
