import { describe, expect, it, vi } from 'vitest';
import { fakeEnv } from '../test/fakes.ts';
import { HlsPreviewPlayer, type HlsModule, type MediaElementLike } from './hlsPlayer.ts';
import { PlaybackStore } from './state.ts';

function fakeMedia(nativeHls = false) {
  const handlers = new Map<string, Set<() => void>>();
  const media: MediaElementLike & { fire(t: string): void; plays: number; pauses: number; duration: number } = {
    src: '',
    currentTime: 0,
    duration: Number.NaN,
    volume: 1,
    paused: true,
    plays: 0,
    pauses: 0,
    canPlayType: (t) => (nativeHls && t === 'application/vnd.apple.mpegurl' ? 'maybe' : ''),
    async play() {
      media.plays += 1;
    },
    pause() {
      media.pauses += 1;
    },
    addEventListener: (t, fn) => void (handlers.get(t) ?? handlers.set(t, new Set()).get(t)!).add(fn),
    removeEventListener: (t, fn) => void handlers.get(t)?.delete(fn),
    removeAttribute: () => undefined,
    load: () => undefined,
    fire: (t) => handlers.get(t)?.forEach((fn) => fn()),
  };
  return media;
}

function fakeHls() {
  const instances: { source: string | null; media: unknown; destroyed: boolean }[] = [];
  const loadHls = vi.fn(async (): Promise<HlsModule> => ({
    default: class {
      static isSupported() {
        return true;
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
});
