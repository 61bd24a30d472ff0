import type { Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/**
 * Party Replay (issue 47): the precomputed replay of an ended party. `party_replays` holds the
 * current build and its manifest; a write that changes what the replay may show (a deleted
 * message, a block, an erasure, a hidden item) raises `wanted_rev`, and the replay job rebuilds
 * while `built_rev` is behind. Each build's documents (one per play, immutable) are kept in
 * `party_replay_documents`, so every node serves the same bytes; hosts' hidden items in
 * `party_replay_hidden`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('party_replays')
    .addColumn('party_id', 'text', (c) => c.primaryKey().references('parties.id').onDelete('cascade'))
    .addColumn('wanted_rev', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('built_rev', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('build', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('built_at', 'bigint')
    .addColumn('claimed_until', 'bigint')
    .addColumn('manifest', 'text')
    .execute();
  await db.schema.createIndex('party_replays_due').on('party_replays').columns(['built_rev', 'wanted_rev']).execute();
  await db.schema
    .createTable('party_replay_documents')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('build', 'integer', notNull)
    .addColumn('play', 'integer', notNull)
    .addColumn('body', 'text', notNull)
    .addPrimaryKeyConstraint('party_replay_documents_pk', ['party_id', 'build', 'play'])
    .execute();
  await db.schema
    .createTable('party_replay_hidden')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('item_id', 'text', notNull)
    .addColumn('hidden_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('party_replay_hidden_pk', ['party_id', 'item_id'])
    .execute();
  await db.schema.createIndex('parties_ends_at').on('parties').columns(['ends_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('parties_ends_at').ifExists().execute();
  for (const t of ['party_replay_hidden', 'party_replay_documents', 'party_replays']) await db.schema.dropTable(t).ifExists().execute();
}
