/**
 * Apple-style player over an injected MusicKit instance (spec §4, §8, §9).
 */
import { APPLE_QUEUE_MAX, SEEK_CORRECTION_TOLERANCE_MS, type PlaybackState, type PlaybackTrack, type RepeatMode } from '@fanfare/protocol';
import type { Logger } from '../env.ts';
import { SDK_ERRORS } from '../errors.ts';
import type { PlaybackStore } from './state.ts';
import type { Player, PlayRequest } from './types.ts';

/** MusicKit's ten playback states by their numeric value. */
export const APPLE_PLAYBACK_STATES = {
  0: 'none',
  1: 'loading',
  2: 'playing',
  3: 'paused',
  4: 'stopped',
  5: 'ended',
  6: 'seeking',
  8: 'waiting',
  9: 'stalled',
  10: 'completed',
} as const;
export type ApplePlaybackStateName = (typeof APPLE_PLAYBACK_STATES)[keyof typeof APPLE_PLAYBACK_STATES];

/** Spec §4: playing → playing; none, stopped, ended, completed, paused → paused; loading, waiting, seeking (and stalled) → loading. */
export function mapAppleState(state: number | ApplePlaybackStateName): Partial<Pick<PlaybackState, 'isPaused' | 'isLoading'>> | null {
  const name = typeof state === 'number' ? APPLE_PLAYBACK_STATES[state as keyof typeof APPLE_PLAYBACK_STATES] : state;
  switch (name) {
    case 'playing':
      return { isPaused: false, isLoading: false };
    case 'none':
    case 'paused':
    case 'stopped':
    case 'ended':
    case 'completed':
      return { isPaused: true, isLoading: false };
    case 'loading':
    case 'waiting':
    case 'seeking':
    case 'stalled':
      return { isLoading: true };
    default:
      return null;
  }
}

export interface MusicKitMediaItem {
  id: string;
  attributes?: { name?: string; artistName?: string; albumName?: string; durationInMillis?: number; artwork?: { url?: string } };
}

/** MusicKit's `setQueue` options the player sends (`MusicKit.SetQueueOptions`). */
export interface MusicKitQueueOptions {
  songs?: string[];
  song?: string;
  album?: string;
  playlist?: string;
  startPosition?: number;
}

/** The part of MusicKit's instance the player uses (v3 API, injected). */
export interface MusicKitPlayer {
  readonly playbackState: number;
  readonly currentPlaybackTime: number;
  readonly nowPlayingItem: MusicKitMediaItem | null | undefined;
  volume: number;
  shuffleMode: number;
  readonly queue: { items: MusicKitMediaItem[] };
  addEventListener(name: string, fn: (event: unknown) => void): void;
  removeEventListener(name: string, fn: (...args: never[]) => unknown): void;
  setQueue(options: MusicKitQueueOptions): Promise<unknown>;
  play(): Promise<unknown>;
  pause(): unknown;
  stop(): unknown;
  seekToTime(seconds: number): Promise<unknown>;
  skipToNextItem(): Promise<unknown>;
  skipToPreviousItem(): Promise<unknown>;
  changeToMediaAtIndex(index: number): Promise<unknown>;
}

export function appleTrackOf(item: MusicKitMediaItem | null | undefined): PlaybackTrack | null {
  if (!item) return null;
  const a = item.attributes ?? {};
  return {
    id: item.id,
    name: a.name ?? '',
    artists: a.artistName ? [a.artistName] : [],
    album: a.albumName ?? '',
    durationMs: a.durationInMillis ?? 0,
    image: a.artwork?.url?.replace('{w}', '300').replace('{h}', '300') ?? null,
  };
}

const UNSUITABLE = /unsuitable media provider object/i;

export class ApplePlayer implements Player {
  readonly kind = 'apple';
  private readonly handlers: Array<[string, (e: unknown) => void]> = [];
  /** Id of the latest start-at-offset request; an older one's seek is dropped. */
  private seekRequest = 0;
  private pendingSeek: { request: number; positionMs: number } | null = null;

  constructor(
    private readonly mk: MusicKitPlayer,
    readonly store: PlaybackStore,
    private readonly logger: Logger,
    private readonly onInitError: (message: string) => void,
  ) {
    this.listen('playbackStateDidChange', (e) => {
      const state = (e as { state?: number } | null)?.state ?? mk.playbackState;
      const mapped = mapAppleState(state);
      if (mapped) store.update({ ...mapped, originalEvent: e });
      this.maybeSeek();
    });
    this.listen('nowPlayingItemDidChange', (e) => {
      store.update({ currentTrack: appleTrackOf(mk.nowPlayingItem), originalEvent: e });
      store.updateProgress(0, true);
    });
    this.listen('playbackTimeDidChange', () => {
      store.updateProgress(mk.currentPlaybackTime * 1000);
      this.maybeSeek();
    });
    this.listen('playbackVolumeDidChange', () => store.update({ volume: mk.volume }));
    store.update({ volume: mk.volume, currentTrack: appleTrackOf(mk.nowPlayingItem) });
  }

