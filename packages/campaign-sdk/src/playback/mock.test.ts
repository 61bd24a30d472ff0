import type { SpotifyTrack } from '@fanfare/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fakeEnv } from '../test/fakes.ts';
import { MockPlayer } from './mockPlayer.ts';
import { buildMockQueue } from './mockQueue.ts';
import { PlaybackStore } from './state.ts';

const t = (id: string, duration_ms = 3000): SpotifyTrack => ({ id, name: `Track ${id}`, duration_ms, artists: [{ id: 'ar', name: 'Neon Harbour' }], album: { name: 'Lights', images: [{ url: 'https://img/a.png', width: 300, height: 300 }] } });

describe('mock queue', () => {
  it('campaign spec §3/§4: built from an album (name, images, tracks.items)', async () => {
    const api = fakeApi({ spotifyAlbum: vi.fn(async () => ({ id: 'al', name: 'Paper', images: [{ url: 'https://img/p.png', width: 1, height: 1 }], tracks: { items: [{ id: 'x', name: 'X', duration_ms: 1000, artists: [{ id: 'a', name: 'A' }] }] } })) });
    await expect(buildMockQueue(api, { type: 'album', id: 'al' })).resolves.toEqual({
      tracks: [{ id: 'x', name: 'X', artists: ['A'], album: 'Paper', durationMs: 1000, image: 'https://img/p.png' }],
      index: 0,
    });
  });

  it('campaign spec §4: built from a playlist (items carry an optional track)', async () => {
    const api = fakeApi({ spotifyPlaylist: vi.fn(async () => ({ id: 'pl', name: 'P', images: [], tracks: { items: [{ track: t('a') }, { track: null }, {}, { track: t('b') }] } })) });
    const q = await buildMockQueue(api, { type: 'playlist', id: 'pl', offset: 1 });
    expect(q.tracks.map((x) => x.id)).toEqual(['a', 'b']);
    expect(q.index).toBe(1);
  });

  it('campaign spec §4/§9: built from tracks (looked up by the batched lookup) or one track', async () => {
    const several = vi.fn(async (ids: readonly string[]) => ids.map((id) => t(id)));
    const one = vi.fn(async (id: string) => t(id));
    const api = fakeApi({ spotifyTracks: several, spotifyTrack: one });
    expect((await buildMockQueue(api, { type: 'tracks', ids: ['a', 'b'] })).tracks.map((x) => x.id)).toEqual(['a', 'b']);
    expect((await buildMockQueue(api, { type: 'track', id: 'z' })).tracks.map((x) => x.id)).toEqual(['z']);
  });
});

describe('mock queue offsets and covers', () => {
  it('campaign spec §3: the start index is the offset kept inside the queue; a single track always starts at 0', async () => {
    const several = vi.fn(async (ids: readonly string[]) => ids.map((id) => t(id)));
    const one = vi.fn(async (id: string) => t(id));
    const api = fakeApi({ spotifyTracks: several, spotifyTrack: one });
    expect((await buildMockQueue(api, { type: 'tracks', ids: ['a', 'b', 'c'], offset: 2 })).index).toBe(2);
    expect((await buildMockQueue(api, { type: 'tracks', ids: ['a', 'b', 'c'], offset: 9 })).index).toBe(2);
    expect((await buildMockQueue(api, { type: 'tracks', ids: ['a', 'b'], offset: -3 })).index).toBe(0);
    expect((await buildMockQueue(api, { type: 'tracks', ids: [], offset: 4 })).index).toBe(0);
  });

  it("campaign spec §3: a track's own album wins over the album it was looked up from; no image is null", async () => {
    const noCover: SpotifyTrack = { id: 'n', name: 'N', duration_ms: 10, artists: [{ id: 'a1', name: 'A' }, { id: 'a2', name: 'B' }], album: { name: 'Own', images: [] } };
    const api = fakeApi({ spotifyAlbum: vi.fn(async () => ({ id: 'al', name: 'Paper', images: [{ url: 'https://img/p.png', width: 1, height: 1 }], tracks: { items: [noCover] } })) });
    expect((await buildMockQueue(api, { type: 'album', id: 'al' })).tracks).toEqual([{ id: 'n', name: 'N', artists: ['A', 'B'], album: 'Own', durationMs: 10, image: null }]);
    const bare = fakeApi({ spotifyTrack: vi.fn(async () => ({ id: 'b', name: 'B', duration_ms: 5, artists: [] })) });
    expect((await buildMockQueue(bare, { type: 'track', id: 'b' })).tracks[0]).toMatchObject({ album: '', image: null });
  });
});

