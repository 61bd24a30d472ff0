import type { PlayerStatus } from '@fanfare/protocol';
import { toBool } from '../../platform/db/columns.ts';
import { toTrack, type PlaybackRow, type TrackRow } from './queries.ts';

/**
 * The upcoming order: unplayed, not excluded tracks other than the current one. With voting on,
 * most votes first and album order breaking ties; otherwise album order. A track forced by a poll
 * with `set_next_track` goes first.
 */
export function upcomingQueue(
  tracks: TrackRow[],
  votes: Map<string, number>,
  playback: Pick<PlaybackRow, 'track_id' | 'next_track_id'> | null,
  votingEnabled: boolean,
): string[] {
  const current = playback?.track_id ?? null;
  const upcoming = tracks.filter((t) => !toBool(t.excluded) && !toBool(t.played) && t.track_id !== current);
  upcoming.sort((a, b) => (votingEnabled ? (votes.get(b.track_id) ?? 0) - (votes.get(a.track_id) ?? 0) : 0) || a.position - b.position);
  const ids = upcoming.map((t) => t.track_id);
  const forced = playback?.next_track_id ?? null;
  const at = forced ? ids.indexOf(forced) : -1;
  if (at > 0) ids.unshift(...ids.splice(at, 1));
  return ids;
}

/** Position in the current track at server time `now`, clamped to the track. */
export function progressAt(playback: PlaybackRow, durationMs: number, now: number): number {
  const base = Number(playback.progress_ms);
  const elapsed = toBool(playback.is_paused) ? 0 : Math.max(0, now - Number(playback.timestamp_ms));
  return Math.min(durationMs, Math.max(0, Math.round(base + elapsed)));
}

/** The wire status at server time `now`: progress then, stamped with `now`. Null with no track. */
export function statusAt(playback: PlaybackRow | null, track: TrackRow | null, now: number): PlayerStatus | null {
  if (!playback || !track || playback.track_id !== track.track_id) return null;
  return {
    track: toTrack(track),
    progress_ms: progressAt(playback, Number(track.duration_ms), now),
    is_paused: toBool(playback.is_paused),
    timestamp_ms: now,
  };
}
