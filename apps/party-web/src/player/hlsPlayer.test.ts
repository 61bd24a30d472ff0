import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type Hls from 'hls.js';
import type { PlayerStatus } from '@fanfare/protocol';
import { trackFixture } from '../test/fixtures.ts';
import { PlayerController } from './controller.ts';
import { HlsPlayer, NATIVE_LOAD_TIMEOUT_MS } from './hlsPlayer.ts';
import { StreamInterruptedError, type PlaybackState } from './types.ts';

const track = { ...trackFixture('t1'), hls_url: '/media/t1/index.m3u8' };
const running: PlayerStatus = { track, progress_ms: 5_000, is_paused: false, timestamp_ms: 0 };

/** The parts of an <audio> element HlsPlayer touches; `canPlayHls` is what canPlayType answers for HLS. */
class FakeAudio extends EventTarget {
  preload = '';
  src = '';
  currentTime = 0;
  paused = true;
  volume = 1;
  playbackRate = 1;
  defaultPlaybackRate = 1;
  preservesPitch = true;
  error: { code: number } | null = null;
  networkState = 1;
  constructor(private readonly canPlayHls: string) {
    super();
  }
  canPlayType(type: string): string {
    return type === 'application/vnd.apple.mpegurl' ? this.canPlayHls : '';
  }
  async play(): Promise<void> {
    this.paused = false;
    this.dispatchEvent(new Event('playing'));
  }
  pause(): void {
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }
  removeAttribute(): void {
    this.src = '';
  }
  /** The element fails, as Chromium's own HLS player does when the network drops. */
  fail(code = 4): void {
    this.error = { code };
    this.dispatchEvent(new Event('error'));
    this.pause();
  }
}

/** hls.js as HlsPlayer uses it: the playlist parses as soon as it is attached, unless `parses` is off. */
class FakeHls {
  static Events = { MANIFEST_PARSED: 'hlsManifestParsed', ERROR: 'hlsError' };
  static ErrorTypes = { NETWORK_ERROR: 'networkError', MEDIA_ERROR: 'mediaError' };
  static isSupported = () => true;
  static instances: FakeHls[] = [];
  static parses = true;
  levels = [{}];
  source: string | null = null;
  destroyed = false;
  private handlers = new Map<string, (e: string, data: unknown) => void>();
  constructor() {
    FakeHls.instances.push(this);
  }
  on(event: string, handler: (e: string, data: unknown) => void): void {
    this.handlers.set(event, handler);
  }
  emit(event: string, data: unknown = {}): void {
    this.handlers.get(event)?.(event, data);
  }
  loadSource(url: string): void {
    this.source = url;
  }
  attachMedia(): void {
    if (FakeHls.parses) this.emit(FakeHls.Events.MANIFEST_PARSED);
  }
  destroy(): void {
    this.destroyed = true;
  }
}
const hlsModule = { default: FakeHls as unknown as typeof Hls };

function playerOn(audio: FakeAudio) {
  const loadHls = vi.fn(async () => hlsModule);
  const player = new HlsPlayer(audio as unknown as HTMLAudioElement, loadHls);
  const states: PlaybackState[] = [];
  player.onState((s) => states.push({ ...s }));
  return { player, loadHls, states };
}

