import type { SocketState } from '@fanfare/client';
import type { PartyTrack, PlayerStatus } from '@fanfare/protocol';

/**
 * Ours (issue 15): a fan whose player is within this of the party timeline is "in sync". Below
 * what two listeners in one room hear as an echo; the fine alignment lands within 8 ms.
 */
export const IN_SYNC_TOLERANCE_MS = 50;

/** Offsets are shown rounded to this, so the number does not flicker with measurement noise. */
export const OFFSET_DISPLAY_STEP_MS = 10;

/** What the offset indicator says: in sync, or how far behind or ahead of the party. */
export type OffsetReading = { kind: 'in_sync' } | { kind: 'behind'; ms: number } | { kind: 'ahead'; ms: number } | { kind: 'unknown' };

/**
 * Reads a measured offset (timeline position minus player position; positive: the player is
 * behind the party). Null while nothing plays.
 */
export function readOffset(offsetMs: number | null): OffsetReading {
  if (offsetMs === null || !Number.isFinite(offsetMs)) return { kind: 'unknown' };
  if (Math.abs(offsetMs) <= IN_SYNC_TOLERANCE_MS) return { kind: 'in_sync' };
  const ms = Math.round(Math.abs(offsetMs) / OFFSET_DISPLAY_STEP_MS) * OFFSET_DISPLAY_STEP_MS;
  return offsetMs > 0 ? { kind: 'behind', ms } : { kind: 'ahead', ms };
}

/** Where the fan's live experience is, as the status pill tells it. */
export type SyncPhase = 'offline' | 'connecting' | 'reconnecting' | 'catching_up' | 'live';

/**
 * The truth the status pill shows (issue 15): no network, the socket (re)connecting, the player
 * realigning after a drop, a stall or a return to the tab, or live.
 */
export function syncPhase(input: { connection: SocketState; isOnline: boolean; isCatchingUp: boolean }): SyncPhase | null {
  const { connection } = input;
  if (connection.kind === 'idle' || connection.kind === 'ended' || connection.kind === 'error') return null;
  if (!input.isOnline) return 'offline';
  if (connection.kind === 'connecting') return connection.attempt > 1 ? 'reconnecting' : 'connecting';
  if (connection.kind === 'reconnecting') return 'reconnecting';
  return input.isCatchingUp ? 'catching_up' : 'live';
}

/**
 * The album has finished (issue 15): the timeline stopped at the end of its last track and no
 * track is left to play. The player then shows the finished state instead of a paused 1:15/1:15.
 */
export function isAlbumFinished(status: PlayerStatus | null, tracks: Pick<PartyTrack, 'id' | 'played'>[]): boolean {
  if (!status || !status.is_paused) return false;
  if (status.progress_ms < status.track.duration_ms) return false;
  return tracks.every((t) => t.played || t.id === status.track.id);
}
