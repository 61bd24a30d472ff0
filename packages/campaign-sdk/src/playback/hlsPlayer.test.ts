import { describe, expect, it, vi } from 'vitest';
import { fakeEnv } from '../test/fakes.ts';
import { HlsPreviewPlayer, type HlsModule, type MediaElementLike } from './hlsPlayer.ts';
import { PlaybackStore } from './state.ts';

function fakeMedia(nativeHls = false) {
  const handlers = new Map<string, Set<() => void>>();
  const media: MediaElementLike & { fire(t: string): void; plays: number; pauses: number; loads: number; removed: string[]; duration: number; listenerCount(): number } = {
    src: '',
    currentTime: 0,
    duration: Number.NaN,
    volume: 1,
    paused: true,
    plays: 0,
    pauses: 0,
    loads: 0,
    removed: [],
    canPlayType: (t) => (nativeHls && t === 'application/vnd.apple.mpegurl' ? 'maybe' : ''),
    async play() {
      media.plays += 1;
    },
    pause() {
      media.pauses += 1;
    },
    addEventListener: (t, fn) => void (handlers.get(t) ?? handlers.set(t, new Set()).get(t)!).add(fn),
    removeEventListener: (t, fn) => void handlers.get(t)?.delete(fn),
    removeAttribute: (name) => void media.removed.push(name),
    load: () => void (media.loads += 1),
    fire: (t) => handlers.get(t)?.forEach((fn) => fn()),
    listenerCount: () => [...handlers.values()].reduce((n, set) => n + set.size, 0),
  };
  return media;
}

function fakeHls(supported = true) {
  const instances: { source: string | null; media: unknown; destroyed: boolean }[] = [];
  const loadHls = vi.fn(async (): Promise<HlsModule> => ({
    default: class {
      static isSupported() {
        return supported;
      }
      private readonly rec = { source: null as string | null, media: null as unknown, destroyed: false };
      constructor() {
        instances.push(this.rec);
      }
      loadSource(url: string) {
        this.rec.source = url;
      }
      attachMedia(m: unknown) {
        this.rec.media = m;
      }
      destroy() {
        this.rec.destroyed = true;
      }
    } as unknown as HlsModule['default'],
  }));
  return { loadHls, instances };
}

function setup(nativeHls = false) {
  const f = fakeEnv();
  const media = fakeMedia(nativeHls);
  const hls = fakeHls();
  const store = new PlaybackStore(() => undefined);
  const player = new HlsPreviewPlayer(store, {
    createMedia: () => media,
    manifestUrl: (id) => `https://cms/api/previews/manifest.m3u8?id=${id}`,
    loadHls: hls.loadHls,
    logger: f.env.logger,
  });
  return { ...f, media, hls, store, player };
}

