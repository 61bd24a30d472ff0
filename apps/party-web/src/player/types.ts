import type { PlayerDevice, Track } from '@fanfare/protocol';

/** Playback state of a player service (spec 3 "Playback state"). */
export interface PlaybackState {
  isPaused: boolean;
  isLoading: boolean;
  volume: number;
  supportsVolume: boolean;
  /** The browser refused to start audio without a click (autoplay policy). */
  needsGesture: boolean;
}

export const INITIAL_PLAYBACK: PlaybackState = { isPaused: true, isLoading: false, volume: 1, supportsVolume: true, needsGesture: false };

/** Kinds of player service: the three of the spec plus the mock (timeline only). */
export type PlayerKind = 'umg_hls' | 'spotify' | 'apple' | 'mock';

/** The browser cannot play this media (spec 8: sets the media-support error flag). */
export class MediaSupportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaSupportError';
  }
}

/**
 * The stream could not be loaded for now (network down, server unreachable): unlike a
 * MediaSupportError this heals, and the controller retries when the network returns.
 */
export class StreamInterruptedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamInterruptedError';
  }
}

/** One interface over every player service (spec 4 "Player"). */
export interface PlayerAdapter {
  readonly kind: PlayerKind;
  /** Prepares the service; throws MediaSupportError when it cannot play here. */
  init(): Promise<void>;
  /** Plays `track` from `positionMs`. */
  play(track: Track, positionMs: number): Promise<void>;
  pause(): Promise<void>;
  /** Adds tracks to the service's queue. */
  enqueue(tracks: Track[]): Promise<void>;
  setVolume(volume: number): Promise<void>;
  /** The current position in the current track. */
  positionMs(): number;
  /** Id of the track the service holds now (null before the first play); lets a heal notice a missed track change. */
  currentTrackId?(): string | null;
  /** Retries a waiting or failed stream at once (the network is back); players without one recover by themselves. */
  recover?(): void;
  /**
   * Moves within the current track, resolving once playback runs there. Only players that can
   * seek cheaply in buffered media offer it (HLS, mock); the controller then aligns finely.
   */
  seek?(positionMs: number): Promise<void>;
  /**
   * Plays faster or slower (1 is normal, pitch kept): the continuous sync closes small errors this
   * way instead of seeking (issue 16). Players without it are corrected only past their drift tolerance.
   */
  setRate?(rate: number): Promise<void>;
  devices(): Promise<PlayerDevice[]>;
  /** Subscribes to state changes; returns the unsubscribe. */
  onState(listener: (state: PlaybackState) => void): () => void;
  destroy(): void;
}

/** Shared listener bookkeeping for adapters. */
export class StateEmitter {
  private listeners = new Set<(s: PlaybackState) => void>();
  state: PlaybackState = { ...INITIAL_PLAYBACK };

  on(listener: (s: PlaybackState) => void): () => void {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  update(patch: Partial<PlaybackState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l(this.state);
  }

  clear(): void {
    this.listeners.clear();
  }
}
