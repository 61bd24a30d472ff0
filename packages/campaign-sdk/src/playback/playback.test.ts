import { describe, expect, it } from 'vitest';
import { fakeApi, fakeEnv, fakeMusicKit, fakeSpotifySdk, tokenFixture } from '../test/fakes.ts';
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
});
