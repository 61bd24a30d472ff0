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

  it('campaign spec §4/§8: each loading-ending event is logged as a warning with its message (also without a payload)', () => {
    const cases = [
      ['not_ready', 'Spotify player not ready'],
      ['authentication_error', 'Spotify player authentication error'],
      ['account_error', 'Spotify player account error'],
      ['playback_error', 'Spotify player playback error'],
    ] as const;
    for (const [event, text] of cases) {
      const { sdk, logs } = setup();
      sdk.fire(event, { message: 'why' });
      expect(logs).toEqual([{ level: 'warn', args: [text, 'why'] }]);
    }
    const { sdk, logs, store } = setup();
    expect(() => sdk.fire('not_ready', undefined)).not.toThrow();
    expect(logs).toEqual([{ level: 'warn', args: ['Spotify player not ready', undefined] }]);
    expect(store.state.isLoading).toBe(false);
    const init = setup();
    init.sdk.fire('initialization_error', { message: 'no EME' });
    expect(init.logs).toEqual([{ level: 'error', args: ['Spotify player initialization error', 'no EME'] }]);
  });

  it('campaign spec §4: a device chosen before the SDK is ready stays chosen; the in-page device id is still recorded', async () => {
    const { sdk, player, http } = setup();
    expect(player.deviceId).toBeNull();
    expect(player.sdkDeviceId).toBeNull();
    await player.transfer('phone');
    sdk.fire('ready', { device_id: 'web-dev' });
    expect(player.deviceId).toBe('phone');
    expect(player.sdkDeviceId).toBe('web-dev');
    await player.next();
    expect(http.calls.at(-1)!.url.searchParams.get('device_id')).toBe('phone');
  });

  it('campaign spec §4: a state change fills the model: track, shuffle, repeat mode, loading and the event itself', () => {
    const { store, sdk } = setup();
    const modes: Array<[0 | 1 | 2, string]> = [[0, 'off'], [1, 'context'], [2, 'track']];
    for (const [repeat_mode, mode] of modes) {
      sdk.fire('player_state_changed', spotifyState({ repeat_mode, shuffle: repeat_mode === 1 }));
      expect(store.state.repeatMode).toBe(mode);
      expect(store.state.isShuffle).toBe(repeat_mode === 1);
    }
    sdk.fire('player_state_changed', spotifyState({ repeat_mode: 1 }));
    sdk.fire('player_state_changed', spotifyState({ repeat_mode: 7 as 0 }));
    expect(store.state.repeatMode).toBe('off');
    const loading = spotifyState({ loading: true });
    sdk.fire('player_state_changed', loading);
    expect(store.state).toMatchObject({ isLoading: true, originalEvent: loading });
    sdk.fire('player_state_changed', spotifyState());
    expect(store.state.isLoading).toBe(false);
    expect(store.state.currentTrack).toEqual({ id: 't1', name: 'Harbour Lights', artists: ['Neon Harbour'], album: 'Lights', durationMs: 180_000, image: 'https://img/1.png' });
    // A track without an id (a local file) takes the last part of its URI; one without art has no image.
    const noId = spotifyState();
    noId.track_window.current_track = { ...noId.track_window.current_track!, id: null, uri: 'spotify:local:abc', album: { name: 'L', images: [] } };
    sdk.fire('player_state_changed', noId);
    expect(store.state.currentTrack).toMatchObject({ id: 'abc', image: null });
    sdk.fire('player_state_changed', { ...spotifyState(), track_window: { current_track: null } });
    expect(store.state.currentTrack).toBeNull();
  });

  it('campaign spec §4: an empty state change (playback moved elsewhere) leaves the model as it was', () => {
    const { store, sdk } = setup();
    sdk.fire('player_state_changed', spotifyState({ position: 5000 }));
    const before = store.state;
    expect(() => sdk.fire('player_state_changed', null)).not.toThrow();
    expect(store.state).toBe(before);
  });

  it('campaign spec §9: the position of every state change is taken as is, even under a second apart', () => {
    const { store, sdk } = setup();
    sdk.fire('player_state_changed', spotifyState({ paused: true, position: 10_000 }));
    sdk.fire('player_state_changed', spotifyState({ paused: true, position: 10_400 }));
    expect(store.state.progressMs).toBe(10_400);
  });

  it('campaign spec §9: without a current track the tick is not capped; one tick runs however many states arrive', () => {
    const { store, sdk } = setup();
    sdk.fire('player_state_changed', { ...spotifyState({ position: 1000 }), track_window: { current_track: null } });
    sdk.fire('player_state_changed', { ...spotifyState({ position: 1000 }), track_window: { current_track: null } });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(3000);
    expect(store.state.progressMs).toBe(4000);
  });

  it('campaign spec §7: resume without a request; before the SDK is ready no device is named', async () => {
    const { player, http } = setup();
    await player.play();
    expect(http.calls).toEqual([expect.objectContaining({ method: 'PUT', body: undefined })]);
    expect(http.calls[0]!.url.pathname).toBe('/v1/me/player/play');
    expect(http.calls[0]!.url.searchParams.has('device_id')).toBe(false);
  });

  it('campaign spec §4/§7: seek, volume, shuffle and repeat update the model once the provider accepted them; transfer plays by default', async () => {
    const { player, http, store } = setup();
    await player.seek(42_000);
    expect(store.state.progressMs).toBe(42_000);
    await player.setVolume(0.3);
    expect(store.state.volume).toBe(0.3);
    await player.setShuffle(true);
    expect(store.state.isShuffle).toBe(true);
    await player.setRepeat('track');
    expect(store.state.repeatMode).toBe('track');
    await player.transfer('tv');
    expect(http.calls.at(-1)!.body).toEqual({ device_ids: ['tv'], play: true });
    await player.transfer('radio', false);
    expect(http.calls.at(-1)!.body).toEqual({ device_ids: ['radio'], play: false });
    const refused = setup(() => new Response(null, { status: 403 }));
    await expect(refused.player.setVolume(0.5)).rejects.toThrow('Spotify PUT /me/player/volume failed with status 403');
    expect(refused.store.state.volume).toBe(1);
  });

  it('teardown: destroy removes every SDK listener', () => {
    const { sdk, player, store, logs, initErrors } = setup();
    player.destroy();
    for (const event of ['not_ready', 'initialization_error', 'authentication_error', 'account_error', 'playback_error']) sdk.fire(event, { message: 'late' });
    expect(logs).toEqual([]);
    expect(initErrors).toEqual([]);
    sdk.fire('ready', { device_id: 'late' });
    sdk.fire('player_state_changed', spotifyState());
    expect(player.deviceId).toBeNull();
    expect(store.state.isLoading).toBe(true);
    expect(store.state.currentTrack).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('campaign spec §4: a first paused state without a transfer shows paused; a seek shows at once, even a short one', async () => {
    const { store, sdk, player } = setup();
    sdk.fire('player_state_changed', spotifyState({ paused: true, position: 0 }));
    expect(store.state.isPaused).toBe(true);
    await player.seek(400);
    expect(store.state.progressMs).toBe(400);
  });

  it('campaign spec §4/§7: resume and previous go to the chosen device', async () => {
    const { sdk, player, http } = setup();
    sdk.fire('ready', { device_id: 'web-dev' });
    await player.play();
    await player.previous();
    expect(http.calls.map((c) => c.url.searchParams.get('device_id'))).toEqual(['web-dev', 'web-dev']);
  });
});

