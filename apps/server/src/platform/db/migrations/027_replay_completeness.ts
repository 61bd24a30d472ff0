import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { notNull } from '../columns.ts';

/**
 * Party Replay, completed:
 * - `party_vote_log`: every change of a track vote as it happened (+1 cast, -1 withdrawn), with no
 *   fan in it. `track_votes` keeps only the votes that stand, so a withdrawn vote and the swing it
 *   caused were lost; the replay reads its swings from here. Filled from `track_votes` for the
 *   votes cast before (their withdrawals are gone for good).
 * - `party_replay_documents.body_gzip` and `body_br`: each document compressed once at build time.
 * - `party_source_peaks`: listeners by effective source, sampled per node and minute during the
 *   party, so the recap can show the peaks once the sockets are gone.
 * Every existing replay is rebuilt (raised `wanted_rev`) to gain the above.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('party_vote_log')
    .addColumn('seq', isPostgres ? 'bigserial' : 'integer', (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('track_id', 'text', notNull)
    .addColumn('delta', 'integer', notNull)
    .addColumn('at_ms', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('party_vote_log_party').on('party_vote_log').columns(['party_id', 'seq']).execute();
  await sql`INSERT INTO party_vote_log (party_id, track_id, delta, at_ms)
    SELECT party_id, track_id, 1, created_at FROM track_votes ORDER BY created_at, track_id, fan_id`.execute(db);

  const binary = isPostgres ? 'bytea' : 'blob';
  await db.schema.alterTable('party_replay_documents').addColumn('body_gzip', binary).execute();
  await db.schema.alterTable('party_replay_documents').addColumn('body_br', binary).execute();

  await db.schema
    .createTable('party_source_peaks')
    .addColumn('party_id', 'text', (c) => c.notNull().references('parties.id').onDelete('cascade'))
    .addColumn('node', 'text', notNull)
    .addColumn('minute_ms', 'bigint', notNull)
    .addColumn('provider', 'integer', notNull)
    .addColumn('label_stream', 'integer', notNull)
    .addColumn('preview', 'integer', notNull)
    .addColumn('none', 'integer', notNull)
    .addColumn('unknown', 'integer', notNull)
    .addPrimaryKeyConstraint('party_source_peaks_pk', ['party_id', 'minute_ms', 'node'])
    .execute();

  await sql`UPDATE party_replays SET wanted_rev = wanted_rev + 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('party_source_peaks').ifExists().execute();
  await db.schema.alterTable('party_replay_documents').dropColumn('body_br').execute();
  await db.schema.alterTable('party_replay_documents').dropColumn('body_gzip').execute();
  await db.schema.dropIndex('party_vote_log_party').ifExists().execute();
  await db.schema.dropTable('party_vote_log').ifExists().execute();
}