beforeEach(() => {
  FakeHls.instances = [];
  FakeHls.parses = true;
  vi.stubGlobal('document', { baseURI: 'http://127.0.0.1/' });
  vi.stubGlobal('HTMLMediaElement', { NETWORK_NO_SOURCE: 3 });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('HLS engine rule: hls.js wherever Media Source Extensions exist, the browser\'s own HLS only without them', () => {
  it('plays through hls.js although the browser says it plays HLS itself (Chromium 156 answers "maybe")', async () => {
    vi.stubGlobal('MediaSource', class {});
    const audio = new FakeAudio('maybe');
    const { player, loadHls } = playerOn(audio);
    await player.init();
    await player.play(track, 5_000);
    expect(loadHls).toHaveBeenCalledOnce();
    expect(FakeHls.instances.map((h) => h.source)).toEqual(['http://127.0.0.1/media/t1/index.m3u8']);
    expect(audio.src).toBe('');
    expect(audio.paused).toBe(false);
  });

  it('without Media Source Extensions (older iOS) the browser plays the playlist, and hls.js is never loaded', async () => {
    vi.stubGlobal('MediaSource', undefined);
    const audio = new FakeAudio('maybe');
    const { player, loadHls } = playerOn(audio);
    await player.init();
    const playing = player.play(track, 5_000);
    audio.dispatchEvent(new Event('loadedmetadata'));
    await playing;
    expect(loadHls).not.toHaveBeenCalled();
    expect(audio.src).toBe('http://127.0.0.1/media/t1/index.m3u8');
    expect(audio.currentTime).toBe(5);
  });

  it('neither: a media-support error (spec 8)', async () => {
    vi.stubGlobal('MediaSource', undefined);
    await expect(playerOn(new FakeAudio('')).player.init()).rejects.toThrow('cannot play HLS');
  });
});

describe('heal: a stream the browser failed is healed, never waited on for good', () => {
  beforeEach(() => vi.stubGlobal('MediaSource', undefined));

  it('a failed load of the browser\'s own player rejects as interrupted (a heal retries) instead of hanging every later heal', async () => {
    const audio = new FakeAudio('maybe');
    const { player } = playerOn(audio);
    await player.init();
    const playing = player.play(track, 5_000);
    audio.fail();
    await expect(playing).rejects.toBeInstanceOf(StreamInterruptedError);
  });

  it(`a load that never answers gives up after NATIVE_LOAD_TIMEOUT_MS (${NATIVE_LOAD_TIMEOUT_MS} ms)`, async () => {
    vi.useFakeTimers();
    const { player } = playerOn(new FakeAudio('maybe'));
    await player.init();
    const playing = player.play(track, 5_000);
    const outcome = expect(playing).rejects.toThrow(`within ${NATIVE_LOAD_TIMEOUT_MS} ms`);
    await vi.advanceTimersByTimeAsync(NATIVE_LOAD_TIMEOUT_MS);
    await outcome;
  });

  it('an element error mid-play leaves the player silent and not loading, which the stall tick heals (it was left "loading" and silent for good)', async () => {
    const audio = new FakeAudio('maybe');
    const { player, states } = playerOn(audio);
    const controller = new PlayerController({ adapter: player, status: () => running, clockOffsetMs: () => 0, now: () => 0, onMediaError: vi.fn() });
    await player.init();
    const playing = player.play(track, 5_000);
    audio.dispatchEvent(new Event('loadedmetadata'));
    await playing;
    audio.dispatchEvent(new Event('waiting')); // the network went, the stream waits for data
    audio.fail();
    expect(states.at(-1)).toMatchObject({ isPaused: true, isLoading: false });
    expect(controller.isSilentWhileLive).toBe(true);
  });
});

describe('heal: an hls.js stream is never waited on for good', () => {
  beforeEach(() => vi.stubGlobal('MediaSource', class {}));

  it('a load still waiting for its playlist ends (interrupted) when a newer load replaces it', async () => {
    FakeHls.parses = false;
    const { player } = playerOn(new FakeAudio(''));
    await player.init();
    const first = player.play(track, 5_000);
    const second = player.play({ ...track, id: 't2', hls_url: '/media/t2/index.m3u8' }, 0);
    await expect(first).rejects.toBeInstanceOf(StreamInterruptedError);
    expect(FakeHls.instances[0]!.destroyed).toBe(true);
    FakeHls.instances[1]!.emit(FakeHls.Events.MANIFEST_PARSED);
    await second;
  });

  it('hls.js giving up mid-track detaches the stream (a start waiting on it ends), and the next play loads it afresh', async () => {
    const audio = new FakeAudio('');
    const { player, states } = playerOn(audio);
    await player.init();
    await player.play(track, 5_000);
    FakeHls.instances[0]!.emit(FakeHls.Events.ERROR, { fatal: true, type: FakeHls.ErrorTypes.NETWORK_ERROR, details: 'fragLoadError' });
    expect(FakeHls.instances[0]!.destroyed).toBe(true);
    expect(states.at(-1)).toMatchObject({ isPaused: true, isLoading: false });
    await player.play(track, 9_000);
    expect(FakeHls.instances).toHaveLength(2);
  });
});