describe('mock player', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(tracks = [t('a'), t('b')]) {
    const { env } = fakeEnv();
    const store = new PlaybackStore(() => undefined);
    const player = new MockPlayer(store, env.timers, async () => ({ tracks: tracks.map((x) => ({ id: x.id, name: x.name, artists: [], album: '', durationMs: x.duration_ms, image: null })), index: 0 }));
    return { store, player };
  }

  it('campaign spec §4: moves to the next track when progress reaches the duration', async () => {
    const { store, player } = setup();
    await player.play({ type: 'album', id: 'x' });
    expect(store.state).toMatchObject({ isPaused: false, progressMs: 0 });
    expect(store.state.currentTrack?.id).toBe('a');
    vi.advanceTimersByTime(2000);
    expect(store.state.progressMs).toBe(2000);
    vi.advanceTimersByTime(1000);
    expect(store.state.currentTrack?.id).toBe('b');
    expect(store.state.progressMs).toBe(0);
  });

  it('campaign spec §4: previous and next reset progress to 0 and unpause', async () => {
    const { store, player } = setup();
    await player.play({ type: 'album', id: 'x' });
    vi.advanceTimersByTime(2000);
    await player.pause();
    await player.next();
    expect(store.state).toMatchObject({ progressMs: 0, isPaused: false });
    expect(store.state.currentTrack?.id).toBe('b');
    vi.advanceTimersByTime(1000);
    await player.pause();
    await player.previous();
    expect(store.state).toMatchObject({ progressMs: 0, isPaused: false });
    expect(store.state.currentTrack?.id).toBe('a');
  });

  it('campaign spec §4: with no current track it is paused', async () => {
    const { store, player } = setup([t('only')]);
    await player.play({ type: 'track', id: 'only' });
    await player.next();
    expect(store.state).toMatchObject({ currentTrack: null, isPaused: true });
    await player.play();
    expect(store.state.isPaused).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('campaign spec §3/§4: pause stops the clock, play resumes it; seek stays within the track; volume stays within 0 to 1', async () => {
    const { store, player } = setup();
    expect(player.currentQueue).toEqual({ tracks: [], index: 0 });
    await player.play({ type: 'album', id: 'x', positionMs: 1000 });
    expect(store.state).toMatchObject({ isLoading: false, isPaused: false, progressMs: 1000 });
    await player.pause();
    expect(store.state.isPaused).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(store.state.progressMs).toBe(1000);
    await player.play();
    expect(store.state.isPaused).toBe(false);
    expect(vi.getTimerCount()).toBe(1);
    await player.seek(99_999);
    expect(store.state.progressMs).toBe(3000);
    await player.seek(500);
    expect(store.state.progressMs).toBe(500);
    await player.setVolume(1.5);
    expect(store.state.volume).toBe(1);
    await player.setVolume(-0.2);
    expect(store.state.volume).toBe(0);
    await player.setVolume(0.4);
    expect(store.state.volume).toBe(0.4);
    await player.setShuffle(true);
    expect(store.state.isShuffle).toBe(true);
    player.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('campaign spec §3/§4: repeat track replays the track; repeat context starts the queue again; off ends it', async () => {
    const { store, player } = setup();
    await player.play({ type: 'album', id: 'x' });
    await player.setRepeat('track');
    expect(store.state.repeatMode).toBe('track');
    vi.advanceTimersByTime(3000);
    expect(store.state.currentTrack?.id).toBe('a');
    expect(store.state.progressMs).toBe(0);
    await player.setRepeat('context');
    await player.next();
    expect(store.state.currentTrack?.id).toBe('b');
    await player.next();
    expect(store.state.currentTrack?.id).toBe('a');
    expect(player.currentQueue.index).toBe(0);
    await player.setRepeat('off');
    await player.next();
    await player.next();
    expect(store.state).toMatchObject({ currentTrack: null, isPaused: true });
    // Previous from past the end comes back to the last track.
    await player.previous();
    expect(store.state.currentTrack?.id).toBe('b');
    await player.previous();
    await player.previous();
    expect(store.state.currentTrack?.id).toBe('a');
    player.destroy();
  });
});
