/**
 * Spotify-style player over an injected Web Playback SDK (spec §4, §8, §9). Commands go through
 * the Web API to the chosen device (the in-page one unless another was picked).
 */
import { PROGRESS_TICK_MS, type PlaybackDevice, type PlaybackTrack, type RepeatMode } from '@fanfare/protocol';
import type { Logger, TimerApi } from '../env.ts';
import type { SpotifyPlayerApi } from './spotifyApi.ts';
import type { PlaybackStore } from './state.ts';
import type { Player, PlayRequest } from './types.ts';

/** `Spotify.PlaybackState` as the SDK reports it (the fields we read). */
export interface SpotifyWebPlaybackState {
  paused: boolean;
  position: number;
  duration: number;
  shuffle: boolean;
  repeat_mode: 0 | 1 | 2;
  loading?: boolean;
  track_window: {
    current_track: { id: string | null; uri: string; name: string; duration_ms: number; artists: Array<{ name: string }>; album: { name: string; images: Array<{ url: string }> } } | null;
  };
}

export interface SpotifyWebPlayer {
  connect(): Promise<boolean>;
  disconnect(): void;
  // Spotify's SDK answers true; its types (`@types/spotify-web-playback-sdk`) say void: unread here.
  // The payload differs per event (the SDK's overloads): each listener names its own.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  addListener(event: string, fn: (payload: any) => void): unknown;
  removeListener(event: string): unknown;
}

/** `window.Spotify` of the Web Playback SDK (injected). */
export interface SpotifySdk {
  Player: new (options: { name: string; getOAuthToken: (cb: (token: string) => void) => void; volume: number }) => SpotifyWebPlayer;
}

const REPEAT_BY_SDK: RepeatMode[] = ['off', 'context', 'track'];

export function spotifyTrackOf(state: SpotifyWebPlaybackState): PlaybackTrack | null {
  const t = state.track_window.current_track;
  if (!t) return null;
  return {
    id: t.id ?? t.uri.split(':').pop()!,
    name: t.name,
    artists: t.artists.map((a) => a.name),
    album: t.album.name,
    durationMs: t.duration_ms,
    image: t.album.images[0]?.url ?? null,
  };
}

export interface SpotifyPlayerOptions {
  sdk: SpotifySdk;
  api: SpotifyPlayerApi;
  serviceToken: () => string;
  /** Spec §9: the product's short name. */
  name: string;
  timers: TimerApi;
  logger: Logger;
  onInitError: (message: string) => void;
}

export class SpotifyPlayer implements Player {
  readonly kind = 'spotify';
  private readonly player: SpotifyWebPlayer;
  private ownDeviceId: string | null = null;
  private chosenDeviceId: string | null = null;
  private tick: unknown = null;
  /** Set by a transfer; the first state change after it, when paused, is forced to playing (latest transfer only). */
  private forcePlayAfterTransfer = false;

  constructor(
    readonly store: PlaybackStore,
    private readonly o: SpotifyPlayerOptions,
  ) {
    store.update({ isLoading: true });
    this.player = new o.sdk.Player({ name: o.name, getOAuthToken: (cb) => cb(o.serviceToken()), volume: store.state.volume });
    const endLoading = (what: string) => (e: { message?: string }) => {
      o.logger.warn(`Spotify player ${what}`, e?.message);
      store.update({ isLoading: false });
    };
    this.player.addListener('ready', ({ device_id }: { device_id: string }) => {
      this.ownDeviceId = device_id;
      this.chosenDeviceId ??= device_id;
      store.update({ isLoading: false });
    });
    this.player.addListener('not_ready', endLoading('not ready'));
    this.player.addListener('initialization_error', (e: { message: string }) => {
      o.logger.error('Spotify player initialization error', e.message);
      store.update({ isLoading: false });
      o.onInitError(e.message);
    });
    this.player.addListener('authentication_error', endLoading('authentication error'));
    this.player.addListener('account_error', endLoading('account error'));
    this.player.addListener('playback_error', endLoading('playback error'));
    this.player.addListener('player_state_changed', (s: SpotifyWebPlaybackState | null) => this.onState(s));
    void this.player.connect();
  }

  get deviceId(): string | null {
    return this.chosenDeviceId;
  }

  private onState(s: SpotifyWebPlaybackState | null): void {
    if (!s) return;
    // Spec §4: only the first state change after the latest transfer may be forced to playing.
    // The flag is spent by that first state whatever it reports, so a later real pause shows.
    const isPaused = s.paused && !this.forcePlayAfterTransfer;
    this.forcePlayAfterTransfer = false;
    this.store.update({
      currentTrack: spotifyTrackOf(s),
      isPaused,
      isShuffle: s.shuffle,
      repeatMode: REPEAT_BY_SDK[s.repeat_mode] ?? 'off',
      isLoading: s.loading ?? false,
      originalEvent: s,
    });
    this.store.updateProgress(s.position, true);
    this.syncTick();
  }

  /** Spec §9: progress advances every 1000 ms while playing, capped at the track's length. */
  private syncTick(): void {
    const playing = !this.store.state.isPaused;
    if (playing && this.tick === null) {
      this.tick = this.o.timers.setInterval(() => {
        const { progressMs, currentTrack } = this.store.state;
        const cap = currentTrack?.durationMs ?? Number.POSITIVE_INFINITY;
        const next = Math.min(progressMs + PROGRESS_TICK_MS, cap);
        this.store.updateProgress(next, next === cap); // the end of the track always shows
      }, PROGRESS_TICK_MS);
    } else if (!playing && this.tick !== null) {
      this.o.timers.clearInterval(this.tick);
      this.tick = null;
    }
  }

  private device(request?: { deviceId?: string }): string | undefined {
    return request?.deviceId ?? this.chosenDeviceId ?? undefined;
  }

  async play(request?: PlayRequest): Promise<void> {
    if (request) await this.o.api.play(request, this.device(request));
    else await this.o.api.resume(this.device());
  }
  async pause(): Promise<void> {
    await this.o.api.pause(this.device());
  }
  async seek(positionMs: number): Promise<void> {
    await this.o.api.seek(positionMs, this.device());
    this.store.updateProgress(positionMs, true);
  }
  async next(): Promise<void> {
    await this.o.api.next(this.device());
  }
  async previous(): Promise<void> {
    await this.o.api.previous(this.device());
  }
  async setVolume(fraction: number): Promise<void> {
    await this.o.api.volume(fraction, this.device());
    this.store.update({ volume: fraction });
  }
  async setShuffle(on: boolean): Promise<void> {
    await this.o.api.shuffle(on, this.device());
    this.store.update({ isShuffle: on });
  }
  async setRepeat(mode: RepeatMode): Promise<void> {
    await this.o.api.repeat(mode, this.device());
    this.store.update({ repeatMode: mode });
  }
  devices(): Promise<PlaybackDevice[]> {
    return this.o.api.devices();
  }
  /** Moves playback to `deviceId`; the first paused state afterwards counts as playing. */
  async transfer(deviceId: string, play = true): Promise<void> {
    this.forcePlayAfterTransfer = true;
    this.chosenDeviceId = deviceId;
    await this.o.api.transfer(deviceId, play);
  }

  /** The in-page device id once the SDK is ready. */
  get sdkDeviceId(): string | null {
    return this.ownDeviceId;
  }

  destroy(): void {
    if (this.tick !== null) this.o.timers.clearInterval(this.tick);
    this.tick = null;
    for (const e of ['ready', 'not_ready', 'initialization_error', 'authentication_error', 'account_error', 'playback_error', 'player_state_changed']) this.player.removeListener(e);
    this.player.disconnect();
  }
}
