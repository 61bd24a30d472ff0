import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Issue 16: each track keeps its vote count, so a vote reads one row instead of counting the party's
 * votes, and the queue reads the counts with the tracks. Triggers keep the count in the statement
 * that adds or removes the vote row (cascades included): no code path can forget it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('party_tracks').addColumn('votes', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE party_tracks SET votes = (
    SELECT count(*) FROM track_votes v WHERE v.party_id = party_tracks.party_id AND v.track_id = party_tracks.track_id
  )`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`CREATE FUNCTION track_votes_count() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE party_tracks SET votes = votes + 1 WHERE party_id = NEW.party_id AND track_id = NEW.track_id;
          RETURN NEW;
        END IF;
        UPDATE party_tracks SET votes = votes - 1 WHERE party_id = OLD.party_id AND track_id = OLD.track_id;
        RETURN OLD;
      END $$`.execute(db);
    await sql`CREATE TRIGGER track_votes_count AFTER INSERT OR DELETE ON track_votes FOR EACH ROW EXECUTE FUNCTION track_votes_count()`.execute(db);
    return;
  }
  await sql`CREATE TRIGGER track_votes_added AFTER INSERT ON track_votes BEGIN
    UPDATE party_tracks SET votes = votes + 1 WHERE party_id = NEW.party_id AND track_id = NEW.track_id;
  END`.execute(db);
  await sql`CREATE TRIGGER track_votes_removed AFTER DELETE ON track_votes BEGIN
    UPDATE party_tracks SET votes = votes - 1 WHERE party_id = OLD.party_id AND track_id = OLD.track_id;
  END`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`DROP TRIGGER IF EXISTS track_votes_count ON track_votes`.execute(db);
    await sql`DROP FUNCTION IF EXISTS track_votes_count()`.execute(db);
  } else {
    await sql`DROP TRIGGER IF EXISTS track_votes_added`.execute(db);
    await sql`DROP TRIGGER IF EXISTS track_votes_removed`.execute(db);
  }
  await db.schema.alterTable('party_tracks').dropColumn('votes').execute();
}
