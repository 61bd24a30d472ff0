import { mapAppleState } from '@fanfare/campaign-sdk';
import { describe, expect, it } from 'vitest';
import { STAND_IN_MUSIC_USER_TOKEN_KEY, STAND_IN_TICK_MS, createMusicKitStandIn, type MusicKitStandInEnv } from './musicKitStandIn.ts';

const CONFIG = { authorizeUrl: 'http://party.test/emulator/apple/authorize', apiUrl: 'http://party.test/emulator/apple/v1' };

function fakeEnv(href: string) {
  const store = new Map<string, string>();
  const intervals = new Map<number, () => void>();
  let next = 1;
  const lookups: { url: string; auth: string | null }[] = [];
  const env: MusicKitStandInEnv & { assigned: string[]; replaced: string[] } = {
    location: { href, assign: (u: string) => void env.assigned.push(u) },
    replaceUrl: (u: string) => void env.replaced.push(u),
    storage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) },
    // The emulator's `GET /catalog/{sf}/songs?ids=`: names for the ids it knows.
    fetch: (async (url: string, init?: RequestInit) => {
      lookups.push({ url, auth: new Headers(init?.headers).get('authorization') });
      const ids = new URL(url).searchParams.get('ids')!.split(',');
      const data = ids.map((id) => ({ id, attributes: { name: `Song ${id}`, artistName: 'Neon Harbour', albumName: 'Tidal Lights', durationInMillis: 2 * STAND_IN_TICK_MS, artwork: { url: '' } } }));
      return Response.json({ data });
    }) as typeof fetch,
    setInterval: (fn: () => void) => (intervals.set(next, fn), next++),
    clearInterval: (h: unknown) => void intervals.delete(h as number),
    assigned: [],
    replaced: [],
  };
  const tick = () => [...intervals.values()].forEach((fn) => fn());
  return { env, store, tick, lookups };
}

describe('MusicKit JS v3 stand-in of the Apple emulator', () => {
  it('configure() resolves to the instance getInstance() returns, as MusicKit v3 does', async () => {
    const { env } = fakeEnv('http://cms.test/c/app/slug');
    const MusicKit = createMusicKitStandIn(CONFIG, env);
    const mk = await MusicKit.configure({ developerToken: 'DEV', app: { name: 'Fanfare', build: '1' } });
    expect(MusicKit.getInstance()).toBe(mk);
  });

  it('campaign spec §4 Apple login: authorize() goes to the emulator consent page with this page as redirect_uri', () => {
    const { env } = fakeEnv('http://cms.test/c/app/slug?x=1');
    const mk = createMusicKitStandIn(CONFIG, env).getInstance();
    expect(mk.isAuthorized).toBe(false);
    void mk.authorize();
    const target = new URL(env.assigned[0]!);
    expect(target.origin + target.pathname).toBe(CONFIG.authorizeUrl);
    expect(target.searchParams.get('redirect_uri')).toBe('http://cms.test/c/app/slug?x=1');
  });

  it('campaign spec §4 Apple login: the returned music user token is kept, cleared from the address, and unauthorize() forgets it', async () => {
    const { env, store } = fakeEnv('http://cms.test/c/app/slug?x=1&music_user_token=mut-1');
    const mk = createMusicKitStandIn(CONFIG, env).getInstance();
    expect(mk).toMatchObject({ isAuthorized: true, musicUserToken: 'mut-1' });
    expect(env.replaced).toEqual(['http://cms.test/c/app/slug?x=1']);
    expect(store.get(STAND_IN_MUSIC_USER_TOKEN_KEY)).toBe('mut-1');
    expect(createMusicKitStandIn(CONFIG, { ...env, location: { ...env.location, href: 'http://cms.test/c/app/slug' } }).getInstance().isAuthorized).toBe(true); // a reload
    await mk.unauthorize();
    expect(mk.isAuthorized).toBe(false);
    expect(store.has(STAND_IN_MUSIC_USER_TOKEN_KEY)).toBe(false);
  });

  it("looks songs up in the emulator's catalog with the developer token, then plays the queue on its clock with MusicKit events", async () => {
    const { env, tick, lookups } = fakeEnv('http://cms.test/c/app/slug');
    const mk = await createMusicKitStandIn(CONFIG, env).configure({ developerToken: 'DEV' });
    const events: string[] = [];
    for (const name of ['playbackStateDidChange', 'nowPlayingItemDidChange', 'playbackTimeDidChange'] as const) mk.addEventListener(name as 'playbackStateDidChange', () => events.push(name));
    await mk.setQueue({ songs: ['a', 'b'], startPosition: 0 });
    expect(lookups).toEqual([{ url: `${CONFIG.apiUrl}/catalog/us/songs?ids=a,b`, auth: 'Bearer DEV' }]);
    await mk.play();
    expect(mapAppleState(mk.playbackState)).toMatchObject({ isPaused: false });
    expect(mk.nowPlayingItem).toMatchObject({ id: 'a', attributes: { name: 'Song a', artistName: 'Neon Harbour' } });
    tick();
    expect(mk.currentPlaybackTime).toBe(STAND_IN_TICK_MS / 1000);
    tick(); // the end of a
    expect(mk.nowPlayingItem?.id).toBe('b');
    expect(mk.currentPlaybackTime).toBe(0);
    mk.pause();
    tick();
    expect(mk.currentPlaybackTime).toBe(0);
    expect(mapAppleState(mk.playbackState)).toMatchObject({ isPaused: true });
    await mk.play();
    tick();
    tick(); // the end of the queue
    expect(mapAppleState(mk.playbackState)).toMatchObject({ isPaused: true });
    expect(events).toContain('nowPlayingItemDidChange');
  });
});