  private listen(name: string, fn: (e: unknown) => void): void {
    this.mk.addEventListener(name, fn);
    this.handlers.push([name, fn]);
  }

  /** Seeks once playback runs and is more than 2000 ms off the wanted position (spec §4). */
  private maybeSeek(): void {
    const pending = this.pendingSeek;
    if (!pending || pending.request !== this.seekRequest) return;
    if (mapAppleState(this.mk.playbackState)?.isPaused !== false) return;
    this.pendingSeek = null;
    if (Math.abs(this.mk.currentPlaybackTime * 1000 - pending.positionMs) > SEEK_CORRECTION_TOLERANCE_MS) {
      void this.mk.seekToTime(pending.positionMs / 1000);
    }
  }

  private async guardedPlay(): Promise<void> {
    try {
      await this.mk.play();
    } catch (err) {
      if (err instanceof Error && UNSUITABLE.test(err.message)) {
        this.logger.error(SDK_ERRORS.playbackUnsupported, err);
        this.onInitError(SDK_ERRORS.playbackUnsupported);
        return;
      }
      throw err;
    }
  }

  /** Spec §8/§9: every queue (a track list, an album, a playlist) holds at most APPLE_QUEUE_MAX tracks. */
  private async setQueue(options: MusicKitQueueOptions): Promise<void> {
    const songs = options.songs;
    if (songs && songs.length > APPLE_QUEUE_MAX) {
      this.logger.warn(`Apple Music queue of ${songs.length} tracks truncated to ${APPLE_QUEUE_MAX}`);
      options = { ...options, songs: songs.slice(0, APPLE_QUEUE_MAX) };
    }
    await this.mk.setQueue(options);
    // Albums and playlists: MusicKit queues their tracks itself, so the cap applies to what it queued.
    const items = this.mk.queue.items;
    if (items.length > APPLE_QUEUE_MAX) {
      this.logger.warn(`Apple Music queue of ${items.length} tracks truncated to ${APPLE_QUEUE_MAX}`);
      const { startPosition } = options;
      await this.mk.setQueue({ songs: items.slice(0, APPLE_QUEUE_MAX).map((i) => i.id), ...(startPosition === undefined ? {} : { startPosition }) });
    }
  }

  async play(request?: PlayRequest): Promise<void> {
    if (!request) return this.guardedPlay();
    if (request.type === 'track' && request.positionMs !== undefined) return this.playTrackAt(request.id, request.positionMs);
    const offset = request.type === 'track' ? 0 : (request.offset ?? 0);
    if (request.type === 'tracks') await this.setQueue({ songs: request.ids, startPosition: offset });
    else if (request.type === 'track') await this.setQueue({ song: request.id, startPosition: offset });
    else await this.setQueue({ [request.type]: request.id, startPosition: offset });
    this.store.updateProgress(0, true);
    await this.guardedPlay();
  }

  /** Spec §4: stop, find the track in the queue (or queue it), jump to it, seek once it plays. */
  async playTrackAt(trackId: string, positionMs: number): Promise<void> {
    const request = ++this.seekRequest;
    this.pendingSeek = null;
    await this.mk.stop();
    let index = this.mk.queue.items.findIndex((i) => i.id === trackId);
    if (index < 0) {
      await this.setQueue({ songs: [trackId] });
      index = 0;
    }
    if (request !== this.seekRequest) return; // a newer request took over while we waited
    await this.mk.changeToMediaAtIndex(index);
    this.pendingSeek = { request, positionMs };
    await this.guardedPlay();
    this.maybeSeek();
  }

  async pause(): Promise<void> {
    await this.mk.pause();
  }

  async seek(positionMs: number): Promise<void> {
    await this.mk.seekToTime(positionMs / 1000);
    this.store.updateProgress(positionMs, true);
  }

  async next(): Promise<void> {
    await this.mk.skipToNextItem();
  }

  async previous(): Promise<void> {
    await this.mk.skipToPreviousItem();
  }

  async setVolume(fraction: number): Promise<void> {
    this.mk.volume = Math.min(1, Math.max(0, fraction));
  }

  async setShuffle(on: boolean): Promise<void> {
    this.mk.shuffleMode = on ? 1 : 0;
    this.store.update({ isShuffle: on });
  }

  /** Spec §8: repeat is not implemented for Apple Music; the promise rejects (callers `await` or `.catch`). */
  async setRepeat(_mode: RepeatMode): Promise<void> {
    throw new Error(SDK_ERRORS.appleRepeat);
  }

  destroy(): void {
    for (const [name, fn] of this.handlers) this.mk.removeEventListener(name, fn);
    this.handlers.length = 0;
    this.pendingSeek = null;
  }
}
