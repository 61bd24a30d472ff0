import type { Kysely } from 'kysely';
import { bool, notNull } from '../columns.ts';

/** The live party: tracks of a party, votes, and the playback timeline. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('party_tracks')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('track_id', 'text', notNull)
    .addColumn('position', 'integer', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('artists', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('album', 'text', notNull)
    .addColumn('duration_ms', 'bigint', notNull)
    .addColumn('image', 'text')
    .addColumn('service', 'text', notNull)
    .addColumn('hls_url', 'text')
    .addColumn('excluded', 'integer', bool(false))
    .addColumn('played', 'integer', bool(false))
    .addPrimaryKeyConstraint('party_tracks_pk', ['party_id', 'track_id'])
    .execute();

  await db.schema
    .createTable('track_votes')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('track_id', 'text', notNull)
    .addColumn('fan_id', 'text', (c) => c.notNull().references('fans.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', notNull)
    .addPrimaryKeyConstraint('track_votes_pk', ['party_id', 'track_id', 'fan_id'])
    .execute();
  await db.schema.createIndex('track_votes_fan').on('track_votes').columns(['party_id', 'fan_id']).execute();

  await db.schema
    .createTable('party_playback')
    .addColumn('party_id', 'text', (c) => c.primaryKey().references('parties.id').onDelete('cascade'))
    .addColumn('track_id', 'text')
    .addColumn('progress_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('timestamp_ms', 'bigint', notNull)
    .addColumn('is_paused', 'integer', bool(true))
    .addColumn('track_ends_at', 'bigint')
    .addColumn('next_track_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('party_playback_due').on('party_playback').column('track_ends_at').execute();
  await db.schema.createIndex('parties_auto_start').on('parties').columns(['auto_start', 'started_at', 'starts_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('parties_auto_start').ifExists().execute();
  for (const t of ['party_playback', 'track_votes', 'party_tracks']) await db.schema.dropTable(t).ifExists().execute();
}
