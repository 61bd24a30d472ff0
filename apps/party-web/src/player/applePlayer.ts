import type { PlayerDevice, Track } from '@fanfare/protocol';
import { StateEmitter, type PlayerAdapter, type PlaybackState } from './types.ts';

/** The subset of Apple's MusicKit JS instance (`MusicKit.getInstance()`) that we drive. */
export interface MusicKitInstance {
  setQueue(options: { songs: string[]; startPlaying?: boolean }): Promise<unknown>;
  playLater(options: { songs: string[] }): Promise<unknown>;
  play(): Promise<unknown>;
  pause(): unknown;
  seekToTime(seconds: number): Promise<unknown>;
  currentPlaybackTime: number;
  volume: number;
  isPlaying?: boolean;
  addEventListener(name: string, cb: (e: unknown) => void): void;
  unauthorize?(): unknown;
}

/** Apple's message for queue items it cannot find in the fan's storefront. */
export const APPLE_UNRESOLVED_ITEMS = 'One or more items could not be resolved';

/**
 * Spec 5: Apple enqueue errors containing 'One or more items could not be resolved' are
 * tolerated (playback goes on without those tracks); other errors are raised.
 */
export async function tolerateUnresolved<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (message.includes(APPLE_UNRESOLVED_ITEMS)) return undefined;
    throw err;
  }
}

/** An Apple-style player over MusicKit JS. Unit-tested against a fake MusicKit instance. */
export class ApplePlayer implements PlayerAdapter {
  readonly kind = 'apple' as const;
  private readonly emitter = new StateEmitter();

  constructor(private readonly music: MusicKitInstance) {}

  async init(): Promise<void> {
    this.music.addEventListener('playbackStateDidChange', () => {
      this.emitter.update({ isPaused: !this.music.isPlaying, isLoading: false });
    });
  }

  async play(track: Track, positionMs: number): Promise<void> {
    this.emitter.update({ isLoading: true });
    await tolerateUnresolved(() => this.music.setQueue({ songs: [track.id], startPlaying: false }));
    await this.music.play();
    if (positionMs > 0) await this.music.seekToTime(positionMs / 1000);
    this.emitter.update({ isPaused: false, isLoading: false });
  }

  async pause(): Promise<void> {
    this.music.pause();
  }

  async enqueue(tracks: Track[]): Promise<void> {
    if (tracks.length === 0) return;
    await tolerateUnresolved(() => this.music.playLater({ songs: tracks.map((t) => t.id) }));
  }

  async setVolume(volume: number): Promise<void> {
    this.music.volume = volume;
    this.emitter.update({ volume });
  }

  positionMs(): number {
    return this.music.currentPlaybackTime * 1000;
  }

  async devices(): Promise<PlayerDevice[]> {
    return [{ id: 'musickit', is_active: true }];
  }

  onState(listener: (s: PlaybackState) => void): () => void {
    return this.emitter.on(listener);
  }

  destroy(): void {
    this.emitter.clear();
  }
}
