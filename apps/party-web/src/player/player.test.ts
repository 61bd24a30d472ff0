import { describe, expect, it, vi } from 'vitest';
import type { PlayerStatus, Track } from '@fanfare/protocol';
import { trackFixture } from '../test/fixtures.ts';
import { APPLE_UNRESOLVED_ITEMS, ApplePlayer, tolerateUnresolved, type MusicKitInstance } from './applePlayer.ts';
import { FINE_SYNC_ATTEMPTS, FINE_SYNC_TOLERANCE_MS, PlayerController, SEEKABLE_DRIFT_TOLERANCE_MS } from './controller.ts';
import { MockPlayer } from './mockPlayer.ts';
import { choosePlayer } from './select.ts';
import { SpotifyPlayer, type SpotifySdk } from './spotifyPlayer.ts';
import { MediaSupportError } from './types.ts';

const track = trackFixture('t1');
const statusAt = (progress: number, ts: number, paused = false): PlayerStatus => ({ track, progress_ms: progress, is_paused: paused, timestamp_ms: ts });

function controller(status: PlayerStatus | null, opts: { offset?: number; now?: number } = {}) {
  const mock = new MockPlayer(() => opts.now ?? 0);
  const spy = { play: vi.spyOn(mock, 'play'), init: vi.spyOn(mock, 'init'), enqueue: vi.spyOn(mock, 'enqueue'), pause: vi.spyOn(mock, 'pause') };
  let current = status;
  const onMediaError = vi.fn();
  const onDevices = vi.fn();
  const c = new PlayerController({
    adapter: mock,
    status: () => current,
    clockOffsetMs: () => opts.offset ?? 0,
    now: () => opts.now ?? 0,
    onMediaError,
    onDevices,
  });
  return { c, mock, spy, onMediaError, onDevices, setStatus: (s: PlayerStatus) => void (current = s) };
}

describe('player rule: play starts the current track at progress_ms corrected by the clock offset (spec 4)', () => {
  it('plays at progress + (server now - status time), then loads devices and clears manual pause', async () => {
    const t = controller(statusAt(30_000, 100_000), { now: 103_000, offset: 2_000 });
    await t.c.pause();
    expect(t.c.isManuallyPaused).toBe(true);
    await t.c.play();
    expect(t.spy.play).toHaveBeenCalledWith(track, 35_000);
    expect(t.onDevices).toHaveBeenCalledWith([{ id: 'mock', is_active: true }]);
    expect(t.c.isManuallyPaused).toBe(false);
  });
  it('is initialised once', async () => {
    const t = controller(statusAt(0, 0));
    await t.c.play();
    await t.c.play();
    await t.c.onQueueChange([]);
    expect(t.spy.init).toHaveBeenCalledTimes(1);
  });
});

describe('player rule: a track change plays unless manually paused (spec 4)', () => {
  it('plays the new track', async () => {
    const t = controller(statusAt(0, 0));
    const next = { ...statusAt(0, 0), track: trackFixture('t2') };
    t.setStatus(next);
    await t.c.onTrackChange();
    expect(t.spy.play).toHaveBeenCalledWith(next.track, 0);
  });
  it('stays silent after a manual pause', async () => {
    const t = controller(statusAt(0, 0));
    await t.c.pause();
    await t.c.onTrackChange();
    expect(t.spy.play).not.toHaveBeenCalled();
  });
});

describe('player rule: a queue change enqueues tracks (spec 4)', () => {
  it('enqueues', async () => {
    const t = controller(null);
    await t.c.onQueueChange([trackFixture('a'), trackFixture('b')]);
    expect(t.mock.queue.map((x) => x.id)).toEqual(['a', 'b']);
  });
});

describe('media-support error rule: a player initialisation error sets the flag (spec 8)', () => {
  it('reports the error and does not play', async () => {
    const t = controller(statusAt(0, 0));
    t.spy.init.mockRejectedValueOnce(new MediaSupportError('no MSE'));
    await t.c.play();
    expect(t.onMediaError).toHaveBeenCalledTimes(1);
    expect(t.spy.play).not.toHaveBeenCalled();
  });
});