describe('HLS preview player', () => {
  it('shows the length of the preview clip, not the full track, once the stream knows it', async () => {
    const f = fakeEnv();
    const media = fakeMedia(true);
    const store = new PlaybackStore(() => undefined);
    const track = { id: 't1', name: 'Song', artists: ['A'], album: 'B', durationMs: 70_000, image: null };
    const player = new HlsPreviewPlayer(store, { createMedia: () => media, manifestUrl: (id) => `https://cms/m.m3u8?id=${id}`, describe: () => track, logger: f.env.logger });
    await player.play({ type: 'track', id: 't1' });
    expect(store.state.currentTrack?.durationMs).toBe(70_000);
    media.fire('durationchange');
    expect(store.state.currentTrack?.durationMs).toBe(70_000);
    media.duration = 32.04;
    media.fire('durationchange');
    expect(store.state.currentTrack?.durationMs).toBe(32_040);
    media.duration = Number.POSITIVE_INFINITY;
    media.fire('durationchange');
    expect(store.state.currentTrack?.durationMs).toBe(32_040);
  });

  it('campaign spec §4: loading → playing: hls.js loads the manifest only when a preview plays', async () => {
    const { player, store, media, hls } = setup();
    expect(hls.loadHls).not.toHaveBeenCalled();
    await player.play({ type: 'track', id: 't1' });
    expect(hls.loadHls).toHaveBeenCalledTimes(1);
    expect(hls.instances[0]).toMatchObject({ source: 'https://cms/api/previews/manifest.m3u8?id=t1', media });
    expect(store.state).toMatchObject({ isLoading: true, isPaused: true });
    media.fire('playing');
    expect(store.state).toMatchObject({ isLoading: false, isPaused: false });
  });

  it('campaign spec §4: pause and resume, seek, volume', async () => {
    const { player, store, media } = setup();
    await player.play({ type: 'track', id: 't1' });
    media.fire('playing');
    await player.pause();
    media.fire('pause');
    expect(store.state.isPaused).toBe(true);
    await player.play();
    expect(media.plays).toBe(2);
    await player.seek(15_000);
    expect(media.currentTime).toBe(15);
    expect(store.state.progressMs).toBe(15_000);
    await player.setVolume(0.25);
    expect(media.volume).toBe(0.25);
    media.fire('volumechange');
    expect(store.state.volume).toBe(0.25);
  });

  it("campaign spec §4/§8: other controls log 'Not supported'", async () => {
    const { player, logs } = setup();
    await player.next();
    await player.previous();
    await player.setShuffle();
    await player.setRepeat('track');
    expect(logs.map((l) => [l.level, l.args[0], l.args[1]])).toEqual([
      ['warn', 'Not supported', 'next'],
      ['warn', 'Not supported', 'previous'],
      ['warn', 'Not supported', 'shuffle'],
      ['warn', 'Not supported', 'repeat'],
    ]);
  });

  it('a browser with native HLS plays the manifest without loading hls.js', async () => {
    const { player, media, hls } = setup(true);
    await player.play({ type: 'track', id: 't2' });
    expect(media.src).toBe('https://cms/api/previews/manifest.m3u8?id=t2');
    expect(hls.loadHls).not.toHaveBeenCalled();
  });

  it('a stream that fails while loading shows as paused, not loading for ever (the fan can play again)', async () => {
    const { player, store, media } = setup(true);
    await player.play({ type: 'track', id: 't1' });
    media.fire('waiting');
    expect(store.state.isLoading).toBe(true);
    media.fire('error');
    expect(store.state).toMatchObject({ isLoading: false, isPaused: true });
  });

  it('teardown: a new preview destroys the previous hls.js instance; destroy releases the media', async () => {
    const { player, media, hls } = setup();
    await player.play({ type: 'track', id: 'a' });
    await player.play({ type: 'track', id: 'b' });
    expect(hls.instances.map((i) => i.destroyed)).toEqual([true, false]);
    player.destroy();
    expect(hls.instances[1]!.destroyed).toBe(true);
    expect(media.pauses).toBe(1);
  });

  it('campaign spec §4: pause, waiting, ended, time and a failed stream reach the model', async () => {
    const { player, store, media } = setup(true);
    await player.play({ type: 'track', id: 't1' });
    media.fire('playing');
    media.fire('pause');
    expect(store.state.isPaused).toBe(true);
    media.fire('playing');
    media.fire('ended');
    expect(store.state.isPaused).toBe(true);
    media.fire('playing');
    media.fire('waiting');
    expect(store.state).toMatchObject({ isLoading: true, isPaused: false });
    media.currentTime = 12.5;
    media.fire('timeupdate');
    expect(store.state.progressMs).toBe(12_500);
  });

  it('campaign spec §4: the clip length is taken only for a known track and a positive length', async () => {
    const { player, store, media } = setup(true);
    media.duration = 30;
    media.fire('durationchange'); // no media element yet: nothing to do
    await player.play({ type: 'track', id: 't1' });
    media.fire('durationchange');
    expect(store.state.currentTrack).toBeNull();
    const f = fakeEnv();
    const other = fakeMedia(true);
    const described = new PlaybackStore(() => undefined);
    const track = { id: 't1', name: 'Song', artists: ['A'], album: 'B', durationMs: 70_000, image: null };
    const p = new HlsPreviewPlayer(described, { createMedia: () => other, manifestUrl: (id) => id, describe: () => track, logger: f.env.logger });
    await p.play({ type: 'track', id: 't1' });
    expect(described.state.currentTrack).toEqual(track);
    other.duration = 0;
    other.fire('durationchange');
    expect(described.state.currentTrack?.durationMs).toBe(70_000);
  });

  it('campaign spec §7: a track list plays the track at its offset (the first without one); an album or playlist is not supported', async () => {
    const { player, media, logs, store } = setup(true);
    await player.play({ type: 'tracks', ids: ['a', 'b', 'c'], offset: 1 });
    expect(media.src).toBe('https://cms/api/previews/manifest.m3u8?id=b');
    await player.play({ type: 'tracks', ids: ['x', 'y'] });
    expect(media.src).toBe('https://cms/api/previews/manifest.m3u8?id=x');
    const plays = media.plays;
    store.update({ isLoading: false });
    await player.play({ type: 'album', id: 'al1' });
    await player.play({ type: 'tracks', ids: ['a'], offset: 5 });
    expect(logs.map((l) => [l.level, ...l.args])).toEqual([
      ['warn', 'Not supported', 'album'],
      ['warn', 'Not supported', 'tracks'],
    ]);
    expect(media.plays).toBe(plays);
    expect(store.state.isLoading).toBe(false);
  });

  it('campaign spec §4: a start position is applied in seconds; none leaves the position alone', async () => {
    const { player, media, store } = setup(true);
    store.updateProgress(9000, true);
    await player.play({ type: 'track', id: 't1', positionMs: 5000 });
    expect(media.currentTime).toBe(5);
    expect(store.state.progressMs).toBe(0);
    await player.play({ type: 'track', id: 't2' });
    expect(media.currentTime).toBe(5);
  });

  it("campaign spec §8: without HLS support in the browser or hls.js, play fails with 'Playback unsupported' and stops loading", async () => {
    const f = fakeEnv();
    const media = fakeMedia(false);
    const store = new PlaybackStore(() => undefined);
    const hls = fakeHls(false);
    const player = new HlsPreviewPlayer(store, { createMedia: () => media, manifestUrl: (id) => id, loadHls: hls.loadHls, logger: f.env.logger });
    await expect(player.play({ type: 'track', id: 't1' })).rejects.toThrow('Playback unsupported');
    expect(store.state.isLoading).toBe(false);
    expect(hls.instances).toEqual([]);
    expect(media.plays).toBe(0);
  });

  it('campaign spec §4: controls before any preview: pause is a no-op, seek keeps the model, volume is clamped to 0..1', async () => {
    const { player, store, media } = setup();
    await expect(player.pause()).resolves.toBeUndefined();
    await player.seek(15_000);
    expect(store.state.progressMs).toBe(0);
    expect(media.currentTime).toBe(0);
    await player.setVolume(3);
    expect(media.volume).toBe(1);
    await player.setVolume(-1);
    expect(media.volume).toBe(0);
  });

  it('teardown: destroy detaches every media listener, empties the source and reloads; destroying twice is harmless', async () => {
    const { player, media, store } = setup(true);
    await player.play({ type: 'track', id: 't1' });
    expect(media.listenerCount()).toBe(8);
    player.destroy();
    expect(media.listenerCount()).toBe(0);
    expect(media.removed).toEqual(['src']);
    expect(media.loads).toBe(1);
    media.fire('playing');
    expect(store.state.isPaused).toBe(true);
    player.destroy();
    expect(media.pauses).toBe(1);
  });

  it('campaign spec §4: one media element serves every preview; pause pauses it; a seek shows at once, even a short one', async () => {
    const { player, media, store } = setup(true);
    expect(player.kind).toBe('preview');
    let created = 0;
    const counting = new HlsPreviewPlayer(store, { createMedia: () => {
        created += 1;
        return media;
      }, manifestUrl: (id) => id, logger: fakeEnv().env.logger });
    await counting.play({ type: 'track', id: 'a' });
    await counting.play({ type: 'track', id: 'b' });
    await counting.setVolume(0.5);
    expect(created).toBe(1);
    expect(media.listenerCount()).toBe(8);
    await player.play({ type: 'track', id: 't1' });
    await player.pause();
    expect(media.pauses).toBe(1);
    await player.seek(400);
    expect(store.state.progressMs).toBe(400);
    expect(media.currentTime).toBe(0.4);
  });

  it("campaign spec §4: without an injected loader hls.js itself is loaded (this runtime has no Media Source, so 'Playback unsupported')", async () => {
    const f = fakeEnv();
    const store = new PlaybackStore(() => undefined);
    const player = new HlsPreviewPlayer(store, { createMedia: () => fakeMedia(false), manifestUrl: (id) => id, logger: f.env.logger });
    await expect(player.play({ type: 'track', id: 't1' })).rejects.toThrow('Playback unsupported');
  });
});