describe('Spotify Web API calls', () => {
  it('campaign spec §7: the default address is the Spotify Web API; a call without parameters has no query', async () => {
    const http = recordingFetch();
    await new SpotifyPlayerApi(http.fetch, () => 'tok').pause();
    expect(String(http.calls[0]!.url)).toBe('https://api.spotify.com/v1/me/player/pause');
    expect(http.calls[0]!.headers).toEqual({ authorization: 'Bearer tok' });
  });

  it('campaign spec §7: only a call with a body sends JSON', async () => {
    const http = recordingFetch();
    const api = new SpotifyPlayerApi(http.fetch, () => 'tok', API);
    await api.transfer('d1', true);
    expect(http.calls[0]!.headers).toEqual({ authorization: 'Bearer tok', 'content-type': 'application/json' });
    await api.play({ type: 'track', id: 't1' }, 'd1');
    expect(http.calls[1]!.headers['content-type']).toBe('application/json');
    expect(http.calls[1]!.body).toEqual({ uris: ['spotify:track:t1'] });
  });

  it('campaign spec §7: a refused call throws with its method, path and status', async () => {
    const http = recordingFetch(() => new Response(null, { status: 401 }));
    const api = new SpotifyPlayerApi(http.fetch, () => 'tok', API);
    await expect(api.next('d')).rejects.toThrow('Spotify POST /me/player/next failed with status 401');
    await expect(api.devices()).rejects.toThrow('Spotify GET /me/player/devices failed with status 401');
  });

  it('campaign spec §7/§9: positions are whole, non-negative milliseconds', async () => {
    const http = recordingFetch();
    const api = new SpotifyPlayerApi(http.fetch, () => 'tok', API);
    await api.seek(1500.6);
    await api.seek(-20);
    expect(http.calls.map((c) => c.url.searchParams.get('position_ms'))).toEqual(['1501', '0']);
    expect(playBody({ type: 'track', id: 't1', positionMs: 0 })).toEqual({ uris: ['spotify:track:t1'], position_ms: 0 });
    expect(playBody({ type: 'track', id: 't1', positionMs: 2000.4 })).toEqual({ uris: ['spotify:track:t1'], position_ms: 2000 });
    expect(playBody({ type: 'tracks', ids: ['a'], positionMs: -5 })).toEqual({ uris: ['spotify:track:a'], offset: { position: 0 }, position_ms: 0 });
    expect(playBody({ type: 'playlist', id: 'p', offset: 3, positionMs: 10 })).toEqual({ context_uri: 'spotify:playlist:p', offset: { position: 3 }, position_ms: 10 });
  });

  it('campaign spec §7: ids already given as Spotify URIs pass through', () => {
    expect(playBody({ type: 'track', id: 'spotify:track:x' })).toEqual({ uris: ['spotify:track:x'] });
    expect(playBody({ type: 'album', id: 'spotify:album:y' })).toEqual({ context_uri: 'spotify:album:y', offset: { position: 0 } });
    expect(playBody({ type: 'tracks', ids: ['spotify:track:a', 'b'] })).toEqual({ uris: ['spotify:track:a', 'spotify:track:b'], offset: { position: 0 } });
  });

  it('campaign spec §3: a device without a volume flag supports volume; volume 0 stays 0; an answer without devices is none', async () => {
    expect(toDevices([{ id: 'x', is_active: false, is_restricted: false, name: 'Phone', type: 'Smartphone', volume_percent: 0 }])).toEqual([
      { id: 'x', isActive: false, name: 'Phone', type: 'Smartphone', volume: 0, supportsVolume: true },
    ]);
    const http = recordingFetch(() => Response.json({}));
    const api = new SpotifyPlayerApi(http.fetch, () => 'tok', API);
    await expect(api.devices()).resolves.toEqual([]);
    await expect(api.tracks(['a'])).resolves.toEqual([]);
  });

  it('campaign spec §7/§9: no ids, no call; exactly 50 ids, one call; a track without album has empty album fields', async () => {
    const http = recordingFetch((url) => Response.json({ tracks: url.searchParams.get('ids')!.split(',').map((id) => ({ id, name: id, duration_ms: 1, artists: [] })) }));
    const api = new SpotifyPlayerApi(http.fetch, () => 'tok', API);
    await expect(api.tracks([])).resolves.toEqual([]);
    expect(http.calls).toHaveLength(0);
    const ids = Array.from({ length: 50 }, (_, i) => `t${i}`);
    const tracks = await api.tracks(ids);
    expect(http.calls).toHaveLength(1);
    expect(tracks).toHaveLength(50);
    expect(tracks[0]).toEqual({ id: 't0', name: 't0', artists: [], album: '', durationMs: 1, image: null });
  });

  it('campaign spec §3: a track with an album without images, or without its list of images, has no image', async () => {
    const http = recordingFetch(() => Response.json({ tracks: [
      { id: 'a', name: 'A', duration_ms: 1, artists: [], album: { name: 'Al', images: [] } },
      { id: 'b', name: 'B', duration_ms: 1, artists: [], album: { name: 'Bl' } },
    ] }));
    const tracks = await new SpotifyPlayerApi(http.fetch, () => 'tok', API).tracks(['a', 'b']);
    expect(tracks.map((t) => [t.album, t.image])).toEqual([['Al', null], ['Bl', null]]);
  });
});
