import type { MusicKitInstance, TimerApi } from '@fanfare/campaign-sdk';
import type { PlaybackTrack } from '@fanfare/protocol';

/** Where the stand-in keeps the fan's music user token between page loads (MusicKit keeps it too). */
export const EMULATOR_MUSIC_USER_TOKEN_KEY = 'fanfare:apple-emulator:music-user-token';
/** How often the stand-in reports the playback time while playing (MusicKit reports about every second). */
export const EMULATOR_TICK_MS = 1000;

const STATE = { none: 0, playing: 2, paused: 3, stopped: 4 } as const;

type Item = { id: string; attributes: { name: string; artistName: string; albumName: string; durationInMillis: number; artwork: { url: string } } };

export interface MusicKitEmulatorEnv {
  /** The Apple emulator's `/authorize` (its consent page answers with `music_user_token` in the query). */
  authorizeUrl: string;
  location: { href: string; assign(url: string): void };
  replaceUrl(url: string): void;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  timers: TimerApi;
  /** The campaign's tracks the page has loaded: the emulator streams nothing, the page knows names. */
  track(id: string): PlaybackTrack | undefined;
}

/**
 * A stand-in for Apple's MusicKit when the page runs against the built-in Apple emulator (offline
 * demos and tests), where Apple's script cannot load. `authorize()` sends the fan to the emulator's
 * consent page, which comes back with `music_user_token` in the address; the stand-in takes it from
 * there (and clears it), so the SDK's silent Apple login opens the campaign session. Playback runs on
 * a clock like MusicKit's events report it; it makes no sound: the emulator streams none.
 */
export function emulatorMusicKit(env: MusicKitEmulatorEnv): MusicKitInstance {
  const url = new URL(env.location.href);
  const returned = url.searchParams.get('music_user_token');
  if (returned) {
    env.storage.setItem(EMULATOR_MUSIC_USER_TOKEN_KEY, returned);
    url.searchParams.delete('music_user_token');
    env.replaceUrl(url.toString());
  }
  let token = env.storage.getItem(EMULATOR_MUSIC_USER_TOKEN_KEY);

  const listeners = new Map<string, Set<(e: unknown) => void>>();
  const emit = (name: string, e: unknown = {}) => listeners.get(name)?.forEach((fn) => fn(e));
  let items: Item[] = [];
  let index = 0;
  let state: number = STATE.none;
  let positionS = 0;
  let tick: unknown = null;

  const itemOf = (id: string): Item => {
    const t = env.track(id);
    return { id, attributes: { name: t?.name ?? id, artistName: t?.artists.join(', ') ?? '', albumName: t?.album ?? '', durationInMillis: t?.durationMs ?? 30_000, artwork: { url: t?.image ?? '' } } };
  };
  const setState = (s: number) => {
    state = s;
    emit('playbackStateDidChange', { state: s });
  };
  const stopClock = () => {
    if (tick !== null) env.timers.clearInterval(tick);
    tick = null;
  };
  const changeTo = (i: number) => {
    index = i;
    positionS = 0;
    emit('nowPlayingItemDidChange');
    emit('playbackTimeDidChange');
  };
  const advance = () => {
    positionS += EMULATOR_TICK_MS / 1000;
    const duration = (items[index]?.attributes.durationInMillis ?? 0) / 1000;
    if (positionS < duration) return emit('playbackTimeDidChange');
    if (index + 1 < items.length) return changeTo(index + 1);
    stopClock();
    positionS = 0;
    setState(STATE.stopped);
  };

  const mk: MusicKitInstance = {
    get isAuthorized() {
      return token !== null;
    },
    get musicUserToken() {
      return token;
    },
    authorize() {
      const target = new URL(env.authorizeUrl);
      target.searchParams.set('redirect_uri', env.location.href);
      env.location.assign(target.toString());
      return new Promise<string>(() => undefined); // the page leaves for the consent page
    },
    async unauthorize() {
      token = null;
      env.storage.removeItem(EMULATOR_MUSIC_USER_TOKEN_KEY);
    },
    get playbackState() {
      return state;
    },
    get currentPlaybackTime() {
      return positionS;
    },
    get nowPlayingItem() {
      return items[index] ?? null;
    },
    volume: 1,
    shuffleMode: 0,
    get queue() {
      return { items };
    },
    addEventListener(name, fn) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(fn);
    },
    removeEventListener(name, fn) {
      listeners.get(name)?.delete(fn);
    },
    async setQueue(options) {
      const ids = Array.isArray(options.songs) ? (options.songs as string[]) : typeof options.song === 'string' ? [options.song] : [];
      items = ids.map(itemOf);
      changeTo(Math.min(Math.max(0, Number(options.startPosition ?? 0)), Math.max(0, items.length - 1)));
    },
    async play() {
      if (items.length === 0) return;
      if (tick === null) tick = env.timers.setInterval(advance, EMULATOR_TICK_MS);
      setState(STATE.playing);
    },
    pause() {
      stopClock();
      setState(STATE.paused);
    },
    stop() {
      stopClock();
      positionS = 0;
      setState(STATE.stopped);
    },
    async seekToTime(seconds) {
      positionS = Math.max(0, seconds);
      emit('playbackTimeDidChange');
    },
    async skipToNextItem() {
      if (index + 1 < items.length) changeTo(index + 1);
    },
    async skipToPreviousItem() {
      changeTo(Math.max(0, index - 1));
    },
    async changeToMediaAtIndex(i) {
      if (i >= 0 && i < items.length) changeTo(i);
    },
  };
  return mk;
}
