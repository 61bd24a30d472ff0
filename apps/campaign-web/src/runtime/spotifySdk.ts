import type { SpotifySdk, SpotifyWebPlaybackState, SpotifyWebPlayer, TimerApi } from '@fanfare/campaign-sdk';

/** Where Spotify's Web Playback SDK is loaded from in production. */
export const SPOTIFY_SDK_URL = 'https://sdk.scdn.co/spotify-player.js';
/** How often the emulator stand-in reads the player state. */
export const EMULATOR_POLL_MS = 1000;

/** Loads Spotify's Web Playback SDK once per page (it calls `window.onSpotifyWebPlaybackSDKReady`). */
export function loadSpotifyWebPlaybackSdk(): () => Promise<SpotifySdk> {
  let loading: Promise<SpotifySdk> | null = null;
  return () =>
    (loading ??= new Promise<SpotifySdk>((resolve, reject) => {
      const w = window as unknown as { Spotify?: SpotifySdk; onSpotifyWebPlaybackSDKReady?: () => void };
      if (w.Spotify) return resolve(w.Spotify);
      w.onSpotifyWebPlaybackSDKReady = () => (w.Spotify ? resolve(w.Spotify) : reject(new Error('The Spotify Web Playback SDK is not available')));
      const script = document.createElement('script');
      script.src = SPOTIFY_SDK_URL;
      script.async = true;
      script.onerror = () => reject(new Error('The Spotify Web Playback SDK is not available'));
      document.head.append(script);
    }));
}

/** `GET /me/player` of the Web API (the fields read here). */
interface WebApiPlayer {
  device: { id: string | null };
  is_playing: boolean;
  progress_ms: number;
  shuffle_state: boolean;
  repeat_state: 'off' | 'track' | 'context';
  item: { id: string; uri: string; name: string; duration_ms: number; artists: { name: string }[]; album?: { name: string; images: { url: string }[] } } | null;
}

const REPEAT_TO_SDK = { off: 0, context: 1, track: 2 } as const;

/** The Web API's player state as the Web Playback SDK reports it. */
export function toSdkState(s: WebApiPlayer): SpotifyWebPlaybackState {
  const t = s.item;
  return {
    paused: !s.is_playing,
    position: s.progress_ms,
    duration: t?.duration_ms ?? 0,
    shuffle: s.shuffle_state,
    repeat_mode: REPEAT_TO_SDK[s.repeat_state] ?? 0,
    track_window: {
      current_track: t ? { id: t.id, uri: t.uri, name: t.name, duration_ms: t.duration_ms, artists: t.artists.map((a) => ({ name: a.name })), album: { name: t.album?.name ?? '', images: t.album?.images ?? [] } } : null,
    },
  };
}

/**
 * A stand-in for the Web Playback SDK when the page runs against the built-in Spotify emulator
 * (offline demos and tests), where Spotify's script cannot load. Its "player" is a device id of
 * this page, which the emulator registers on the first command naming it; the state of the fan's
 * playback is read from `GET /me/player` every second, whichever device plays, so the page shows
 * what the account plays after a device switch too. It makes no sound: the emulator streams none.
 */
export function emulatorSpotifySdk(apiUrl: string, fetchFn: typeof fetch, timers: TimerApi, makeId: () => string = () => `fanfare-web-${Math.random().toString(36).slice(2, 10)}`): SpotifySdk {
  class EmulatedPlayer implements SpotifyWebPlayer {
    private readonly listeners = new Map<string, (payload: never) => void>();
    private readonly deviceId = makeId();
    private poll: unknown = null;
    private last = '';

    constructor(private readonly options: { name: string; getOAuthToken: (cb: (token: string) => void) => void; volume: number }) {}

    private emit(event: string, payload: unknown): void {
      this.listeners.get(event)?.(payload as never);
    }

    private token(): Promise<string> {
      return new Promise((resolve) => this.options.getOAuthToken(resolve));
    }

    private async read(): Promise<void> {
      try {
        const res = await fetchFn(`${apiUrl}/me/player`, { headers: { authorization: `Bearer ${await this.token()}` } });
        if (res.status === 401) return this.emit('authentication_error', { message: 'Invalid token' });
        if (res.status !== 200) return;
        const state = toSdkState((await res.json()) as WebApiPlayer);
        const key = JSON.stringify(state);
        if (key === this.last) return;
        this.last = key;
        this.emit('player_state_changed', state);
      } catch (err) {
        this.emit('playback_error', { message: err instanceof Error ? err.message : String(err) });
      }
    }

    async connect(): Promise<boolean> {
      if (this.poll === null) this.poll = timers.setInterval(() => void this.read(), EMULATOR_POLL_MS);
      timers.setTimeout(() => this.emit('ready', { device_id: this.deviceId }), 0);
      return true;
    }

    disconnect(): void {
      if (this.poll !== null) timers.clearInterval(this.poll);
      this.poll = null;
    }

    addListener(event: string, fn: (payload: never) => void): boolean {
      this.listeners.set(event, fn);
      return true;
    }

    removeListener(event: string): boolean {
      return this.listeners.delete(event);
    }
  }
  return { Player: EmulatedPlayer };
}