describe('drift rule: a position more than 1.5 s off the timeline is re-aligned', () => {
  it('re-plays at the expected position', async () => {
    let now = 0;
    const mock = new MockPlayer(() => now);
    const c = new PlayerController({ adapter: mock, status: () => statusAt(0, 0), clockOffsetMs: () => 0, now: () => now, onMediaError: vi.fn() });
    await c.play();
    await mock.pause(); // a stall: position stays at 0
    now = 5_000;
    expect(await c.realign()).toBe(true);
    expect(mock.positionMs()).toBe(5_000);
  });
});

describe('player choice rule: umg_hls if the party enables it, else the user service (spec 4)', () => {
  const base = { userService: 'spotify' as const, hasSpotifySdk: true, hasMusicKit: false, trackHasHls: true, forced: null };
  it('prefers the internal service when the party plays umg_hls', () => {
    expect(choosePlayer({ ...base, party: { music: { type: 'album', id: 'a', service: 'umg_hls', country: 'de', url: null } } })).toBe('umg_hls');
  });
  it("uses the user's service when its SDK is present", () => {
    expect(choosePlayer({ ...base, party: null })).toBe('spotify');
    expect(choosePlayer({ ...base, party: null, userService: 'apple', hasMusicKit: true })).toBe('apple');
  });
  it('falls back to the HLS stream, then the mock', () => {
    expect(choosePlayer({ ...base, party: null, hasSpotifySdk: false })).toBe('umg_hls');
    expect(choosePlayer({ ...base, party: null, hasSpotifySdk: false, trackHasHls: false })).toBe('mock');
    expect(choosePlayer({ ...base, party: null, forced: 'mock' })).toBe('mock');
  });
});

/** A fake of Spotify's Web Playback SDK. */
function fakeSpotifySdk(opts: { failInit?: string } = {}) {
  const listeners = new Map<string, (p: unknown) => void>();
  const instance = {
    connect: vi.fn(async () => {
      queueMicrotask(() => {
        if (opts.failInit) listeners.get('initialization_error')?.({ message: opts.failInit });
        else listeners.get('ready')?.({ device_id: 'dev-1' });
      });
      return true;
    }),
    disconnect: vi.fn(),
    addListener: vi.fn((event: string, cb: (p: never) => void) => {
      listeners.set(event, cb as (p: unknown) => void);
      return true;
    }),
    pause: vi.fn(async () => undefined),
    resume: vi.fn(async () => undefined),
    setVolume: vi.fn(async () => undefined),
  };
  const sdk: SpotifySdk = {
    Player: class {
      constructor(readonly options: { getOAuthToken: (cb: (t: string) => void) => void }) {
        return instance as never;
      }
    } as unknown as SpotifySdk['Player'],
  };
  return { sdk, instance, listeners };
}

describe('spotify-style adapter drives the Web Playback SDK (fake SDK)', () => {
  it('connects, waits for ready, plays the track at the position on its device', async () => {
    const { sdk, instance } = fakeSpotifySdk();
    const fetch = vi.fn(async () => new Response(JSON.stringify({ devices: [{ id: 'dev-1', is_active: true }, { id: null, is_active: false }] }), { status: 200 }));
    const p = new SpotifyPlayer({ sdk, token: () => 'ST', apiUrl: 'https://api.example/v1', fetch: fetch as unknown as typeof globalThis.fetch });
    await p.init();
    expect(instance.connect).toHaveBeenCalled();
    await p.play(track as Track, 12_345);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://api.example/v1/me/player/play?device_id=dev-1');
    expect(JSON.parse(init.body as string)).toEqual({ uris: ['spotify:track:t1'], position_ms: 12_345 });
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer ST');
    expect(await p.devices()).toEqual([{ id: 'dev-1', is_active: true }]);
    await p.pause();
    expect(instance.pause).toHaveBeenCalled();
  });
  it('turns an initialization_error into a media-support error', async () => {
    const { sdk } = fakeSpotifySdk({ failInit: 'EME not supported' });
    const p = new SpotifyPlayer({ sdk, token: () => 'ST', apiUrl: 'x' });
    await expect(p.init()).rejects.toBeInstanceOf(MediaSupportError);
  });
});

