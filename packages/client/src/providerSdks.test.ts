import { afterEach, describe, expect, it, vi } from 'vitest';
import { MUSICKIT_JS_URL, PROVIDER_SDK_LOAD_ERROR_EVENT, PROVIDER_SDK_META, SCRIPT_LOAD_TIMEOUT_MS, SPOTIFY_PLAYER_JS_URL } from '@fanfare/protocol';
import { ProviderSdkLoadError, loadMusicKit, loadSpotifySdk, readProviderSdks, type SdkLoadEnv } from './providerSdks.ts';

/** A page as far as the loader touches it: scripts appended, document events, a window. */
function fakePage(metas: Record<string, string> = {}) {
  const scripts: { src: string; async: boolean; fire(type: 'error'): void }[] = [];
  const events = new EventTarget();
  const dispatched: CustomEvent[] = [];
  const doc = {
    querySelector: (sel: string) => {
      const name = /name="([^"]+)"/.exec(sel)?.[1] ?? '';
      return name in metas ? { getAttribute: () => metas[name]! } : null;
    },
    createElement: () => {
      const target = new EventTarget();
      const el = { src: '', async: false, addEventListener: target.addEventListener.bind(target), fire: (type: 'error') => target.dispatchEvent(new Event(type)) };
      return el;
    },
    head: { append: (el: (typeof scripts)[number]) => scripts.push(el) },
    addEventListener: events.addEventListener.bind(events),
    dispatchEvent: (e: Event) => {
      if (e instanceof CustomEvent) dispatched.push(e);
      return events.dispatchEvent(e);
    },
  };
  const win = {} as Record<string, unknown>;
  const env: SdkLoadEnv = { doc: doc as unknown as Document, win: win as unknown as Window };
  return { env, doc, win, scripts, dispatched, fireDocument: (type: string) => events.dispatchEvent(new Event(type)) };
}

afterEach(() => vi.useRealTimers());

describe('provider SDK settings from the page metadata', () => {
  it('MusicKit needs a script and a developer token; Spotify a script (the Web API base is optional)', () => {
    expect(readProviderSdks(fakePage().doc as unknown as Document)).toEqual({ musicKit: null, spotify: null });
    const page = fakePage({ [PROVIDER_SDK_META.musicKitSrc]: MUSICKIT_JS_URL, [PROVIDER_SDK_META.appleDeveloperToken]: 'DEV', [PROVIDER_SDK_META.spotifySdkSrc]: SPOTIFY_PLAYER_JS_URL, [PROVIDER_SDK_META.spotifyApi]: 'https://api.spotify.com/v1' });
    expect(readProviderSdks(page.doc as unknown as Document)).toEqual({ musicKit: { src: MUSICKIT_JS_URL, developerToken: 'DEV' }, spotify: { src: SPOTIFY_PLAYER_JS_URL, apiUrl: 'https://api.spotify.com/v1' } });
    expect(readProviderSdks(fakePage({ [PROVIDER_SDK_META.musicKitSrc]: MUSICKIT_JS_URL }).doc as unknown as Document).musicKit).toBeNull();
  });
});

describe('MusicKit JS v3 load (official URL when configured)', () => {
  it('appends the script, waits for musickitloaded, configures it with the developer token and the app name, and loads it once', async () => {
    const page = fakePage();
    const instance = { isAuthorized: false };
    const configure = vi.fn(async () => instance);
    const loading = loadMusicKit<typeof instance>({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare');
    const again = loadMusicKit<typeof instance>({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare');
    expect(page.scripts.map((s) => [s.src, s.async])).toEqual([[MUSICKIT_JS_URL, true]]);
    page.win.MusicKit = { configure, getInstance: () => instance };
    page.fireDocument('musickitloaded');
    await expect(loading).resolves.toBe(instance);
    await expect(again).resolves.toBe(instance);
    expect(configure).toHaveBeenCalledWith({ developerToken: 'DEV', app: { name: 'Fanfare', build: '1' } });
    expect(page.scripts).toHaveLength(1);
  });

  it(`a script that is not ready within ${SCRIPT_LOAD_TIMEOUT_MS / 1000} s rejects and dispatches the load-error event; a later call tries again`, async () => {
    vi.useFakeTimers();
    const page = fakePage();
    const loading = loadMusicKit({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare');
    const outcome = loading.then(() => 'loaded', (e: unknown) => e);
    await vi.advanceTimersByTimeAsync(SCRIPT_LOAD_TIMEOUT_MS - 1);
    expect(page.dispatched).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    const err = await outcome;
    expect(err).toBeInstanceOf(ProviderSdkLoadError);
    expect(err).toMatchObject({ service: 'apple', src: MUSICKIT_JS_URL });
    expect(page.dispatched.map((e) => [e.type, e.detail])).toEqual([[PROVIDER_SDK_LOAD_ERROR_EVENT, { service: 'apple', src: MUSICKIT_JS_URL, message: `${MUSICKIT_JS_URL} did not load within ${SCRIPT_LOAD_TIMEOUT_MS} ms`, timedOut: true }]]);
    void loadMusicKit({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare').catch(() => undefined);
    expect(page.scripts).toHaveLength(2);
  });
});

describe('Spotify Web Playback SDK load (official URL when configured)', () => {
  it('resolves with window.Spotify once the SDK calls onSpotifyWebPlaybackSDKReady', async () => {
    const page = fakePage();
    const loading = loadSpotifySdk<{ Player: unknown }>({ src: SPOTIFY_PLAYER_JS_URL, apiUrl: null }, page.env);
    expect(page.scripts.map((s) => s.src)).toEqual([SPOTIFY_PLAYER_JS_URL]);
    const sdk = { Player: class {} };
    page.win.Spotify = sdk;
    (page.win.onSpotifyWebPlaybackSDKReady as () => void)();
    await expect(loading).resolves.toBe(sdk);
  });

  it('a script error rejects at once with the load-error event', async () => {
    const page = fakePage();
    const loading = loadSpotifySdk({ src: SPOTIFY_PLAYER_JS_URL, apiUrl: null }, page.env);
    page.scripts[0]!.fire('error');
    await expect(loading).rejects.toMatchObject({ name: 'ProviderSdkLoadError', service: 'spotify' });
    expect(page.dispatched[0]?.detail).toEqual({ service: 'spotify', src: SPOTIFY_PLAYER_JS_URL, message: `${SPOTIFY_PLAYER_JS_URL} failed to load`, timedOut: false });
  });
});
