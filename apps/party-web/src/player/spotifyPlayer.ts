import type { PlayerDevice, Track } from '@fanfare/protocol';
import { MediaSupportError, StateEmitter, type PlayerAdapter, type PlaybackState } from './types.ts';

/** The subset of Spotify's Web Playback SDK (`window.Spotify`) that we drive. */
export interface SpotifySdk {
  Player: new (options: { name: string; getOAuthToken: (cb: (token: string) => void) => void; volume?: number }) => SpotifySdkPlayer;
}
export interface SpotifySdkPlayer {
  connect(): Promise<boolean>;
  disconnect(): void;
  // The payload differs per event (the SDK's overloads): each listener names its own.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  addListener(event: string, cb: (payload: any) => void): unknown;
  pause(): Promise<void>;
  resume(): Promise<void>;
  setVolume(volume: number): Promise<void>;
}
interface SdkState {
  paused: boolean;
  loading?: boolean;
  position: number;
  timestamp?: number;
}

export interface SpotifyPlayerOptions {
  sdk: SpotifySdk;
  /** The fan's service token (refreshed by the session). */
  token: () => string | null;
  /** Base of the Web API (`https://api.spotify.com/v1`). */
  apiUrl: string;
  fetch?: typeof fetch;
  now?: () => number;
  name?: string;
}

/**
 * A Spotify-style player: the Web Playback SDK makes the browser a device, the Web API plays a
 * track on it at a position. Unit-tested against a fake SDK (the real one cannot load offline).
 */
export class SpotifyPlayer implements PlayerAdapter {
  readonly kind = 'spotify' as const;
  private readonly emitter = new StateEmitter();
  private player: SpotifySdkPlayer | null = null;
  private deviceId: string | null = null;
  private last: { position: number; at: number; paused: boolean } = { position: 0, at: 0, paused: true };
  private readonly fetch: typeof fetch;
  private readonly now: () => number;

  constructor(private readonly opts: SpotifyPlayerOptions) {
    this.fetch = opts.fetch ?? ((...a) => globalThis.fetch(...a));
    this.now = opts.now ?? (() => Date.now());
  }

  async init(): Promise<void> {
    const player = new this.opts.sdk.Player({
      name: this.opts.name ?? 'Fanfare Listening Party',
      getOAuthToken: (cb) => cb(this.opts.token() ?? ''),
      volume: 1,
    });
    this.player = player;
    const ready = new Promise<string>((resolve, reject) => {
      player.addListener('ready', (p: { device_id: string }) => resolve(p.device_id));
      const fail = (p: { message: string }) => reject(new MediaSupportError(p.message));
      player.addListener('initialization_error', fail);
      player.addListener('account_error', fail);
    });
    player.addListener('player_state_changed', (s: SdkState | null) => {
      if (!s) return;
      this.last = { position: s.position, at: this.now(), paused: s.paused };
      this.emitter.update({ isPaused: s.paused, isLoading: s.loading ?? false });
    });
    if (!(await player.connect())) throw new MediaSupportError('Spotify player could not connect');
    this.deviceId = await ready;
  }

  private async api(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await this.fetch(`${this.opts.apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${this.opts.token() ?? ''}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!res.ok) throw new Error(`Spotify ${method} ${path} failed: ${res.status}`);
    return res;
  }

  async play(track: Track, positionMs: number): Promise<void> {
    if (!this.deviceId) throw new Error('Spotify player not ready');
    this.emitter.update({ isLoading: true });
    await this.api('PUT', `/me/player/play?device_id=${encodeURIComponent(this.deviceId)}`, {
      uris: [`spotify:track:${track.id}`],
      position_ms: Math.round(positionMs),
    });
    this.last = { position: positionMs, at: this.now(), paused: false };
  }

  async pause(): Promise<void> {
    await this.player?.pause();
  }

  async enqueue(tracks: Track[]): Promise<void> {
    for (const t of tracks) {
      await this.api('POST', `/me/player/queue?uri=${encodeURIComponent(`spotify:track:${t.id}`)}&device_id=${encodeURIComponent(this.deviceId ?? '')}`);
    }
  }

  async setVolume(volume: number): Promise<void> {
    await this.player?.setVolume(volume);
    this.emitter.update({ volume });
  }

  positionMs(): number {
    return this.last.paused ? this.last.position : this.last.position + (this.now() - this.last.at);
  }

  async devices(): Promise<PlayerDevice[]> {
    const res = await this.api('GET', '/me/player/devices');
    const json = (await res.json()) as { devices?: { id: string | null; is_active: boolean; is_restricted?: boolean }[] };
    return (json.devices ?? []).filter((d) => d.id && !d.is_restricted).map((d) => ({ id: d.id!, is_active: d.is_active }));
  }

  onState(listener: (s: PlaybackState) => void): () => void {
    return this.emitter.on(listener);
  }

  destroy(): void {
    this.player?.disconnect();
    this.emitter.clear();
  }
}