/** A fake MusicKit instance. */
function fakeMusicKit(opts: { playLaterError?: string; setQueueError?: string } = {}) {
  const music: MusicKitInstance & { calls: string[] } = {
    calls: [],
    currentPlaybackTime: 0,
    volume: 1,
    isPlaying: false,
    async setQueue(o) {
      music.calls.push(`setQueue:${o.songs.join(',')}`);
      if (opts.setQueueError) throw new Error(opts.setQueueError);
    },
    async playLater(o) {
      music.calls.push(`playLater:${o.songs.join(',')}`);
      if (opts.playLaterError) throw new Error(opts.playLaterError);
    },
    async play() {
      music.calls.push('play');
      music.isPlaying = true;
    },
    pause() {
      music.calls.push('pause');
    },
    async seekToTime(s) {
      music.calls.push(`seek:${s}`);
      music.currentPlaybackTime = s;
    },
    addEventListener: () => undefined,
  };
  return music;
}

describe('apple-style adapter drives MusicKit (fake MusicKit)', () => {
  it('sets the queue, plays and seeks to the position', async () => {
    const music = fakeMusicKit();
    const p = new ApplePlayer(music);
    await p.init();
    await p.play(track, 42_000);
    expect(music.calls).toEqual(['setQueue:t1', 'play', 'seek:42']);
    expect(p.positionMs()).toBe(42_000);
  });
  it("tolerates 'One or more items could not be resolved' on enqueue and goes on (spec 5)", async () => {
    const music = fakeMusicKit({ playLaterError: `MKError: ${APPLE_UNRESOLVED_ITEMS}.` });
    const p = new ApplePlayer(music);
    await expect(p.enqueue([trackFixture('a'), trackFixture('missing')])).resolves.toBeUndefined();
    await p.play(track, 0);
    expect(music.calls).toContain('play');
  });
  it('raises any other enqueue error (spec 5)', async () => {
    const p = new ApplePlayer(fakeMusicKit({ playLaterError: 'Network down' }));
    await expect(p.enqueue([trackFixture('a')])).rejects.toThrow('Network down');
    await expect(tolerateUnresolved(async () => 1)).resolves.toBe(1);
  });
});

/** A seekable player whose stream loads late and whose seeks cost time, like HLS in a browser. */
class LaggingSeekablePlayer extends MockPlayer {
  seeks: number[] = [];
  constructor(
    private readonly clock: { now: number },
    private readonly loadCostMs: number,
    private readonly seekCostMs: number,
  ) {
    super(() => clock.now);
  }
  override async play(track: Track, positionMs: number): Promise<void> {
    this.clock.now += this.loadCostMs; // the position was computed before the stream loaded
    await super.play(track, positionMs);
  }
  /** The stream falls behind by `ms` (a short stall that resumed). */
  async slip(ms: number): Promise<void> {
    await super.play(this.track!, this.positionMs() - ms);
  }
  async seek(positionMs: number): Promise<void> {
    this.seeks.push(positionMs);
    const track = this.track ?? trackFixture('t');
    await super.play(track, positionMs);
    this.clock.now += this.seekCostMs; // playback resumes at positionMs only after the seek cost
    await super.play(track, positionMs);
  }
}

describe('fine sync rule: a seekable player is aligned to the timeline once its stream runs', () => {
  it(`ends within FINE_SYNC_TOLERANCE_MS (${FINE_SYNC_TOLERANCE_MS} ms) of the timeline despite load and seek costs`, async () => {
    const clock = { now: 10_000 };
    const player = new LaggingSeekablePlayer(clock, 120, 30);
    const c = new PlayerController({ adapter: player, status: () => statusAt(0, 10_000), clockOffsetMs: () => 0, now: () => clock.now, onMediaError: vi.fn() });
    await c.play();
    const expected = clock.now - 10_000;
    expect(player.seeks.length).toBeGreaterThan(0);
    expect(player.seeks.length).toBeLessThanOrEqual(FINE_SYNC_ATTEMPTS);
    expect(Math.abs(player.positionMs() - expected)).toBeLessThanOrEqual(FINE_SYNC_TOLERANCE_MS);
  });

  it(`re-aligns a seekable player past SEEKABLE_DRIFT_TOLERANCE_MS (${SEEKABLE_DRIFT_TOLERANCE_MS} ms), by seeking not re-playing`, async () => {
    const clock = { now: 0 };
    const player = new LaggingSeekablePlayer(clock, 0, 0);
    const c = new PlayerController({ adapter: player, status: () => statusAt(0, 0), clockOffsetMs: () => 0, now: () => clock.now, onMediaError: vi.fn() });
    await c.play();
    clock.now = 1_000;
    await player.slip(200);
    expect(await c.realign()).toBe(false);
    await player.slip(200);
    const playSpy = vi.spyOn(player, 'play');
    expect(await c.realign()).toBe(true);
    expect(player.seeks.at(-1)).toBe(1_000);
    expect(playSpy).not.toHaveBeenCalled(); // aligned by a seek, not a fresh start of the stream
  });
});

