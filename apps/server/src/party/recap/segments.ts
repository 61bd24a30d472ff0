/**
 * The party timeline's history (issue 14): each change of `party_playback` kept as a segment, and
 * the stamp of any moment, the track that played then and the position in it. The recap, the
 * exports and the dashboard place chat messages, votes and answers on the timeline with it.
 */
import type { RecapPlay, TimelineStamp } from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import { toBool } from '../../platform/db/columns.ts';

/** A segment as read back (numbers, not the driver's bigint strings). */
export interface Segment {
  version: number;
  trackId: string | null;
  progressMs: number;
  timestampMs: number;
  isPaused: boolean;
}

/**
 * Keeps the timeline row as the compare-and-set of `version` left it. Called inside the same
 * write, so a rolled-back change leaves no segment; the primary key keeps a retry from adding two.
 */
export async function recordSegment(db: Db, partyId: string): Promise<void> {
  const row = await db.selectFrom('party_playback').selectAll().where('party_id', '=', partyId).executeTakeFirst();
  if (!row) return;
  await db
    .insertInto('party_timeline_segments')
    .values({
      party_id: partyId,
      version: Number(row.version),
      track_id: row.track_id,
      progress_ms: Number(row.progress_ms),
      timestamp_ms: Number(row.timestamp_ms),
      is_paused: Number(row.is_paused),
    })
    .onConflict((oc) => oc.columns(['party_id', 'version']).doNothing())
    .execute();
}

export async function loadSegments(db: Db, partyId: string): Promise<Segment[]> {
  const rows = await db.selectFrom('party_timeline_segments').selectAll().where('party_id', '=', partyId).orderBy('version').execute();
  return rows.map((r) => ({
    version: Number(r.version),
    trackId: r.track_id,
    progressMs: Number(r.progress_ms),
    timestampMs: Number(r.timestamp_ms),
    isPaused: toBool(r.is_paused),
  }));
}

/** The party's plays and a stamp for any moment of it. */
export interface Timeline {
  plays: RecapPlay[];
  stamp(atMs: number): TimelineStamp;
}

const NO_STAMP: TimelineStamp = { play: null, track_id: null, position_ms: null };

/**
 * Builds the plays from the segments: a play starts when another track starts (a pause and its
 * resume stay in the same play) and ends when the next play starts, or at `endsAtMs` (the party's
 * end) for the last one. A moment is stamped with the play whose segment holds then; moments before
 * the first play, and after the end, get no stamp.
 */
export function buildTimeline(segments: Segment[], tracks: Map<string, { name: string; durationMs: number }>, endsAtMs: number | null): Timeline {
  const plays: RecapPlay[] = [];
  const playOf: number[] = [];
  let previous: string | null = null;
  for (const s of segments) {
    // A track plays once per party (`played`), so a new play starts exactly when the track changes.
    if (s.trackId && s.trackId !== previous) {
      const last = plays.at(-1);
      if (last) last.ended_at_ms = s.timestampMs;
      const track = tracks.get(s.trackId);
      plays.push({ index: plays.length, track_id: s.trackId, name: track?.name ?? s.trackId, duration_ms: track?.durationMs ?? 0, started_at_ms: s.timestampMs, ended_at_ms: null });
    }
    previous = s.trackId ?? previous;
    playOf.push(plays.length - 1);
  }
  const last = plays.at(-1);
  if (last && endsAtMs != null && last.ended_at_ms == null) last.ended_at_ms = Math.max(last.started_at_ms, endsAtMs);
  const times = segments.map((s) => s.timestampMs);

  return {
    plays,
    stamp(atMs: number): TimelineStamp {
      // The last segment that started at or before the moment.
      let lo = 0;
      let hi = times.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (times[mid]! <= atMs) lo = mid + 1;
        else hi = mid;
      }
      const i = lo - 1;
      if (i < 0) return NO_STAMP;
      const s = segments[i]!;
      const play = plays[playOf[i]!];
      if (!s.trackId || !play) return NO_STAMP;
      if (play.ended_at_ms != null && atMs >= play.ended_at_ms && play.index === plays.length - 1) return NO_STAMP;
      const position = s.isPaused ? s.progressMs : s.progressMs + (atMs - s.timestampMs);
      return { play: play.index, track_id: s.trackId, position_ms: Math.max(0, Math.min(play.duration_ms || position, Math.round(position))) };
    },
  };
}

/** The timeline of a party, with its tracks' names and lengths. */
export async function partyTimeline(db: Db, partyId: string, endsAtMs: number | null): Promise<Timeline> {
  const [segments, tracks] = await Promise.all([
    loadSegments(db, partyId),
    db.selectFrom('party_tracks').select(['track_id', 'name', 'duration_ms']).where('party_id', '=', partyId).execute(),
  ]);
  return buildTimeline(segments, new Map(tracks.map((t) => [t.track_id, { name: t.name, durationMs: Number(t.duration_ms) }])), endsAtMs);
}
