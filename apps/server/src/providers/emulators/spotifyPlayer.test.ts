/**
 * The Spotify emulator's player API (campaign spec §7): state per fan and device, over
 * HTTP; and the campaign SDK's Spotify-style player driving it end to end, offline.
 */
import { PlaybackStore, SpotifyPlayer, SpotifyPlayerApi } from '@fanfare/campaign-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signPayload } from '../../platform/tokens.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { loadDemoCatalog } from '../catalog/catalog.ts';
import { EMULATOR_SIGNING_KEY } from './demoFans.ts';
import { EmulatedPlayers } from './spotifyPlayerState.ts';

const Device = z.looseObject({ id: z.string().nullable(), is_active: z.boolean(), volume_percent: z.number().nullable() });
const PlayerState = z.looseObject({
  is_playing: z.boolean(),
  progress_ms: z.number().nullable(),
  device: Device,
  item: z.looseObject({ id: z.string() }).nullable(),
});
const SpotifyError = z.object({ error: z.looseObject({ status: z.number(), message: z.string().optional(), reason: z.string().optional() }) });

const tokenFor = (fan: string) => signPayload({ kind: 'access', fan, exp: Date.now() + 3_600_000 }, EMULATOR_SIGNING_KEY);

describe('emulated Spotify player state (unit, fake clock)', () => {
  const catalog = loadDemoCatalog();
  const album = catalog.albums.find((a) => a.track_keys.length >= 2)!;
  const tracks = catalog.albumTracks(album);

  it('progress runs on the clock while playing, stops on pause, and moves through track ends by the repeat mode', () => {
    let now = 1_000_000;
    const players = new EmulatedPlayers(catalog, () => now);
    players.play('fan', 'emulator-phone', { context_uri: `spotify:album:${album.spotify_id}` });
    now += 10_000;
    expect(players.state('fan')).toMatchObject({ is_playing: true, progress_ms: 10_000, device: { id: 'emulator-phone', is_active: true } });
    players.pause('fan');
    now += 50_000;
    expect(players.state('fan')!.progress_ms).toBe(10_000);
    players.play('fan', undefined, null);
    now += tracks[0]!.duration_ms; // past the end of the first track
    expect(players.state('fan')!.track!.key).toBe(tracks[1]!.key);
    players.repeat('fan', 'track');
    const before = players.state('fan')!.track!.key;
    now += tracks[1]!.duration_ms * 3;
    expect(players.state('fan')!.track!.key).toBe(before);
  });

  it('fans do not share players; the number of fans kept is bounded', () => {
    const players = new EmulatedPlayers(catalog, () => 0);
    players.play('a', 'emulator-phone', { uris: [`spotify:track:${tracks[0]!.spotify_id}`] });
    expect(players.state('b')).toBeNull();
    expect(players.state('a')!.is_playing).toBe(true);
  });
});

