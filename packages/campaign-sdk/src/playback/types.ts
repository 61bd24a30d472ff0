import type { PlaybackDevice, RepeatMode } from '@fanfare/protocol';
import type { PlaybackStore } from './state.ts';

/** What to play (spec §7 "Play accepts playlist, album, track or tracks with an optional start position and device id"). */
export type PlayRequest =
  | { type: 'track'; id: string; positionMs?: number; deviceId?: string }
  | { type: 'tracks'; ids: string[]; offset?: number; positionMs?: number; deviceId?: string }
  | { type: 'album' | 'playlist'; id: string; offset?: number; positionMs?: number; deviceId?: string };

/** Every player (Apple-style, Spotify-style, HLS preview, mock) drives one `PlaybackStore`. */
export interface Player {
  readonly kind: 'apple' | 'spotify' | 'preview' | 'mock';
  readonly store: PlaybackStore;
  /** Starts `request`, or resumes when none is given. */
  play(request?: PlayRequest): Promise<void>;
  pause(): Promise<void>;
  seek(positionMs: number): Promise<void>;
  next(): Promise<void>;
  previous(): Promise<void>;
  /** 0..1 */
  setVolume(fraction: number): Promise<void>;
  setShuffle(on: boolean): Promise<void>;
  setRepeat(mode: RepeatMode): Promise<void>;
  devices?(): Promise<PlaybackDevice[]>;
  transfer?(deviceId: string, play?: boolean): Promise<void>;
  destroy(): void;
}
