/// <reference types="spotify-web-playback-sdk" />
/**
 * The Spotify emulator's stand-in for the Web Playback SDK, served as
 * `/emulator/spotify/spotify-player.js` (a browser script bundled from this module,
 * `standInScripts.ts`). A page loads it exactly as it loads Spotify's script: `window.Spotify`,
 * then `window.onSpotifyWebPlaybackSDKReady()`. Its player implements `Spotify.Player` of
 * `@types/spotify-web-playback-sdk` (`sdkConformance.ts` checks it).
 *
 * The "player" is a device id of this page, which the emulator registers on the first command
 * naming it; the fan's playback is read from `GET /me/player` every second, whichever device plays,
 * so the page shows what the account plays after a device switch too. It makes no sound.
 */

/** How often the stand-in reads the player state. */
export const STAND_IN_POLL_MS = 1000;

/** `GET /me/player` of the Web API (the fields read here). */
export interface WebApiPlayer {
  device: { id: string | null };
  is_playing: boolean;
  progress_ms: number;
  shuffle_state: boolean;
  repeat_state: 'off' | 'track' | 'context';
  item: { id: string; uri: string; name: string; duration_ms: number; artists: { name: string; uri?: string }[]; album?: { name: string; uri?: string; images: { url: string }[] } } | null;
}

const REPEAT_TO_SDK = { off: 0, context: 1, track: 2 } as const;

/** The Web API's player state as the Web Playback SDK reports it (`Spotify.PlaybackState`). */
export function toSdkState(s: WebApiPlayer, now: number = Date.now()): Spotify.PlaybackState {
  const t = s.item;
  const entity = (name: string, uri = '') => ({ name, uri, url: '' });
  const track: Spotify.Track | null = t
    ? {
        id: t.id,
        uid: t.id,
        uri: t.uri,
        name: t.name,
        duration_ms: t.duration_ms,
        is_playable: true,
        media_type: 'audio',
        type: 'track',
        track_type: 'audio',
        artists: t.artists.map((a) => entity(a.name, a.uri)),
        album: { name: t.album?.name ?? '', uri: t.album?.uri ?? '', images: t.album?.images ?? [] },
        linked_from: { uri: null, id: null },
      }
    : null;
  return {
    context: { uri: null, metadata: null },
    disallows: {},
    restrictions: {},
    duration: t?.duration_ms ?? 0,
    paused: !s.is_playing,
    position: s.progress_ms,
    loading: false,
    timestamp: now,
    repeat_mode: REPEAT_TO_SDK[s.repeat_state] ?? 0,
    shuffle: s.shuffle_state,
    // The SDK's types say a track is always current; the SDK itself reports none before playback.
    track_window: { current_track: track as Spotify.Track, previous_tracks: [], next_tracks: [] },
    playback_id: '',
    playback_quality: 'NORMAL',
    playback_features: { hifi_status: 'NONE' },
  };
}

export interface SpotifyStandInEnv {
  fetch: typeof fetch;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  setTimeout(fn: () => void, ms: number): unknown;
  makeDeviceId?: () => string;
}

type Listener = (payload: never) => void;

/** `window.Spotify` as the stand-in provides it: `{ Player }` over the emulator's Web API at `apiUrl`. */
export function createSpotifyStandIn(apiUrl: string, env: SpotifyStandInEnv) {
  const makeId = env.makeDeviceId ?? (() => `fanfare-web-${Math.random().toString(36).slice(2, 10)}`);

  class StandInPlayer implements Spotify.Player {
    readonly _options: Spotify.PlayerInit & { id: string };
    private readonly listeners = new Map<string, Listener>();
    private poll: unknown = null;
    private last = '';
    private lastState: Spotify.PlaybackState | null = null;
    private volume: number;

    constructor(options: Spotify.PlayerInit) {
      this._options = { ...options, id: makeId() };
      this.volume = options.volume ?? 1;
    }

    private emit(event: string, payload: unknown): void {
      this.listeners.get(event)?.(payload as never);
    }

    private token(): Promise<string> {
      return new Promise((resolve) => this._options.getOAuthToken(resolve));
    }

    private async read(): Promise<void> {
      try {
        const res = await env.fetch(`${apiUrl}/me/player`, { headers: { authorization: `Bearer ${await this.token()}` } });
        if (res.status === 401) return this.emit('authentication_error', { message: 'Invalid token' });
        if (res.status !== 200) return;
        const state = toSdkState((await res.json()) as WebApiPlayer);
        const key = JSON.stringify({ ...state, timestamp: 0 });
        this.lastState = state;
        if (key === this.last) return;
        this.last = key;
        this.emit('player_state_changed', state);
      } catch (err) {
        this.emit('playback_error', { message: err instanceof Error ? err.message : String(err) });
      }
    }

    /** A Web API command on this page's device (the SDK's own controls act on its device). */
    private async command(method: 'PUT' | 'POST', path: string, query: Record<string, string> = {}): Promise<void> {
      const q = new URLSearchParams({ ...query, device_id: this._options.id });
      await env.fetch(`${apiUrl}/me/player${path}?${q.toString()}`, { method, headers: { authorization: `Bearer ${await this.token()}` } });
      await this.read();
    }

    async connect(): Promise<boolean> {
      if (this.poll === null) this.poll = env.setInterval(() => void this.read(), STAND_IN_POLL_MS);
      env.setTimeout(() => this.emit('ready', { device_id: this._options.id }), 0);
      return true;
    }

    disconnect(): void {
      if (this.poll !== null) env.clearInterval(this.poll);
      this.poll = null;
    }

    addListener = ((event: string, cb: Listener) => {
      this.listeners.set(event, cb);
      return true;
    }) as Spotify.AddListenerFn;

    on = this.addListener;

    removeListener(event: string): void {
      this.listeners.delete(event);
    }

    async getCurrentState(): Promise<Spotify.PlaybackState | null> {
      return this.lastState;
    }

    async getVolume(): Promise<number> {
      return this.volume;
    }

    async setVolume(volume: number): Promise<void> {
      this.volume = volume;
      await this.command('PUT', '/volume', { volume_percent: String(Math.floor(volume * 100)) });
    }

    async setName(name: string): Promise<void> {
      this._options.name = name;
    }

    async pause(): Promise<void> {
      await this.command('PUT', '/pause');
    }

    async resume(): Promise<void> {
      await this.command('PUT', '/play');
    }

    async togglePlay(): Promise<void> {
      await (this.lastState && !this.lastState.paused ? this.pause() : this.resume());
    }

    async seek(positionMs: number): Promise<void> {
      await this.command('PUT', '/seek', { position_ms: String(Math.round(positionMs)) });
    }

    async nextTrack(): Promise<void> {
      await this.command('POST', '/next');
    }

    async previousTrack(): Promise<void> {
      await this.command('POST', '/previous');
    }

    async activateElement(): Promise<void> {
      // Nothing to unlock: the stand-in plays no media element.
    }
  }
  return { Player: StandInPlayer };
}

/** The script's body: `window.Spotify`, then `onSpotifyWebPlaybackSDKReady()`, as Spotify's script does. */
export function installSpotifyStandIn(apiUrl: string): void {
  const w = window as unknown as { Spotify?: unknown; onSpotifyWebPlaybackSDKReady?: () => void };
  w.Spotify = createSpotifyStandIn(apiUrl, {
    fetch: (...a) => window.fetch(...a),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (h) => window.clearInterval(h as number),
    setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  });
  w.onSpotifyWebPlaybackSDKReady?.();
}
