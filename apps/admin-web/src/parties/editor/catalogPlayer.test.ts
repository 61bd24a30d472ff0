import { describe, expect, it } from 'vitest';
import { addPickedTracks, PLAYER_PICKS, trackName } from './catalog.ts';

describe('the campaign player module picks from the catalog', () => {
  it('offers tracks, albums and playlists; an album adds its tracks in order, without duplicates', () => {
    const album = PLAYER_PICKS.find((p) => p.value.startsWith('album:'))!;
    const track = PLAYER_PICKS.find((p) => p.value.startsWith('track:'))!;
    expect(PLAYER_PICKS.some((p) => p.value.startsWith('playlist:'))).toBe(true);
    expect(album.trackIds.length).toBeGreaterThan(1);
    const once = addPickedTracks([], album);
    expect(once).toEqual(album.trackIds);
    expect(addPickedTracks(once, album)).toEqual(once);
    expect(addPickedTracks([track.trackIds[0]!], album)[0]).toBe(track.trackIds[0]);
    expect(trackName(album.trackIds[0]!)).toBeTruthy();
    expect(addPickedTracks(Array.from({ length: 49 }, (_, i) => `x${i}`), album)).toHaveLength(50);
  });
});
