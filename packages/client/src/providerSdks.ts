/**
 * `@fanfare/client/provider-sdks`: loads the streaming providers' browser SDKs the way both web
 * apps need them. The page's metadata (written by the server, `PROVIDER_SDK_META`) names each
 * script: Apple's MusicKit JS v3 and Spotify's Web Playback SDK from their official URLs when the
 * server has real credentials, the emulators' stand-in scripts otherwise. Either way the page
 * gets the SDK's own global (`MusicKit`, `Spotify`) through the SDK's own ready signal.
 *
 * A script that fails, or is not ready within `SCRIPT_LOAD_TIMEOUT_MS` (120 s, spec §9), rejects
 * with `ProviderSdkLoadError` and dispatches `PROVIDER_SDK_LOAD_ERROR_EVENT` on the document.
 */
import { PROVIDER_SDK_LOAD_ERROR_EVENT, PROVIDER_SDK_META, SCRIPT_LOAD_TIMEOUT_MS, type ProviderSdkLoadErrorDetail } from '@fanfare/protocol';

/** What the page's metadata says about each SDK; null: the provider cannot play on this page. */
export interface ProviderSdkSettings {
  musicKit: { src: string; developerToken: string } | null;
  spotify: { src: string; apiUrl: string | null } | null;
}

type MetaReader = Pick<Document, 'querySelector'>;

export function readProviderSdks(doc: MetaReader): ProviderSdkSettings {
  const meta = (name: string) => doc.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || null;
  const musicKitSrc = meta(PROVIDER_SDK_META.musicKitSrc);
  const developerToken = meta(PROVIDER_SDK_META.appleDeveloperToken);
  const spotifySrc = meta(PROVIDER_SDK_META.spotifySdkSrc);
  return {
    musicKit: musicKitSrc && developerToken ? { src: musicKitSrc, developerToken } : null,
    spotify: spotifySrc ? { src: spotifySrc, apiUrl: meta(PROVIDER_SDK_META.spotifyApi) } : null,
  };
}

export class ProviderSdkLoadError extends Error {
  constructor(
    readonly service: 'apple' | 'spotify',
    readonly src: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderSdkLoadError';
  }
}

/** The browser the loader works in (tests pass happy-dom's, with fake timers). */
export interface SdkLoadEnv {
  doc: Document;
  win: Window;
  timeoutMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/** MusicKit's global as the loader drives it (typed in full by `@types/musickit-js`). */
interface MusicKitGlobal {
  configure(configuration: { developerToken: string; app: { name: string; build: string } }): Promise<unknown>;
  getInstance(): unknown;
}
/** Spotify's global as the loader hands it on (typed in full by `@types/spotify-web-playback-sdk`). */
type SdkWindow = Window & { MusicKit?: MusicKitGlobal; Spotify?: unknown; onSpotifyWebPlaybackSDKReady?: () => void };

/** One load per page and script: a second caller shares it; a failed load may be tried again. */
const loads = new WeakMap<Window, Map<string, Promise<unknown>>>();

function once<T>(win: Window, key: string, load: () => Promise<T>): Promise<T> {
  let byKey = loads.get(win);
  if (!byKey) loads.set(win, (byKey = new Map()));
  const existing = byKey.get(key) as Promise<T> | undefined;
  if (existing) return existing;
  const started = load();
  byKey.set(key, started);
  started.catch(() => byKey.delete(key));
  return started;
}

/**
 * Appends the script and waits for `whenReady` (the SDK's own signal), at most the timeout. On a
 * failure the load-error event goes to the document and the promise rejects.
 */
function loadScript<T>(service: 'apple' | 'spotify', src: string, env: SdkLoadEnv, whenReady: (done: (value: T) => void) => void): Promise<T> {
  const { doc } = env;
  const timeoutMs = env.timeoutMs ?? SCRIPT_LOAD_TIMEOUT_MS;
  const setTimer = env.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const clearTimer = env.clearTimeout ?? ((h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>));
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const fail = (message: string, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimer(timer);
      const detail: ProviderSdkLoadErrorDetail = { service, src, message, timedOut };
      doc.dispatchEvent(new CustomEvent(PROVIDER_SDK_LOAD_ERROR_EVENT, { detail }));
      reject(new ProviderSdkLoadError(service, src, message));
    };
    const timer = setTimer(() => fail(`${src} did not load within ${timeoutMs} ms`, true), timeoutMs);
    whenReady((value) => {
      if (settled) return;
      settled = true;
      clearTimer(timer);
      resolve(value);
    });
    if (settled) return; // the SDK was on the page already
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('error', () => fail(`${src} failed to load`, false));
    doc.head.append(script);
  });
}

/**
 * MusicKit JS v3, configured with the page's developer token (`MusicKit.configure`), resolving to
 * its instance. The caller types the instance by the interface it drives.
 */
export function loadMusicKit<I>(settings: NonNullable<ProviderSdkSettings['musicKit']>, env: SdkLoadEnv, appName: string): Promise<I> {
  const win = env.win as SdkWindow;
  return once(win, settings.src, async () => {
    const global = await loadScript<MusicKitGlobal>('apple', settings.src, env, (done) => {
      if (win.MusicKit) return done(win.MusicKit);
      env.doc.addEventListener('musickitloaded', () => (win.MusicKit ? done(win.MusicKit) : undefined), { once: true });
    });
    await global.configure({ developerToken: settings.developerToken, app: { name: appName, build: '1' } });
    return global.getInstance() as I;
  });
}

/** Spotify's Web Playback SDK (`window.Spotify`), once it called `onSpotifyWebPlaybackSDKReady`. */
export function loadSpotifySdk<S>(settings: NonNullable<ProviderSdkSettings['spotify']>, env: SdkLoadEnv): Promise<S> {
  const win = env.win as SdkWindow;
  return once(win, settings.src, () =>
    loadScript<S>('spotify', settings.src, env, (done) => {
      if (win.Spotify) return done(win.Spotify as S);
      win.onSpotifyWebPlaybackSDKReady = () => (win.Spotify ? done(win.Spotify as S) : undefined);
    }),
  );
}