describe('Spotify emulator player API over HTTP', () => {
  let ts: TestServer;
  let api: string;
  beforeAll(async () => {
    ts = await startTestServer();
    api = `${ts.partyUrl}/emulator/spotify/api/v1`;
  });
  afterAll(() => ts?.close());

  /**
   * One call to the emulated Spotify Web API. It is Spotify's API, not one of our route tables, so
   * no typed client exists: raw fetch, body `unknown` until a schema below narrows it.
   */
  const call = async (fan: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokenFor(fan)}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  /** The fan's playback state (`GET /me/player`). */
  const stateOf = async (fan: string) => PlayerState.parse((await call(fan, 'GET', '/me/player')).body);
  /** The fan's devices (`GET /me/player/devices`). */
  const devicesOf = async (fan: string) => z.object({ devices: z.array(Device) }).parse((await call(fan, 'GET', '/me/player/devices')).body).devices;
  /** The Spotify-style `error` of a refused command. */
  const errorOf = async (fan: string, method: string, path: string, body?: unknown) => SpotifyError.parse((await call(fan, method, path, body)).body).error;

  it('campaign spec §7: devices (with restricted and id-less ones), play on a device, state per fan and device', async () => {
    const devices = await devicesOf('sam');
    expect(devices.map((d) => d.id)).toEqual(['emulator-web-player', 'emulator-phone', 'emulator-speaker', 'emulator-car', null]);
    expect((await call('sam', 'GET', '/me/player')).status).toBe(204);
    const album = ts.server.ctx.catalog.albums[0]!;
    expect((await call('sam', 'PUT', '/me/player/play?device_id=emulator-phone', { context_uri: `spotify:album:${album.spotify_id}`, offset: { position: 1 }, position_ms: 5000 })).status).toBe(204);
    const state = await stateOf('sam');
    expect(state).toMatchObject({ is_playing: true, device: { id: 'emulator-phone', is_active: true }, context: { uri: `spotify:album:${album.spotify_id}` } });
    expect(state.item?.id).toBe(ts.server.ctx.catalog.albumTracks(album)[1]!.spotify_id);
    expect(state.progress_ms).toBeGreaterThanOrEqual(5000);
    expect((await call('demo-fan', 'GET', '/me/player')).status).toBe(204); // another fan's player is untouched
  });

  it('campaign spec §7: pause, seek, next, previous, volume, shuffle, repeat and transfer change the state', async () => {
    const [t0, t1] = ts.server.ctx.catalog.tracks;
    expect((await call('demo-fan', 'PUT', '/me/player/play?device_id=emulator-web-player', { uris: [`spotify:track:${t0!.spotify_id}`, `spotify:track:${t1!.spotify_id}`] })).status).toBe(204);
    expect((await call('demo-fan', 'PUT', '/me/player/pause')).status).toBe(204);
    expect((await call('demo-fan', 'PUT', '/me/player/seek?position_ms=42000')).status).toBe(204);
    let s = await stateOf('demo-fan');
    expect(s).toMatchObject({ is_playing: false, progress_ms: 42_000 });
    await call('demo-fan', 'POST', '/me/player/next');
    expect((await stateOf('demo-fan')).item?.id).toBe(t1!.spotify_id);
    await call('demo-fan', 'POST', '/me/player/previous');
    s = await stateOf('demo-fan');
    expect(s.item?.id).toBe(t0!.spotify_id);
    expect(s.is_playing).toBe(true);
    await call('demo-fan', 'PUT', '/me/player/volume?volume_percent=35');
    await call('demo-fan', 'PUT', '/me/player/shuffle?state=true');
    await call('demo-fan', 'PUT', '/me/player/repeat?state=context');
    s = await stateOf('demo-fan');
    expect(s).toMatchObject({ shuffle_state: true, repeat_state: 'context', device: { id: 'emulator-web-player', volume_percent: 35 } });
    expect((await call('demo-fan', 'PUT', '/me/player', { device_ids: ['emulator-phone'], play: false })).status).toBe(204);
    s = await stateOf('demo-fan');
    expect(s.device.id).toBe('emulator-phone');
    const devices = await devicesOf('demo-fan');
    expect(devices.filter((d) => d.is_active).map((d) => d.id)).toEqual(['emulator-phone']);
  });

  it('bad commands get Spotify-style errors, never a 500', async () => {
    expect(await errorOf('host-hanna', 'PUT', '/me/player/pause')).toMatchObject({ status: 404, reason: 'NO_ACTIVE_DEVICE' });
    expect(await errorOf('host-hanna', 'PUT', '/me/player/play?device_id=emulator-car', { uris: [] })).toMatchObject({ status: 403 });
    expect((await call('host-hanna', 'PUT', '/me/player/volume?volume_percent=101')).status).toBe(400);
    expect((await call('host-hanna', 'PUT', '/me/player/repeat?state=forever')).status).toBe(400);
    expect((await call('host-hanna', 'PUT', '/me/player/play?device_id=emulator-phone', { uris: ['spotify:track:doesnotexist'] })).status).toBe(400);
    expect((await call('host-hanna', 'PUT', '/me/player', { device_ids: ['a', 'b'] })).status).toBe(400);
    await call('host-hanna', 'PUT', '/me/player/play?device_id=emulator-speaker', { uris: [`spotify:track:${ts.server.ctx.catalog.tracks[0]!.spotify_id}`] });
    expect(await errorOf('host-hanna', 'PUT', '/me/player/volume?volume_percent=20')).toMatchObject({ status: 403, reason: 'VOLUME_CONTROL_DISALLOW' });
    expect(await errorOf('lena', 'PUT', '/me/player/pause')).toMatchObject({ status: 403, reason: 'PREMIUM_REQUIRED' });
    const anonymous = await fetch(`${api}/me/player/devices`);
    expect(anonymous.status).toBe(401);
  });

  it('campaign spec §4/§7: the SDK Spotify-style player drives the emulator end to end (device from ready, volume floor(100 × fraction), transfer)', async () => {
    const fan = 'sdk-fan';
    const sdkPlayers: { fire: (e: string, p: unknown) => void }[] = [];
    const sdk = {
      Player: class {
        private readonly handlers = new Map<string, (p: never) => void>();
        constructor() {
          sdkPlayers.push({ fire: (e, p) => this.handlers.get(e)?.(p as never) });
        }
        async connect() {
          return true;
        }
        disconnect() {}
        addListener(e: string, fn: (p: never) => void) {
          this.handlers.set(e, fn);
          return true;
        }
        removeListener(e: string) {
          return this.handlers.delete(e);
        }
      },
    };
    const store = new PlaybackStore(() => undefined);
    const token = tokenFor(fan);
    const player = new SpotifyPlayer(store, {
      sdk,
      api: new SpotifyPlayerApi(fetch, () => token, api),
      serviceToken: () => token,
      name: 'Fanfare',
      timers: { setTimeout, clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout), setInterval, clearInterval: (h) => clearInterval(h as NodeJS.Timeout) },
      logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
      onInitError: () => undefined,
    });
    sdkPlayers[0]!.fire('ready', { device_id: 'sdk-device-1' });
    const playlist = ts.server.ctx.catalog.playlists[0]!;
    await player.play({ type: 'playlist', id: playlist.spotify_id, positionMs: 3000 });
    let s = await stateOf(fan);
    expect(s).toMatchObject({ is_playing: true, device: { id: 'sdk-device-1', name: 'Web Playback SDK' }, context: { uri: `spotify:playlist:${playlist.spotify_id}` } });
    await player.setVolume(0.555);
    expect((await stateOf(fan)).device.volume_percent).toBe(55);
    await player.setShuffle(true);
    await player.setRepeat('track');
    await player.next();
    await player.pause();
    s = await stateOf(fan);
    expect(s).toMatchObject({ is_playing: false, shuffle_state: true, repeat_state: 'track' });
    expect(s.item?.id).toBe(ts.server.ctx.catalog.playlistTracks(playlist)[1]!.spotify_id);
    const devices = await player.devices();
    expect(devices.map((d) => d.id)).toEqual(['emulator-web-player', 'emulator-phone', 'emulator-speaker', 'sdk-device-1']); // restricted car and id-less TV ignored
    expect(devices.find((d) => d.id === 'emulator-speaker')!.volume).toBe(1); // none reported
    await player.transfer('emulator-phone', true);
    s = await stateOf(fan);
    expect(s).toMatchObject({ is_playing: true, device: { id: 'emulator-phone' } });
    player.destroy();
  });
  it('like Spotify\'s Web API, the emulator API answers CORS for any origin with bearer tokens (preflight included), and only on its API paths', async () => {
    const origin = ts.cmsUrl;
    const preflight = await fetch(`${api}/me/player/play?device_id=emulator-phone`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204); // answered before the token check
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();

    const res = await fetch(`${api}/me/player/devices`, { headers: { origin, authorization: `Bearer ${tokenFor('cors-fan')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // A refused token is readable by the page too, so it can log the fan in again.
    const refused = await fetch(`${api}/me/player/devices`, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');

    // The Accounts service (token endpoint, consent page) stays same-origin, as Spotify's does for code exchange.
    const token = await fetch(`${ts.partyUrl}/emulator/spotify/accounts/api/token`, { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=nope' });
    expect(token.headers.get('access-control-allow-origin')).toBeNull();
    const accountsPreflight = await fetch(`${ts.partyUrl}/emulator/spotify/accounts/api/token`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
    expect(accountsPreflight.headers.get('access-control-allow-origin')).toBeNull();
    // The party API itself answers only the configured origins.
    const partyPreflight = await fetch(`${ts.partyUrl}/api/parties/demo`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'GET' } });
    expect(partyPreflight.status).toBe(204);
    expect(partyPreflight.headers.get('access-control-allow-origin')).toBe(origin);
    const stranger = await fetch(`${ts.partyUrl}/api/parties/demo`, { headers: { origin: 'https://evil.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});
