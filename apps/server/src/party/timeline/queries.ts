import type { Track } from '@fanfare/protocol';
import type { Selectable } from 'kysely';
import type { Db } from '../../platform/db/database.ts';
import { queryOf } from '../../platform/db/queryOf.ts';
import type { PartyPlaybackTable, PartyTrackTable } from '../../platform/db/tables/live.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { recordSegment } from '../recap/segments.ts';

export type TrackRow = Selectable<PartyTrackTable>;
export type PlaybackRow = PartyPlaybackTable;

/** The party's tracks (excluded ones too), in album or playlist order. */
export async function listTrackRows(db: Db, partyId: string): Promise<TrackRow[]> {
  return db.selectFrom('party_tracks').selectAll().where('party_id', '=', partyId).orderBy('position').execute();
}

const trackRowQuery = queryOf((db: Db, v: { partyId: string; trackId: string }) =>
  db.selectFrom('party_tracks').selectAll().where('party_id', '=', v.partyId).where('track_id', '=', v.trackId),
);

/** One track of the party (built once: every vote reads it). */
export async function findTrackRow(db: Db, partyId: string, trackId: string): Promise<TrackRow | null> {
  return (await trackRowQuery(db, { partyId, trackId })).rows[0] ?? null;
}

const voteCountQuery = queryOf((db: Db, v: { partyId: string; trackId: string }) =>
  db.selectFrom('party_tracks').select('votes').where('party_id', '=', v.partyId).where('track_id', '=', v.trackId),
);

/** One track's vote count, as the track keeps it. */
export async function storedVoteCount(db: Db, partyId: string, trackId: string): Promise<number> {
  const row = (await voteCountQuery(db, { partyId, trackId })).rows[0];
  return Number(row?.votes ?? 0);
}

/** Vote count per track id, as each track row keeps it (migration 011). */
export function voteCountsOf(rows: Pick<TrackRow, 'track_id' | 'votes'>[]): Map<string, number> {
  return new Map(rows.map((r) => [r.track_id, Number(r.votes)]));
}

/** Ids of the tracks each fan voted for in a party, by fan id (for the users list). */
export async function trackVotesByFan(db: Db, partyId: string): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom('track_votes')
    .innerJoin('party_tracks', (j) => j.onRef('party_tracks.party_id', '=', 'track_votes.party_id').onRef('party_tracks.track_id', '=', 'track_votes.track_id'))
    .select(['track_votes.fan_id as fan_id', 'track_votes.track_id as track_id'])
    .where('track_votes.party_id', '=', partyId)
    // Votes on played tracks are history, not a wish: they are left out.
    .where('party_tracks.played', '=', 0)
    .orderBy('track_votes.created_at')
    .execute();
  const byFan = new Map<string, string[]>();
  for (const r of rows) byFan.set(r.fan_id, [...(byFan.get(r.fan_id) ?? []), r.track_id]);
  return byFan;
}

/** Ids of the tracks a fan voted for in a party. */
export async function fanTrackVotes(db: Db, partyId: string, fanId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('track_votes')
    .innerJoin('party_tracks', (j) => j.onRef('party_tracks.party_id', '=', 'track_votes.party_id').onRef('party_tracks.track_id', '=', 'track_votes.track_id'))
    .select('track_votes.track_id as track_id')
    .where('track_votes.party_id', '=', partyId)
    .where('track_votes.fan_id', '=', fanId)
    // Votes on played tracks are history, not a wish: they are left out.
    .where('party_tracks.played', '=', 0)
    .orderBy('track_votes.created_at')
    .execute();
  return rows.map((r) => r.track_id);
}

export async function findPlayback(db: Db, partyId: string): Promise<PlaybackRow | null> {
  return (await db.selectFrom('party_playback').selectAll().where('party_id', '=', partyId).executeTakeFirst()) ?? null;
}

/** The party's timeline row, created (paused, empty) when missing. */
export async function ensurePlayback(db: Db, partyId: string, now: number): Promise<PlaybackRow> {
  const found = await findPlayback(db, partyId);
  if (found) return found;
  await db
    .insertInto('party_playback')
    .values({
      party_id: partyId,
      track_id: null,
      progress_ms: 0,
      timestamp_ms: now,
      is_paused: 1,
      track_ends_at: null,
      next_track_id: null,
      version: 0,
    })
    .onConflict((oc) => oc.column('party_id').doNothing())
    .execute();
  return (await findPlayback(db, partyId))!;
}

/**
 * Writes a new timeline if nobody changed it since `version` was read (compare-and-set on the
 * row): of two nodes racing to advance the same track, exactly one succeeds.
 */
export async function compareAndSetPlayback(
  db: Db,
  partyId: string,
  version: number,
  patch: Partial<Omit<PlaybackRow, 'party_id' | 'version'>>,
): Promise<boolean> {
  const res = await db
    .updateTable('party_playback')
    .set({ ...patch, version: version + 1 })
    .where('party_id', '=', partyId)
    .where('version', '=', version)
    .executeTakeFirst();
  const won = Number(res.numUpdatedRows) === 1;
  // Issue 14: the recap stamps events with the track and position; keep each timeline change.
  if (won && patch.timestamp_ms !== undefined) await recordSegment(db, partyId);
  return won;
}

/** Shapes a track row as the wire's Track. */
export function toTrack(row: TrackRow): Track {
  return {
    id: row.track_id,
    name: row.name,
    artists: parseJson<string[]>(row.artists, []),
    album: row.album,
    duration_ms: Number(row.duration_ms),
    image: row.image,
    service: row.service as Track['service'],
    hls_url: row.hls_url,
  };
}
