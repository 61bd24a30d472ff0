/// <reference types="musickit-js" />
/**
 * The Apple emulator's stand-in for MusicKit JS v3, served as `/emulator/apple/musickit.js` (a
 * browser script bundled from this module, `standInScripts.ts`). A page loads it exactly as it
 * loads Apple's script: `musickitloaded` on the document, then `MusicKit.configure(...)` and
 * `MusicKit.getInstance()`. Typed by `@types/musickit-js` (`sdkConformance.ts` checks it).
 *
 * `authorize()` sends the fan to the emulator's consent page, which comes back with
 * `music_user_token` in the address; the stand-in takes it from there (and clears it). Songs are
 * looked up in the emulator's catalog like MusicKit looks them up in Apple's. Playback runs on a
 * clock, reported by MusicKit's events; it makes no sound: the emulator streams none.
 */

/** MusicKit v3 has the v1 player's members on the instance itself: the instance as v3 has it. */
export type MusicKitV3Instance = MusicKit.MusicKitInstance &
  Pick<MusicKit.Player, 'currentPlaybackTime' | 'nowPlayingItem' | 'queue' | 'volume' | 'shuffleMode' | 'repeatMode' | 'isPlaying'>;

/** The members both apps drive; the stand-in implements them with the official types. */
export type MusicKitDriven = Pick<
  MusicKitV3Instance,
  | 'isAuthorized'
  | 'musicUserToken'
  | 'authorize'
  | 'unauthorize'
  | 'playbackState'
  | 'currentPlaybackTime'
  | 'queue'
  | 'volume'
  | 'shuffleMode'
  | 'repeatMode'
  | 'isPlaying'
  | 'addEventListener'
  | 'removeEventListener'
  | 'setQueue'
  | 'playLater'
  | 'play'
  | 'pause'
  | 'stop'
  | 'seekToTime'
  | 'skipToNextItem'
  | 'skipToPreviousItem'
  | 'changeToMediaAtIndex'
> & {
  /** v3 answers undefined while the queue is empty (the v1 types say the item is always there). */
  readonly nowPlayingItem: MusicKit.MediaItem | undefined;
};

/** `window.MusicKit` as the stand-in provides it. */
export interface MusicKitStandInGlobal {
  configure(configuration: MusicKit.Configuration): Promise<MusicKitDriven>;
  getInstance(): MusicKitDriven;
}

/** Where the stand-in keeps the fan's music user token between page loads (MusicKit keeps it too). */
export const STAND_IN_MUSIC_USER_TOKEN_KEY = 'fanfare:apple-emulator:music-user-token';
/** How often the stand-in reports the playback time while playing (MusicKit reports about every second). */
export const STAND_IN_TICK_MS = 1000;
/** The storefront the stand-in looks songs up in (MusicKit's default without a fan storefront). */
const STOREFRONT = 'us';

/** MusicKit v3's `PlaybackStates` values. */
export const PLAYBACK_STATE = { none: 0, loading: 1, playing: 2, paused: 3, stopped: 4 } as const;

/** What the server writes into the script: the emulator's consent page and its Apple Music API. */
export interface MusicKitStandInConfig {
  authorizeUrl: string;
  apiUrl: string;
}

