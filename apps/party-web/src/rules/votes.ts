import type { PartyTrack } from '@fanfare/protocol';

/**
 * The tracks whose "Voted" mark the fan holds: only unplayed ones. A vote is for what plays next,
 * so once a track has played (the server marks it played when it starts) its vote is spent and
 * no longer shown, even while the server still keeps the row.
 */
export function heldVotes(tracks: readonly Pick<PartyTrack, 'id' | 'played'>[], trackVotes: readonly string[]): Set<string> {
  const unplayed = new Set(tracks.filter((t) => !t.played).map((t) => t.id));
  return new Set(trackVotes.filter((id) => unplayed.has(id)));
}

/** Vote counts as shown: a played track's count is spent and shown as none. */
export function shownVoteCounts(tracks: readonly Pick<PartyTrack, 'votes' | 'played'>[]): number[] {
  return tracks.map((t) => (t.played ? 0 : t.votes));
}

/** The tracks with `trackId` marked played: the server marks a track played as it starts. */
export function markPlayed<T extends Pick<PartyTrack, 'id' | 'played'>>(tracks: readonly T[], trackId: string): T[] {
  return tracks.map((t) => (t.id === trackId && !t.played ? { ...t, played: true } : t));
}
