import { describe, expect, it } from 'vitest';
import { heldVotes, markPlayed, shownVoteCounts } from './votes.ts';

const tracks = [
  { id: 'a', played: true, votes: 3 },
  { id: 'b', played: false, votes: 2 },
  { id: 'c', played: false, votes: 0 },
];

describe('track votes: only unplayed tracks hold a vote mark and count', () => {
  it('drops the marks of played tracks, keeps those of unplayed ones', () => {
    expect([...heldVotes(tracks, ['a', 'b'])]).toEqual(['b']);
  });
  it('ignores votes for tracks not in the party', () => {
    expect([...heldVotes(tracks, ['zz'])]).toEqual([]);
  });
  it('shows a played track with no votes', () => {
    expect(shownVoteCounts(tracks)).toEqual([0, 2, 0]);
  });
  it('marks the track that starts as played, leaving the others and the input untouched', () => {
    const next = markPlayed(tracks, 'b');
    expect(next.map((t) => t.played)).toEqual([true, true, false]);
    expect(tracks[1]!.played).toBe(false);
    expect(next[0]).toBe(tracks[0]);
  });
});
