import type { Kysely } from 'kysely';

/**
 * Issue 14: every change of a party's timeline (start, track change, pause, end) kept as a segment,
 * so the recap and the exports can stamp any event (chat message, vote, answer) with the track that
 * played and the position in it at that moment. One row per version of `party_playback`: the
 * compare-and-set that changed the timeline writes it, so each change is kept exactly once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('party_timeline_segments')
    .addColumn('party_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('track_id', 'text')
    .addColumn('progress_ms', 'bigint', (c) => c.notNull())
    .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
    .addColumn('is_paused', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('party_timeline_segments_pk', ['party_id', 'version'])
    .execute();
  await db.schema.createIndex('party_timeline_segments_time').on('party_timeline_segments').columns(['party_id', 'timestamp_ms']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('party_timeline_segments').ifExists().execute();
}
