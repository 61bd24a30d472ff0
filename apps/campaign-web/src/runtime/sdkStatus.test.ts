import { afterEach, describe, expect, it, vi } from 'vitest';
import { MUSICKIT_JS_URL, PROVIDER_SDK_LOAD_ERROR_EVENT, SCRIPT_LOAD_TIMEOUT_MS } from '@fanfare/protocol';
import { loadMusicKit, type SdkLoadEnv } from '@fanfare/client/provider-sdks';
import { SdkStatus } from './sdkStatus.ts';

/** A page as far as the loader and the status touch it: appended scripts, document events, a window. */
function fakePage() {
  const events = new EventTarget();
  const scripts: { src: string; fire(type: 'error'): void }[] = [];
  const doc = {
    createElement: () => {
      const target = new EventTarget();
      return { src: '', async: false, addEventListener: target.addEventListener.bind(target), fire: (type: 'error') => target.dispatchEvent(new Event(type)) };
    },
    head: { append: (el: (typeof scripts)[number]) => scripts.push(el) },
    addEventListener: events.addEventListener.bind(events),
    dispatchEvent: events.dispatchEvent.bind(events),
  };
  const win = {} as Record<string, unknown>;
  const env: SdkLoadEnv = { doc: doc as unknown as Document, win: win as unknown as Window };
  return { env, doc: doc as unknown as Document, win, scripts, fire: (type: string) => events.dispatchEvent(new Event(type)) };
}

afterEach(() => vi.useRealTimers());

describe('provider SDK status of the login buttons', () => {
  it(`a hanging MusicKit shows Apple as loading until the ${SCRIPT_LOAD_TIMEOUT_MS / 1000} s timeout, then as timed out through the load-error event`, async () => {
    vi.useFakeTimers();
    const page = fakePage();
    const changes = vi.fn();
    const status = new SdkStatus(page.doc, [], changes);
    const errors: unknown[] = [];
    page.doc.addEventListener(PROVIDER_SDK_LOAD_ERROR_EVENT, (e) => errors.push((e as CustomEvent).detail));
    const musicKit = status.track('apple', () => loadMusicKit({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare'));
    const outcome = musicKit().then(() => 'loaded', () => 'failed');
    await vi.advanceTimersByTimeAsync(0);
    expect(status.current).toEqual({ unavailable: {}, loading: { apple: true } });
    await vi.advanceTimersByTimeAsync(SCRIPT_LOAD_TIMEOUT_MS - 1);
    expect(status.current.loading).toEqual({ apple: true });
    expect(errors).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('failed');
    expect(errors).toMatchObject([{ service: 'apple', timedOut: true }]);
    expect(status.current).toEqual({ unavailable: { apple: 'timed-out' }, loading: {} });
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('a MusicKit that arrives ends the loading state and leaves Apple available', async () => {
    const page = fakePage();
    const status = new SdkStatus(page.doc, [], () => undefined);
    const instance = { isAuthorized: false };
    const musicKit = status.track('apple', () => loadMusicKit({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare'));
    const loading = musicKit();
    await Promise.resolve();
    expect(status.current.loading).toEqual({ apple: true });
    page.win.MusicKit = { configure: async () => instance, getInstance: () => instance };
    page.fire('musickitloaded');
    await expect(loading).resolves.toBe(instance);
    expect(status.current).toEqual({ unavailable: {}, loading: {} });
  });

  it('a script that fails is load-failed, not timed out; a provider with no script named is not-configured from the start', async () => {
    const page = fakePage();
    const status = new SdkStatus(page.doc, ['spotify'], () => undefined);
    expect(status.current.unavailable).toEqual({ spotify: 'not-configured' });
    const musicKit = status.track('apple', () => loadMusicKit({ src: MUSICKIT_JS_URL, developerToken: 'DEV' }, page.env, 'Fanfare'));
    const loading = musicKit();
    page.scripts[0]!.fire('error');
    await expect(loading).rejects.toThrow('failed to load');
    expect(status.current).toEqual({ unavailable: { spotify: 'not-configured', apple: 'load-failed' }, loading: {} });
  });

  it('a loader that rejects without the event still ends the loading state, as load-failed', async () => {
    const page = fakePage();
    const status = new SdkStatus(page.doc, [], () => undefined);
    const load = status.track('apple', () => Promise.reject(new Error('configure failed')));
    await expect(load()).rejects.toThrow('configure failed');
    await Promise.resolve();
    expect(status.current).toEqual({ unavailable: { apple: 'load-failed' }, loading: {} });
  });
});
