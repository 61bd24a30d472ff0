import { describe, expect, it } from 'vitest';
import { fakeEnv, fakeMusicKit } from '../test/fakes.ts';
import { APPLE_PLAYBACK_STATES, ApplePlayer, mapAppleState } from './applePlayer.ts';
import { PlaybackStore } from './state.ts';

function setup(queue: string[] = []) {
  const f = fakeEnv();
  const mk = fakeMusicKit({ queue });
  const initErrors: string[] = [];
  const store = new PlaybackStore(() => undefined);
  const player = new ApplePlayer(mk, store, f.env.logger, (m) => initErrors.push(m));
  return { ...f, mk, store, player, initErrors };
}

const item = (id: string, durationInMillis = 200_000) => ({ id, attributes: { name: `Song ${id}`, artistName: 'Mara Quill', albumName: 'Paper', durationInMillis, artwork: { url: 'https://img/{w}x{h}.jpg' } } });

describe('Apple-style player', () => {
  it('campaign spec §4: the ten SDK states map to playing, paused or loading', () => {
    expect(Object.values(APPLE_PLAYBACK_STATES)).toHaveLength(10);
    expect(mapAppleState('playing')).toEqual({ isPaused: false, isLoading: false });
    for (const s of ['none', 'stopped', 'ended', 'completed', 'paused'] as const) expect(mapAppleState(s)).toEqual({ isPaused: true, isLoading: false });
    for (const s of ['loading', 'waiting', 'seeking'] as const) expect(mapAppleState(s)).toEqual({ isLoading: true });
    expect(mapAppleState(2)).toEqual({ isPaused: false, isLoading: false });
    expect(mapAppleState(10)).toEqual({ isPaused: true, isLoading: false });
  });

  it('campaign spec §4: state changes from MusicKit update the model; now-playing updates on item change', () => {
    const { mk, store } = setup();
    mk.playbackState = 2;
    mk.fire('playbackStateDidChange', { state: 2 });
    expect(store.state).toMatchObject({ isPaused: false, isLoading: false });
    mk.nowPlayingItem = item('42');
    mk.fire('nowPlayingItemDidChange');
    expect(store.state.currentTrack).toEqual({ id: '42', name: 'Song 42', artists: ['Mara Quill'], album: 'Paper', durationMs: 200_000, image: 'https://img/300x300.jpg' });
  });

  it('campaign spec §4: progress is playback time in seconds × 1000; volume follows the provider', () => {
    const { mk, store } = setup();
    mk.currentPlaybackTime = 12.5;
    mk.fire('playbackTimeDidChange');
    expect(store.state.progressMs).toBe(12_500);
    mk.volume = 0.3;
    mk.fire('playbackVolumeDidChange');
    expect(store.state.volume).toBe(0.3);
  });

  it('campaign spec §4: start at an offset: stop, find the track in the queue, jump to it, seek once it plays when > 2000 ms off', async () => {
    const { mk, player } = setup(['a', 'b', 'c']);
    await player.playTrackAt('b', 60_000);
    expect(mk.calls.map((c) => c[0])).toEqual(['stop', 'changeToMediaAtIndex', 'play']);
    expect(mk.calls[1]).toEqual(['changeToMediaAtIndex', 1]);
    // Not playing yet: no seek.
    mk.playbackState = 1;
    mk.fire('playbackStateDidChange', { state: 1 });
    expect(mk.calls.some((c) => c[0] === 'seekToTime')).toBe(false);
    mk.playbackState = 2;
    mk.currentPlaybackTime = 0.2;
    mk.fire('playbackTimeDidChange');
    expect(mk.calls.filter((c) => c[0] === 'seekToTime')).toEqual([['seekToTime', 60]]);
    mk.fire('playbackTimeDidChange'); // seeks only once
    expect(mk.calls.filter((c) => c[0] === 'seekToTime')).toHaveLength(1);
  });

  it('campaign spec §4/§9: no seek when playback is within 2000 ms of the wanted position; a missing track is queued', async () => {
    const { mk, player } = setup(['a']);
    await player.playTrackAt('z', 3000);
    expect(mk.calls.find((c) => c[0] === 'setQueue')).toEqual(['setQueue', { songs: ['z'] }]);
    mk.playbackState = 2;
    mk.currentPlaybackTime = 1.5; // 1500 ms off
    mk.fire('playbackTimeDidChange');
    expect(mk.calls.some((c) => c[0] === 'seekToTime')).toBe(false);
  });

  it('campaign spec §4: a newer request cancels the seek of an older one', async () => {
    const { mk, player } = setup(['a', 'b']);
    // The older request's stop() answers last, as a slow MusicKit would: it must not take over.
    let releaseFirstStop!: () => void;
    const firstStop = new Promise<void>((r) => (releaseFirstStop = r));
    const slow = mk as { stop: () => unknown };
    const stop = slow.stop;
    let stops = 0;
    slow.stop = () => (++stops === 1 ? firstStop : stop());
    const older = player.playTrackAt('a', 90_000);
    await player.playTrackAt('b', 30_000);
    releaseFirstStop();
    await older;
    expect(mk.calls.filter((c) => c[0] === 'changeToMediaAtIndex')).toEqual([['changeToMediaAtIndex', 1]]);
    mk.playbackState = 2;
    mk.currentPlaybackTime = 0;
    mk.fire('playbackTimeDidChange');
    expect(mk.calls.filter((c) => c[0] === 'seekToTime')).toEqual([['seekToTime', 30]]);
  });

  it('campaign spec §8/§9: queues over 300 tracks are truncated to the first 300 with a warning', async () => {
    const { mk, player, logs } = setup();
    const ids = Array.from({ length: 301 }, (_, i) => `t${i}`);
    await player.play({ type: 'tracks', ids });
    const queued = mk.calls.find((c) => c[0] === 'setQueue')![1] as { songs: string[] };
    expect(queued.songs).toHaveLength(300);
    expect(queued.songs.at(-1)).toBe('t299');
    expect(logs).toMatchObject([{ level: 'warn', args: ['Apple Music queue of 301 tracks truncated to 300'] }]);
  });

  it('campaign spec §8/§9: the 300-track cap applies to every queue: an album or playlist of 301 tracks is cut to its first 300', async () => {
    const f = fakeEnv();
    const long = Array.from({ length: 301 }, (_, i) => `p${i}`);
    const mk = fakeMusicKit({ containers: { 'pl.big': long, 'al.small': ['s1', 's2'] } });
    const player = new ApplePlayer(mk, new PlaybackStore(() => undefined), f.env.logger, () => undefined);
    await player.play({ type: 'playlist', id: 'pl.big', offset: 4 });
    expect(mk.queue.items).toHaveLength(300);
    expect(mk.queue.items.at(-1)).toEqual({ id: 'p299' });
    expect(mk.calls.filter((c) => c[0] === 'setQueue').at(-1)).toEqual(['setQueue', { songs: long.slice(0, 300), startPosition: 4 }]);
    expect(f.logs).toMatchObject([{ level: 'warn', args: ['Apple Music queue of 301 tracks truncated to 300'] }]);
    // A queue within the cap is queued once, untouched, with no warning.
    const before = mk.calls.length;
    await player.play({ type: 'album', id: 'al.small' });
    expect(mk.calls.slice(before).filter((c) => c[0] === 'setQueue')).toEqual([['setQueue', { album: 'al.small', startPosition: 0 }]]);
    expect(f.logs).toHaveLength(1);
  });

  it("campaign spec §8: repeat throws 'Repeat for Apple Music not implemented'", async () => {
    const { player } = setup();
    // A rejected promise, as every other control's failure is, never a synchronous throw.
    let result: Promise<void> | undefined;
    expect(() => (result = player.setRepeat('track'))).not.toThrow();
    await expect(result).rejects.toThrow('Repeat for Apple Music not implemented');
  });

  it("campaign spec §8: 'unsuitable media provider object' becomes 'Playback unsupported' plus an initialization error event; other errors are rethrown", async () => {
    const { mk, player, logs, initErrors } = setup();
    mk.playError = new Error('The play() request was interrupted: unsuitable media provider object');
    await expect(player.play()).resolves.toBeUndefined();
    expect(logs[0]).toMatchObject({ level: 'error', args: ['Playback unsupported', mk.playError] });
    expect(initErrors).toEqual(['Playback unsupported']);
    mk.playError = new Error('NOT_AUTHORIZED');
    await expect(player.play()).rejects.toThrow('NOT_AUTHORIZED');
  });

  it('teardown: destroy removes every MusicKit listener', () => {
    const { mk, player } = setup();
    expect(mk.listenerCount()).toBe(4);
    player.destroy();
    expect(mk.listenerCount()).toBe(0);
  });

  it('campaign spec §4: stalled and the numeric states map too; an unknown state changes nothing', () => {
    expect(mapAppleState('stalled')).toEqual({ isLoading: true });
    expect(mapAppleState(9)).toEqual({ isLoading: true });
    expect(mapAppleState(1)).toEqual({ isLoading: true });
    expect(mapAppleState(3)).toEqual({ isPaused: true, isLoading: false });
    expect(mapAppleState(7)).toBeNull();
    const { mk, store } = setup();
    mk.fire('playbackStateDidChange', { state: 2 });
    const before = store.state;
    mk.fire('playbackStateDidChange', { state: 7 });
    expect(store.state).toBe(before);
  });

  it('campaign spec §4: a state event without a state reads the player; the event travels with the state', () => {
    const { mk, store } = setup();
    mk.playbackState = 2;
    const event = { kind: 'no state field' };
    mk.fire('playbackStateDidChange', event);
    expect(store.state).toMatchObject({ isPaused: false, isLoading: false, originalEvent: event });
    mk.playbackState = 3;
    mk.fire('playbackStateDidChange', null);
    expect(store.state.isPaused).toBe(true);
  });

  it('campaign spec §3/§4: the model starts with the provider volume and now-playing item; a bare item gives empty fields', () => {
    const f = fakeEnv();
    const mk = fakeMusicKit();
    mk.volume = 0.45;
    mk.nowPlayingItem = { id: 'x1' };
    const store = new PlaybackStore(() => undefined);
    new ApplePlayer(mk, store, f.env.logger, () => undefined);
    expect(store.state.volume).toBe(0.45);
    expect(store.state.currentTrack).toEqual({ id: 'x1', name: '', artists: [], album: '', durationMs: 0, image: null });
    mk.nowPlayingItem = null;
    mk.fire('nowPlayingItemDidChange');
    expect(store.state.currentTrack).toBeNull();
  });

  it('campaign spec §4/§9: a new now-playing item starts its progress at 0', () => {
    const { mk, store } = setup();
    mk.currentPlaybackTime = 40;
    mk.fire('playbackTimeDidChange');
    expect(store.state.progressMs).toBe(40_000);
    mk.nowPlayingItem = item('7');
    const event = { item: '7' };
    mk.fire('nowPlayingItemDidChange', event);
    expect(store.state.progressMs).toBe(0);
    expect(store.state.originalEvent).toBe(event);
  });

  it('campaign spec §4: the pending seek also fires when the state turns to playing, and when playback is ahead of the wanted position', async () => {
    const { mk, player } = setup(['a', 'b']);
    await player.playTrackAt('a', 3000);
    // Index 0 is found in the queue: nothing is queued again.
    expect(mk.calls.some((c) => c[0] === 'setQueue')).toBe(false);
    expect(mk.calls).toContainEqual(['changeToMediaAtIndex', 0]);
    mk.playbackState = 2;
    mk.currentPlaybackTime = 6; // 3000 ms ahead
    mk.fire('playbackStateDidChange', { state: 2 });
    expect(mk.calls.filter((c) => c[0] === 'seekToTime')).toEqual([['seekToTime', 3]]);
  });

  it('campaign spec §4: exactly 2000 ms off is within the tolerance (no seek)', async () => {
    const { mk, player } = setup(['a']);
    await player.playTrackAt('a', 3000);
    mk.playbackState = 2;
    mk.currentPlaybackTime = 1;
    mk.fire('playbackTimeDidChange');
    expect(mk.calls.some((c) => c[0] === 'seekToTime')).toBe(false);
  });

  it('campaign spec §4: a seek waits while playback is paused or in an unknown state', async () => {
    const { mk, player } = setup(['a']);
    await player.playTrackAt('a', 60_000);
    for (const state of [3, 7]) {
      mk.playbackState = state;
      mk.fire('playbackTimeDidChange');
    }
    expect(mk.calls.some((c) => c[0] === 'seekToTime')).toBe(false);
  });

  it('campaign spec §4: a track with a start position of 0 also goes through stop and jump', async () => {
    const { mk, player } = setup(['a', 'b']);
    await player.play({ type: 'track', id: 'b', positionMs: 0 });
    expect(mk.calls.map((c) => c[0])).toEqual(['stop', 'changeToMediaAtIndex', 'play']);
  });

  it('campaign spec §7: a track, a track list at an offset, an album: queued with their start position, progress back to 0, then played', async () => {
    const { mk, player, store } = setup();
    store.updateProgress(50_000, true);
    await player.play({ type: 'track', id: 's1' });
    expect(store.state.progressMs).toBe(0);
    store.updateProgress(50_000, true);
    await player.play({ type: 'tracks', ids: ['a', 'b', 'c'], offset: 2 });
    expect(store.state.progressMs).toBe(0);
    await player.play({ type: 'tracks', ids: ['a'] });
    await player.play({ type: 'playlist', id: 'pl.1', offset: 3 });
    expect(mk.calls.filter((c) => c[0] === 'setQueue' || c[0] === 'play')).toEqual([
      ['setQueue', { song: 's1', startPosition: 0 }],
      ['play'],
      ['setQueue', { songs: ['a', 'b', 'c'], startPosition: 2 }],
      ['play'],
      ['setQueue', { songs: ['a'], startPosition: 0 }],
      ['play'],
      ['setQueue', { playlist: 'pl.1', startPosition: 3 }],
      ['play'],
    ]);
  });

  it('campaign spec §8/§9: a queue of exactly 300 tracks is queued whole, once, without a warning', async () => {
    const { mk, player, logs } = setup();
    const ids = Array.from({ length: 300 }, (_, i) => `t${i}`);
    await player.play({ type: 'tracks', ids });
    expect(mk.calls.filter((c) => c[0] === 'setQueue')).toEqual([['setQueue', { songs: ids, startPosition: 0 }]]);
    expect(logs).toEqual([]);
  });

  it("campaign spec §8: the provider's message is matched without regard to case; a non-Error failure is rethrown", async () => {
    const { mk, player, initErrors } = setup();
    mk.playError = new Error('UNSUITABLE Media Provider Object');
    await expect(player.play()).resolves.toBeUndefined();
    expect(initErrors).toEqual(['Playback unsupported']);
    mk.playError = 'unsuitable media provider object' as unknown as Error;
    await expect(player.play()).rejects.toBe('unsuitable media provider object');
    expect(initErrors).toHaveLength(1);
  });

  it('campaign spec §4/§7: pause, seek, next, previous, volume within 0..1, shuffle', async () => {
    const { mk, player, store } = setup();
    await player.pause();
    await player.seek(42_500);
    await player.next();
    await player.previous();
    expect(mk.calls).toEqual([['pause'], ['seekToTime', 42.5], ['next'], ['previous']]);
    expect(store.state.progressMs).toBe(42_500);
    await player.setVolume(1.7);
    expect(mk.volume).toBe(1);
    await player.setVolume(-0.3);
    expect(mk.volume).toBe(0);
    await player.setVolume(0.35);
    expect(mk.volume).toBe(0.35);
    await player.setShuffle(true);
    expect(mk.shuffleMode).toBe(1);
    expect(store.state.isShuffle).toBe(true);
    await player.setShuffle(false);
    expect(mk.shuffleMode).toBe(0);
    expect(store.state.isShuffle).toBe(false);
  });

  it('teardown: after destroy MusicKit events no longer reach the model', () => {
    const { mk, player, store } = setup();
    player.destroy();
    mk.fire('playbackStateDidChange', { state: 2 });
    mk.volume = 0.1;
    mk.fire('playbackVolumeDidChange');
    expect(store.state).toMatchObject({ isPaused: true, volume: 0.8 });
  });

  it('campaign spec §3: artwork without an address gives no image', () => {
    const { mk, store } = setup();
    mk.nowPlayingItem = { id: 'n1', attributes: { name: 'No art', artwork: {} } };
    mk.fire('nowPlayingItemDidChange');
    expect(store.state.currentTrack).toMatchObject({ id: 'n1', name: 'No art', image: null });
  });

  it('campaign spec §4: a start position applies to a single track only; a playlist with one is queued at its offset', async () => {
    const { mk, player } = setup();
    await player.play({ type: 'playlist', id: 'pl.1', offset: 1, positionMs: 5000 });
    expect(mk.calls.map((c) => c[0])).toEqual(['setQueue', 'play']);
    expect(mk.calls[0]).toEqual(['setQueue', { playlist: 'pl.1', startPosition: 1 }]);
  });

  it('campaign spec §4: an older request that resumes after a newer one started never seeks', async () => {
    const { mk, player } = setup(['a', 'b']);
    mk.playbackState = 2;
    const slow = mk as { changeToMediaAtIndex: (i: number) => Promise<unknown> };
    const change = slow.changeToMediaAtIndex;
    let releaseFirst!: () => void;
    const firstChange = new Promise<void>((r) => (releaseFirst = r));
    let changes = 0;
    slow.changeToMediaAtIndex = async (i) => {
      await change(i);
      if (++changes === 1) await firstChange;
    };
    const older = player.playTrackAt('a', 90_000);
    await new Promise((r) => setTimeout(r, 0));
    await player.playTrackAt('b', 30_000);
    releaseFirst();
    await older;
    mk.fire('playbackTimeDidChange');
    expect(mk.calls.filter((c) => c[0] === 'seekToTime')).toEqual([['seekToTime', 30]]);
  });

  it('campaign spec §4: a seek shows at once, even a short one', async () => {
    const { player, store } = setup();
    await player.seek(400);
    expect(store.state.progressMs).toBe(400);
  });
});