describe('heal: the player realigns by itself after a drop, a stall or a return to the tab', () => {
  const make = (status: () => PlayerStatus | null, clock: { now: number }) => {
    const player = new LaggingSeekablePlayer(clock, 0, 0);
    const onCatchingUp = vi.fn();
    const onOffset = vi.fn();
    const c = new PlayerController({ adapter: player, status, clockOffsetMs: () => 0, now: () => clock.now, onMediaError: vi.fn(), onCatchingUp, onOffset });
    return { player, c, onCatchingUp, onOffset };
  };

  it('a player gone silent while the party runs (stream cut) plays again at the timeline position, reporting catching up', async () => {
    const clock = { now: 0 };
    const t = make(() => statusAt(0, 0), clock);
    await t.c.play();
    await MockPlayer.prototype.pause.call(t.player); // the stream stopped, not the fan
    clock.now = 12_000;
    const playSpy = vi.spyOn(t.player, 'play');
    expect(await t.c.heal('reconnected')).toBe(true);
    expect(playSpy).toHaveBeenCalledWith(track, 12_000);
    expect(t.onCatchingUp.mock.calls).toEqual([[true], [false]]);
    expect(t.c.measureOffsetMs()).toBe(0);
  });

  it('a track change missed while offline: the player switches to the timeline track', async () => {
    const clock = { now: 0 };
    let status = statusAt(0, 0);
    const t = make(() => status, clock);
    await t.c.play();
    status = { track: trackFixture('t2'), progress_ms: 0, is_paused: false, timestamp_ms: 5_000 };
    clock.now = 7_000;
    expect(await t.c.heal('visible')).toBe(true);
    expect(t.player.currentTrackId()).toBe('t2');
    expect(t.player.positionMs()).toBe(2_000);
  });

  it('the network back while a heal waits on its stream: the stream is retried at once, not after its own backoff', async () => {
    const clock = { now: 0 };
    const t = make(() => statusAt(0, 0), clock);
    await t.c.play();
    await MockPlayer.prototype.pause.call(t.player); // the stream stopped, not the fan
    // The restarted stream waits for data until it is retried with the network up.
    let online = false;
    let retried: () => void = () => undefined;
    const dataArrives = new Promise<void>((resolve) => (retried = resolve));
    const recover = vi.fn(() => {
      if (online) retried();
    });
    Object.assign(t.player, { recover });
    const play = t.player.play.bind(t.player);
    vi.spyOn(t.player, 'play').mockImplementationOnce(async (tr, pos) => {
      await dataArrives;
      await play(tr, pos);
    });
    const waiting = t.c.heal('stalled'); // still offline: its own retry finds no network
    await vi.waitFor(() => expect(t.player.play).toHaveBeenCalled());
    expect(recover).toHaveBeenCalledTimes(1);
    online = true;
    const back = t.c.heal('reconnected');
    expect(recover).toHaveBeenCalledTimes(2);
    expect(await back).toBe(true);
    expect(await waiting).toBe(true);
  });

  it("never overrides the fan's own pause", async () => {
    const clock = { now: 0 };
    const t = make(() => statusAt(0, 0), clock);
    await t.c.play();
    await t.c.pause();
    clock.now = 5_000;
    expect(await t.c.heal('reconnected')).toBe(false);
    expect(t.c.measureOffsetMs()).toBeNull();
  });

  it('an in-sync player is left alone by automatic heals; a tap resyncs it anyway', async () => {
    const clock = { now: 0 };
    const t = make(() => statusAt(0, 0), clock);
    await t.c.play();
    clock.now = 3_000;
    await t.player.slip(30);
    expect(t.c.measureOffsetMs()).toBe(30);
    expect(await t.c.heal('drift')).toBe(false);
    expect(await t.c.heal('fan')).toBe(true);
    expect(t.c.reportOffset()).toBe(0);
    expect(t.onOffset).toHaveBeenLastCalledWith(0);
  });
});
