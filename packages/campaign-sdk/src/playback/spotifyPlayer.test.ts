import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeEnv, fakeSpotifySdk, recordingFetch, spotifyState } from '../test/fakes.ts';
import { SpotifyPlayerApi, playBody, toDevices } from './spotifyApi.ts';
import { SpotifyPlayer } from './spotifyPlayer.ts';
import { PlaybackStore } from './state.ts';

const API = 'https://api.spotify.test/v1';

function setup(answer?: Parameters<typeof recordingFetch>[0]) {
  const f = fakeEnv();
  const { sdk, created } = fakeSpotifySdk();
  const http = recordingFetch(answer);
  const initErrors: string[] = [];
  const store = new PlaybackStore(() => undefined);
  const player = new SpotifyPlayer(store, {
    sdk,
    api: new SpotifyPlayerApi(http.fetch, () => 'svc-token', API),
    serviceToken: () => 'svc-token',
    name: 'Fanfare',
    timers: f.env.timers,
    logger: f.env.logger,
    onInitError: (m) => initErrors.push(m),
  });
  return { ...f, store, player, sdk: created[0]!, created, http, initErrors };
}

describe('Spotify-style player', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('campaign spec §9: the player is named with the product short name and gets the service token', () => {
    const { sdk } = setup();
    expect(sdk.options.name).toBe('Fanfare');
    expect(sdk.options.volume).toBe(1);
    let token = '';
    sdk.options.getOAuthToken((t) => (token = t));
    expect(token).toBe('svc-token');
    expect(sdk.connected).toBe(true);
  });

  it('campaign spec §4: loading until ready; on ready the device id is recorded and used when none is chosen', async () => {
    const { store, sdk, player, http } = setup();
    expect(store.state.isLoading).toBe(true);
    sdk.fire('ready', { device_id: 'web-dev' });
    expect(store.state.isLoading).toBe(false);
    expect(player.deviceId).toBe('web-dev');
    await player.pause();
    expect(http.calls[0]!.url.searchParams.get('device_id')).toBe('web-dev');
  });

  it('campaign spec §4/§8: not ready or an authentication, account or playback error ends the loading wait', () => {
    for (const event of ['not_ready', 'authentication_error', 'account_error', 'playback_error']) {
      const { store, sdk, initErrors } = setup();
      sdk.fire(event, { message: 'x' });
      expect(store.state.isLoading).toBe(false);
      expect(initErrors).toEqual([]);
    }
  });

  it('campaign spec §8: initialization errors are announced through the initialization error event', () => {
    const { store, sdk, initErrors, logs } = setup();
    sdk.fire('initialization_error', { message: 'Browser not supported' });
    expect(store.state.isLoading).toBe(false);
    expect(initErrors).toEqual(['Browser not supported']);
    expect(logs[0]!.level).toBe('error');
  });

  it('campaign spec §4/§9: progress ticks every 1000 ms while playing, capped at the track length', () => {
    const { store, sdk } = setup();
    sdk.fire('player_state_changed', spotifyState({ position: 177_500, durationMs: 180_000 }));
    expect(store.state).toMatchObject({ isPaused: false, progressMs: 177_500 });
    vi.advanceTimersByTime(1000);
    expect(store.state.progressMs).toBe(178_500);
    vi.advanceTimersByTime(1000);
    expect(store.state.progressMs).toBe(179_500);
    vi.advanceTimersByTime(1000);
    expect(store.state.progressMs).toBe(180_000);
    vi.advanceTimersByTime(5000);
    expect(store.state.progressMs).toBe(180_000);
    sdk.fire('player_state_changed', spotifyState({ paused: true, position: 10_000 }));
    vi.advanceTimersByTime(5000);
    expect(store.state.progressMs).toBe(10_000);
  });

  it('campaign spec §4: after a device transfer the first paused state is forced to playing (latest transfer only)', async () => {
    const { store, sdk, player } = setup();
    await player.transfer('phone');
    await player.transfer('speaker');
    sdk.fire('player_state_changed', spotifyState({ paused: true }));
    expect(store.state.isPaused).toBe(false);
    sdk.fire('player_state_changed', spotifyState({ paused: true }));
    expect(store.state.isPaused).toBe(true);
    expect(player.deviceId).toBe('speaker');
  });

  it('campaign spec §4: the forced play is spent by the first state after a transfer, even one already playing', async () => {
    const { store, sdk, player } = setup();
    await player.transfer('phone');
    sdk.fire('player_state_changed', spotifyState({ paused: false }));
    expect(store.state.isPaused).toBe(false);
    // The fan's next real pause shows as paused.
    sdk.fire('player_state_changed', spotifyState({ paused: true }));
    expect(store.state.isPaused).toBe(true);
  });

  it('campaign spec §7: play accepts playlist, album, track or tracks with a start position and device', async () => {
    const { player, http } = setup();
    await player.play({ type: 'playlist', id: 'pl1', offset: 2, positionMs: 5000, deviceId: 'dev-9' });
    expect(http.calls[0]).toMatchObject({ method: 'PUT', body: { context_uri: 'spotify:playlist:pl1', offset: { position: 2 }, position_ms: 5000 } });
    expect(`${http.calls[0]!.url.origin}${http.calls[0]!.url.pathname}`).toBe(`${API}/me/player/play`);
    expect(http.calls[0]!.url.searchParams.get('device_id')).toBe('dev-9');
    expect(http.calls[0]!.headers.authorization).toBe('Bearer svc-token');
    expect(playBody({ type: 'album', id: 'al1' })).toEqual({ context_uri: 'spotify:album:al1', offset: { position: 0 } });
    expect(playBody({ type: 'track', id: 't1' })).toEqual({ uris: ['spotify:track:t1'] });
    expect(playBody({ type: 'tracks', ids: ['a', 'b'], offset: 1 })).toEqual({ uris: ['spotify:track:a', 'spotify:track:b'], offset: { position: 1 } });
  });

  it('campaign spec §7/§9: pause, next, previous, volume floor(100 × fraction), shuffle, repeat, transfer', async () => {
    const { player, http } = setup();
    await player.pause();
    await player.next();
    await player.previous();
    await player.setVolume(0.555);
    await player.setShuffle(true);
    await player.setRepeat('context');
    await player.seek(42_000);
    await player.transfer('dev-2', true);
    expect(http.calls.map((c) => `${c.method} ${c.url.pathname.replace('/v1', '')}${[...c.url.searchParams].filter(([k]) => k !== 'device_id').map(([k, v]) => `?${k}=${v}`).join('')}`)).toEqual([
      'PUT /me/player/pause',
      'POST /me/player/next',
      'POST /me/player/previous',
      'PUT /me/player/volume?volume_percent=55',
      'PUT /me/player/shuffle?state=true',
      'PUT /me/player/repeat?state=context',
      'PUT /me/player/seek?position_ms=42000',
      'PUT /me/player',
    ]);
    expect(http.calls.at(-1)!.body).toEqual({ device_ids: ['dev-2'], play: true });
  });

  it('campaign spec §7/§9: the in-page client looks tracks up with GET /tracks, 50 ids a call, with the fan token', async () => {
    const ids = Array.from({ length: 52 }, (_, i) => `t${i}`);
    const { http } = setup((url) => {
      const asked = url.searchParams.get('ids')!.split(',');
      const tracks = asked.map((id) => (id === 't1' ? null : { id, name: `Song ${id}`, duration_ms: 1000, artists: [{ name: 'Mara' }], album: { name: 'Paper', images: [{ url: 'https://img/1.jpg' }] } }));
      return Response.json({ tracks });
    });
    const api = new SpotifyPlayerApi(http.fetch, () => 'svc-token', API);
    const tracks = await api.tracks(ids);
    expect(http.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual(['GET /v1/tracks', 'GET /v1/tracks']);
    expect(http.calls.map((c) => c.url.searchParams.get('ids')!.split(',').length)).toEqual([50, 2]);
    expect(http.calls[0]!.headers.authorization).toBe('Bearer svc-token');
    expect(tracks).toHaveLength(51);
    expect(tracks[0]).toEqual({ id: 't0', name: 'Song t0', artists: ['Mara'], album: 'Paper', durationMs: 1000, image: 'https://img/1.jpg' });
    expect(tracks[1]!.id).toBe('t2');
  });

  it('campaign spec §3: devices: restricted or id-less devices ignored, volume 1 when none is reported', async () => {
    const wire = [
      { id: 'a', is_active: true, is_restricted: false, name: 'Laptop', type: 'Computer', volume_percent: 40, supports_volume: true },
      { id: 'b', is_active: false, is_restricted: true, name: 'Car', type: 'Automobile', volume_percent: 10 },
      { id: null, is_active: false, is_restricted: false, name: 'Ghost', type: 'Speaker', volume_percent: 10 },
      { id: 'c', is_active: false, is_restricted: false, name: 'TV', type: 'TV', volume_percent: null, supports_volume: false },
    ];
    expect(toDevices(wire)).toEqual([
      { id: 'a', isActive: true, name: 'Laptop', type: 'Computer', volume: 0.4, supportsVolume: true },
      { id: 'c', isActive: false, name: 'TV', type: 'TV', volume: 1, supportsVolume: false },
    ]);
    const { player } = setup(() => Response.json({ devices: wire }));
    await expect(player.devices()).resolves.toHaveLength(2);
  });

  it('teardown: destroy stops the tick and disconnects the SDK player', () => {
    const { sdk, player } = setup();
    sdk.fire('player_state_changed', spotifyState());
    expect(vi.getTimerCount()).toBe(1);
    player.destroy();
    expect(vi.getTimerCount()).toBe(0);
    expect(sdk.disconnected).toBe(true);
  });
});