export interface MusicKitStandInEnv {
  location: { href: string; assign(url: string): void };
  replaceUrl(url: string): void;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  fetch: typeof fetch;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

type SongAttributes = { name: string; artistName: string; albumName: string; durationInMillis: number; artwork: { url: string } };

function mediaItem(id: string, a: SongAttributes | undefined): MusicKit.MediaItem {
  const attributes = a ?? { name: id, artistName: '', albumName: '', durationInMillis: 30_000, artwork: { url: '' } };
  return {
    id,
    type: 'songs',
    attributes,
    title: attributes.name,
    artistName: attributes.artistName,
    albumName: attributes.albumName,
    albumInfo: attributes.albumName,
    info: `${attributes.name} - ${attributes.artistName}`,
    artwork: { url: attributes.artwork.url, width: 300, height: 300, bgColor: '000000', textColor1: 'ffffff', textColor2: 'ffffff', textColor3: 'ffffff', textColor4: 'ffffff' },
    artworkURL: attributes.artwork.url,
    contentRating: '',
    discNumber: 1,
    trackNumber: 1,
    isExplicitItem: false,
    isPlayable: true,
    isPreparedToPlay: true,
    isrc: '',
    playbackDuration: attributes.durationInMillis,
    playlistArtworkURL: '',
    playlistName: '',
    previewURL: '',
    prepareToPlay: async () => undefined,
  };
}

function queueOf(items: MusicKit.MediaItem[], position: () => number): MusicKit.Queue {
  return {
    get isEmpty() {
      return items.length === 0;
    },
    items,
    get length() {
      return items.length;
    },
    get position() {
      return position();
    },
    get nextPlayableItem() {
      return items[position() + 1];
    },
    get previousPlayableItem() {
      return items[position() - 1];
    },
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    append: () => undefined,
    prepend: () => undefined,
    indexForItem: (d) => items.findIndex((i) => i.id === (typeof d === 'string' ? d : d.id)),
    item: (i) => items[i],
  };
}

/** The stand-in's MusicKit global over one page (tests pass a fake page). */
export function createMusicKitStandIn(config: MusicKitStandInConfig, env: MusicKitStandInEnv): MusicKitStandInGlobal {
  const url = new URL(env.location.href);
  const returned = url.searchParams.get('music_user_token');
  if (returned) {
    env.storage.setItem(STAND_IN_MUSIC_USER_TOKEN_KEY, returned);
    url.searchParams.delete('music_user_token');
    env.replaceUrl(url.toString());
  }
  let token = env.storage.getItem(STAND_IN_MUSIC_USER_TOKEN_KEY);
  let developerToken = '';

  const listeners = new Map<string, Set<(e: unknown) => unknown>>();
  // Event names are v3's (`nowPlayingItemDidChange` is v3's name for v1's `mediaItemDidChange`).
  const emit = (name: keyof MusicKit.Events | 'nowPlayingItemDidChange', e: unknown = {}) => listeners.get(name)?.forEach((fn) => fn(e));
  let items: MusicKit.MediaItem[] = [];
  let index = 0;
  let state: number = PLAYBACK_STATE.none;
  let positionS = 0;
  let tick: unknown = null;

  const lookup = async (ids: string[]): Promise<MusicKit.MediaItem[]> => {
    if (ids.length === 0) return [];
    const known = new Map<string, SongAttributes>();
    try {
      const res = await env.fetch(`${config.apiUrl}/catalog/${STOREFRONT}/songs?ids=${ids.map(encodeURIComponent).join(',')}`, {
        headers: { authorization: `Bearer ${developerToken}`, ...(token ? { 'music-user-token': token } : {}) },
      });
      if (res.ok) for (const s of ((await res.json()) as { data: { id: string; attributes: SongAttributes }[] }).data) known.set(s.id, s.attributes);
    } catch {
      // Unknown songs keep their id as their name, as MusicKit shows an unresolved item.
    }
    return ids.map((id) => mediaItem(id, known.get(id)));
  };
  const setState = (s: number) => {
    const oldState = state;
    state = s;
    emit('playbackStateDidChange', { oldState, state: s });
  };
  const stopClock = () => {
    if (tick !== null) env.clearInterval(tick);
    tick = null;
  };
  const changeTo = (i: number) => {
    index = i;
    positionS = 0;
    emit('nowPlayingItemDidChange', { item: items[i] });
    emit('mediaItemDidChange', { item: items[i] });
    emit('playbackTimeDidChange');
    return i;
  };
  const advance = () => {
    positionS += STAND_IN_TICK_MS / 1000;
    const duration = (items[index]?.playbackDuration ?? 0) / 1000;
    if (positionS < duration) return emit('playbackTimeDidChange');
    if (index + 1 < items.length) return void changeTo(index + 1);
    stopClock();
    positionS = 0;
    setState(PLAYBACK_STATE.stopped);
  };
  const idsOf = (options: MusicKit.SetQueueOptions): string[] =>
    Array.isArray(options.songs) ? options.songs : typeof options.song === 'string' ? [options.song] : [];

  const instance: MusicKitDriven = {
    get isAuthorized() {
      return token !== null;
    },
    get musicUserToken() {
      return token ?? '';
    },
    authorize() {
      const target = new URL(config.authorizeUrl);
      target.searchParams.set('redirect_uri', env.location.href);
      env.location.assign(target.toString());
      return new Promise<string>(() => undefined); // the page leaves for the consent page
    },
    async unauthorize() {
      token = null;
      env.storage.removeItem(STAND_IN_MUSIC_USER_TOKEN_KEY);
      emit('authorizationStatusDidChange', { authorizationStatus: 0 });
    },
    get playbackState() {
      return state as MusicKit.PlaybackStates;
    },
    get isPlaying() {
      return state === PLAYBACK_STATE.playing;
    },
    get currentPlaybackTime() {
      return positionS;
    },
    get nowPlayingItem() {
      return items[index];
    },
    volume: 1,
    shuffleMode: 0,
    repeatMode: 0,
    get queue() {
      return queueOf(items, () => index);
    },
    addEventListener(name, callback) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(callback as (e: unknown) => unknown);
    },
    removeEventListener(name, callback) {
      if (callback) listeners.get(name)?.delete(callback);
      else listeners.delete(name);
    },
    async setQueue(options) {
      items = await lookup(idsOf(options));
      changeTo(Math.min(Math.max(0, Number(options.startPosition ?? 0)), Math.max(0, items.length - 1)));
      return queueOf(items, () => index);
    },
    async playLater(options) {
      items = [...items, ...(await lookup(idsOf(options)))];
    },
    async play() {
      if (items.length === 0) return index;
      if (tick === null) tick = env.setInterval(advance, STAND_IN_TICK_MS);
      setState(PLAYBACK_STATE.playing);
      return index;
    },
    pause() {
      stopClock();
      setState(PLAYBACK_STATE.paused);
    },
    stop() {
      stopClock();
      positionS = 0;
      setState(PLAYBACK_STATE.stopped);
    },
    async seekToTime(seconds) {
      positionS = Math.max(0, seconds);
      emit('playbackTimeDidChange');
    },
    async skipToNextItem() {
      return index + 1 < items.length ? changeTo(index + 1) : index;
    },
    async skipToPreviousItem() {
      return changeTo(Math.max(0, index - 1));
    },
    async changeToMediaAtIndex(i) {
      return i >= 0 && i < items.length ? changeTo(i) : index;
    },
  };
  return {
    async configure(configuration) {
      developerToken = configuration.developerToken ?? '';
      return instance;
    },
    getInstance: () => instance,
  };
}

/** The script's body: `window.MusicKit`, then `musickitloaded`, as Apple's script does. */
export function installMusicKitStandIn(config: MusicKitStandInConfig): void {
  const w = window as unknown as { MusicKit?: MusicKitStandInGlobal };
  w.MusicKit = createMusicKitStandIn(config, {
    location: window.location,
    replaceUrl: (u) => window.history.replaceState(window.history.state, '', u),
    storage: window.localStorage,
    fetch: (...a) => window.fetch(...a),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (h) => window.clearInterval(h as number),
  });
  document.dispatchEvent(new Event('musickitloaded'));
}
