import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fakeEnv, fakeMusicKit, fakeSpotifySdk, recordingFetch, tokenFixture } from '../test/fakes.ts';
import type { MediaElementLike } from './hlsPlayer.ts';
import { MOCK_FLAGS } from './mockPlayer.ts';
import { Playback, previewManifestUrl } from './playback.ts';

function setup(o: { token?: ReturnType<typeof tokenFixture> | null; mockPlayer?: boolean } = {}) {
  const f = fakeEnv();
  const spotify = fakeSpotifySdk();
  const mk = fakeMusicKit({ isAuthorized: true });
  const token = o.token === undefined ? tokenFixture() : o.token;
  const playback = new Playback({
    env: f.env,
    api: fakeApi(),
    token: () => token,
    playerName: 'Fanfare',
    mockPlayer: o.mockPlayer,
    musicKit: async () => mk,
    spotifySdk: async () => spotify.sdk,
  });
  return { ...f, playback, spotify, mk };
}

describe('playback', () => {
  it("campaign spec §5/§8: 'User account must be logged in to load player'", async () => {
    const { playback } = setup({ token: null });
    await expect(playback.loadPlayer('spotify')).rejects.toThrow('User account must be logged in to load player');
  });

  it("campaign spec §5: a player is built only for the two providers, otherwise 'not implemented' for that provider", async () => {
    const { playback } = setup();
    await expect(playback.loadPlayer('deezer')).rejects.toThrow('Player not implemented for deezer');
    await expect(playback.loadPlayer('apple')).resolves.toMatchObject({ kind: 'apple' });
  });

  it('campaign spec §4: the Spotify-style player is created once', async () => {
    const { playback, spotify } = setup();
    const [a, b] = await Promise.all([playback.loadPlayer('spotify'), playback.loadPlayer('spotify')]);
    expect(a).toBe(b);
    expect(spotify.created).toHaveLength(1);
  });

  it('campaign spec §4/§5: loadPlayer returns the player of the service asked for (Apple, then Spotify on one page)', async () => {
    const { playback, spotify, mk } = setup();
    const apple = await playback.loadPlayer('apple');
    expect(apple).toMatchObject({ kind: 'apple' });
    const spotifyPlayer = await playback.loadPlayer('spotify');
    expect(spotifyPlayer).toMatchObject({ kind: 'spotify' });
    expect(playback.current).toBe(spotifyPlayer);
    expect(spotify.created).toHaveLength(1);
    // The Apple player let go of MusicKit when Spotify took over.
    expect(mk.listenerCount()).toBe(0);
    await expect(playback.loadPlayer('spotify')).resolves.toBe(spotifyPlayer);
  });

  it('campaign spec §4: every change of the state is broadcast as a document event', async () => {
    const { playback, dispatched, spotify } = setup();
    await playback.loadPlayer('spotify');
    spotify.created[0]!.fire('ready', { device_id: 'd' });
    expect(dispatched.map((d) => d.type)).toEqual(['fanfare:playback-state', 'fanfare:playback-state']);
    expect(dispatched.map((d) => (d.detail as { isLoading: boolean }).isLoading)).toEqual([true, false]);
  });

  it('campaign spec §8: an initialization error is announced as a document event', async () => {
    const { playback, dispatched, spotify } = setup();
    await playback.loadPlayer('spotify');
    spotify.created[0]!.fire('initialization_error', { message: 'no EME' });
    expect(dispatched.at(-1)).toEqual({ type: 'fanfare:player-init-error', detail: { service: 'spotify', message: 'no EME' } });
  });

  it('campaign spec §4: mock mode comes from the global testing flag or a mock-player flag (no login needed)', async () => {
    const byTesting = setup({ token: null });
    byTesting.flags[MOCK_FLAGS.testing] = true;
    await expect(byTesting.playback.loadPlayer('spotify')).resolves.toMatchObject({ kind: 'mock' });
    const byMockFlag = setup({ token: null });
    byMockFlag.flags[MOCK_FLAGS.mockPlayer] = true;
    expect(byMockFlag.playback.isMock).toBe(true);
    expect(setup({ mockPlayer: true }).playback.isMock).toBe(true);
    expect(setup().playback.isMock).toBe(false);
  });

  it('campaign spec §7: the HLS preview manifest is addressed by track id with a callback parameter', () => {
    expect(previewManifestUrl('https://cms.example', 't 1', 'c1')).toBe('https://cms.example/api/previews/manifest.m3u8?id=t+1&callback=c1');
  });

  it('campaign spec §4: in mock mode every service gets the one mock player', async () => {
    const { playback } = setup({ token: null, mockPlayer: true });
    const first = await playback.loadPlayer('apple');
    expect(first.kind).toBe('mock');
    await expect(playback.loadPlayer('spotify')).resolves.toBe(first);
    expect(playback.current).toBe(first);
  });

  it("campaign spec §5/§8: a provider SDK that is not there fails the load; a later load builds again", async () => {
    const f = fakeEnv();
    let mk: ReturnType<typeof fakeMusicKit> | null = null;
    const playback = new Playback({ env: f.env, api: fakeApi(), token: () => tokenFixture(), playerName: 'Fanfare', musicKit: async () => mk });
    await expect(playback.loadPlayer('apple')).rejects.toThrow('MusicKit is not available');
    expect(playback.current).toBeNull();
    mk = fakeMusicKit();
    await expect(playback.loadPlayer('apple')).resolves.toMatchObject({ kind: 'apple' });
    await expect(playback.loadPlayer('spotify')).rejects.toThrow('The Spotify Web Playback SDK is not available');
    const bare = new Playback({ env: f.env, api: fakeApi(), token: () => tokenFixture(), playerName: 'Fanfare' });
    await expect(bare.loadPlayer('apple')).rejects.toThrow('MusicKit is not available');
  });

  it('campaign spec §4/§9: the Spotify player is named, gets the service token and calls the configured Web API', async () => {
    const f = fakeEnv();
    const http = recordingFetch();
    f.env.fetch = http.fetch;
    const spotify = fakeSpotifySdk();
    let token: ReturnType<typeof tokenFixture> | null = tokenFixture({ service_token: 'svc-9' });
    const playback = new Playback({ env: f.env, api: fakeApi(), token: () => token, playerName: 'Label Player', spotifySdk: async () => spotify.sdk, spotifyApiUrl: 'https://spotify.emulator/v1' });
    const player = await playback.loadPlayer('spotify');
    expect(spotify.created[0]!.options.name).toBe('Label Player');
    let given = '';
    spotify.created[0]!.options.getOAuthToken((t) => (given = t));
    expect(given).toBe('svc-9');
    await player.pause();
    expect(http.calls[0]!.url.href).toBe('https://spotify.emulator/v1/me/player/pause');
    expect(http.calls[0]!.headers.authorization).toBe('Bearer svc-9');
    token = null;
    spotify.created[0]!.options.getOAuthToken((t) => (given = t));
    expect(given).toBe('');
  });

  it("campaign spec §8: the Apple player's initialization error names Apple", async () => {
    const { playback, mk, dispatched } = setup();
    const player = await playback.loadPlayer('apple');
    mk.playError = new Error('unsuitable media provider object');
    await player.play();
    expect(dispatched.at(-1)).toEqual({ type: 'fanfare:player-init-error', detail: { service: 'apple', message: 'Playback unsupported' } });
  });

  it('campaign spec §4: a player that finishes building after the page moved on to another service is torn down', async () => {
    const f = fakeEnv();
    const mk = fakeMusicKit();
    let releaseMusicKit!: () => void;
    const musicKitReady = new Promise<void>((r) => (releaseMusicKit = r));
    const spotify = fakeSpotifySdk();
    const playback = new Playback({ env: f.env, api: fakeApi(), token: () => tokenFixture(), playerName: 'Fanfare', musicKit: async () => {
      await musicKitReady;
      return mk;
    }, spotifySdk: async () => spotify.sdk });
    const apple = playback.loadPlayer('apple');
    const spotifyPlayer = await playback.loadPlayer('spotify');
    releaseMusicKit();
    await expect(apple).resolves.toMatchObject({ kind: 'apple' });
    expect(mk.listenerCount()).toBe(0);
    expect(playback.current).toBe(spotifyPlayer);
    // Asking for Spotify again gives the same player.
    await expect(playback.loadPlayer('spotify')).resolves.toBe(spotifyPlayer);
  });

  it('campaign spec §4: a failed build that was abandoned leaves the newer build alone', async () => {
    const f = fakeEnv();
    let failMusicKit!: (e: Error) => void;
    const musicKitFails = new Promise<never>((_, reject) => (failMusicKit = reject));
    const spotify = fakeSpotifySdk();
    const playback = new Playback({ env: f.env, api: fakeApi(), token: () => tokenFixture(), playerName: 'Fanfare', musicKit: () => musicKitFails, spotifySdk: async () => spotify.sdk });
    const apple = playback.loadPlayer('apple');
    const building = playback.loadPlayer('spotify');
    failMusicKit(new Error('CDN down'));
    await expect(apple).rejects.toThrow('CDN down');
    const spotifyPlayer = await building;
    await expect(playback.loadPlayer('spotify')).resolves.toBe(spotifyPlayer);
    expect(spotify.created).toHaveLength(1);
  });

  it('campaign spec §7: the preview player is built once and plays the manifest of the API origin', async () => {
    const f = fakeEnv();
    const media = { src: '', currentTime: 0, duration: Number.NaN, volume: 1, paused: true, canPlayType: () => 'maybe', play: async () => undefined, pause: () => undefined, addEventListener: () => undefined, removeEventListener: () => undefined, removeAttribute: () => undefined, load: () => undefined } satisfies MediaElementLike;
    const playback = new Playback({ env: f.env, api: fakeApi(), token: () => null, playerName: 'Fanfare', createMedia: () => media });
    expect(playback.preview()).toBe(playback.preview());
    await playback.preview().play({ type: 'track', id: 't 1' });
    expect(media.src).toBe('https://cms.fanfare.example/api/previews/manifest.m3u8?id=t+1');
    const own = new Playback({ env: f.env, api: fakeApi(), token: () => null, playerName: 'Fanfare', createMedia: () => media, previewManifestUrl: (id) => `https://cdn.example/${id}.m3u8` });
    await own.preview().play({ type: 'track', id: 'x' });
    expect(media.src).toBe('https://cdn.example/x.m3u8');
  });

  it('teardown: destroy releases the players and the state subscribers; a later load builds a new player', async () => {
    const { playback, mk } = setup();
    const old = await playback.loadPlayer('apple');
    const preview = playback.preview();
    const seen: unknown[] = [];
    playback.store.subscribe((s) => seen.push(s));
    playback.destroy();
    expect(mk.listenerCount()).toBe(0);
    expect(playback.current).toBeNull();
    playback.store.update({ isPaused: false });
    expect(seen).toEqual([]);
    expect(playback.preview()).not.toBe(preview);
    const again = await playback.loadPlayer('apple');
    expect(again).not.toBe(old);
    expect(mk.listenerCount()).toBe(4);
    await playback.loadPlayer('spotify');
    expect(mk.listenerCount()).toBe(0);
  });

  it('campaign spec §7: without a callback label the preview manifest carries only the track id', () => {
    expect(previewManifestUrl('https://cms.example', 't1', null)).toBe('https://cms.example/api/previews/manifest.m3u8?id=t1');
  });

  it('campaign spec §3/§4: the mock player queues what the backend lookups answer', async () => {
    const f = fakeEnv();
    const api = fakeApi({ spotifyTrack: async (id: string) => ({ id, name: `Song ${id}`, duration_ms: 1000, artists: [{ name: 'Mara' }], album: { name: 'Paper', images: [] } }) });
    const playback = new Playback({ env: f.env, api, token: () => null, playerName: 'Fanfare', mockPlayer: true });
    const player = await playback.loadPlayer('spotify');
    await player.play({ type: 'track', id: 'm1' });
    expect(playback.store.state.currentTrack).toMatchObject({ id: 'm1', name: 'Song m1', artists: ['Mara'] });
    playback.destroy();
  });
});

describe('playback in a browser', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('campaign spec §7: without a media factory the preview plays through an Audio element', async () => {
    const created: { src: string }[] = [];
    vi.stubGlobal('Audio', class {
      src = '';
      currentTime = 0;
      duration = Number.NaN;
      volume = 1;
      paused = true;
      constructor() {
        created.push(this);
      }
      canPlayType() {
        return 'maybe';
      }
      async play() {}
      pause() {}
      addEventListener() {}
      removeEventListener() {}
      removeAttribute() {}
      load() {}
    });
    const playback = new Playback({ env: fakeEnv().env, api: fakeApi(), token: () => null, playerName: 'Fanfare' });
    await playback.preview().play({ type: 'track', id: 't1' });
    expect(created).toHaveLength(1);
    expect(created[0]!.src).toBe('https://cms.fanfare.example/api/previews/manifest.m3u8?id=t1');
  });
});
