import { mapAppleState, type TimerApi } from '@fanfare/campaign-sdk';
import { describe, expect, it } from 'vitest';
import { EMULATOR_MUSIC_USER_TOKEN_KEY, EMULATOR_TICK_MS, emulatorMusicKit, type MusicKitEmulatorEnv } from './musicKitEmulator.ts';

function fakeEnv(href: string) {
  const store = new Map<string, string>();
  const intervals = new Map<number, () => void>();
  let next = 1;
  const timers: TimerApi = {
    setTimeout: () => 0,
    clearTimeout: () => undefined,
    setInterval: (fn) => (intervals.set(next, fn), next++),
    clearInterval: (h) => void intervals.delete(h as number),
  };
  const env: MusicKitEmulatorEnv & { assigned: string[]; replaced: string[] } = {
    authorizeUrl: 'http://party.test/emulator/apple/authorize',
    location: { href, assign: (u) => void env.assigned.push(u) },
    replaceUrl: (u) => void env.replaced.push(u),
    storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v), removeItem: (k) => void store.delete(k) },
    timers,
    track: (id) => ({ id, name: `Song ${id}`, artists: ['Neon Harbour'], album: 'Tidal Lights', durationMs: 2 * EMULATOR_TICK_MS, image: null }),
    assigned: [],
    replaced: [],
  };
  const tick = () => [...intervals.values()].forEach((fn) => fn());
  return { env, store, tick };
}

describe('MusicKit stand-in for the Apple emulator', () => {
  it('campaign spec §4 Apple login: authorize() goes to the emulator consent page with this page as redirect_uri', () => {
    const { env } = fakeEnv('http://cms.test/c/app/slug?x=1');
    const mk = emulatorMusicKit(env);
    expect(mk.isAuthorized).toBe(false);
    void mk.authorize();
    const target = new URL(env.assigned[0]!);
    expect(target.origin + target.pathname).toBe(env.authorizeUrl);
    expect(target.searchParams.get('redirect_uri')).toBe('http://cms.test/c/app/slug?x=1');
  });

  it('campaign spec §4 Apple login: the returned music user token is kept, cleared from the address, and unauthorize() forgets it', async () => {
    const { env, store } = fakeEnv('http://cms.test/c/app/slug?x=1&music_user_token=mut-1');
    const mk = emulatorMusicKit(env);
    expect(mk).toMatchObject({ isAuthorized: true, musicUserToken: 'mut-1' });
    expect(env.replaced).toEqual(['http://cms.test/c/app/slug?x=1']);
    expect(store.get(EMULATOR_MUSIC_USER_TOKEN_KEY)).toBe('mut-1');
    expect(emulatorMusicKit({ ...env, location: { ...env.location, href: 'http://cms.test/c/app/slug' } }).isAuthorized).toBe(true); // a reload
    await mk.unauthorize();
    expect(mk.isAuthorized).toBe(false);
    expect(store.has(EMULATOR_MUSIC_USER_TOKEN_KEY)).toBe(false);
  });

  it('plays the queue on its clock with MusicKit events: time advances, the next item follows, the end stops', async () => {
    const { env, tick } = fakeEnv('http://cms.test/c/app/slug');
    const mk = emulatorMusicKit(env);
    const events: string[] = [];
    for (const name of ['playbackStateDidChange', 'nowPlayingItemDidChange', 'playbackTimeDidChange']) mk.addEventListener(name, () => events.push(name));
    await mk.setQueue({ songs: ['a', 'b'], startPosition: 0 });
    await mk.play();
    expect(mapAppleState(mk.playbackState)).toMatchObject({ isPaused: false });
    expect(mk.nowPlayingItem).toMatchObject({ id: 'a', attributes: { name: 'Song a', artistName: 'Neon Harbour' } });
    tick();
    expect(mk.currentPlaybackTime).toBe(EMULATOR_TICK_MS / 1000);
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
