/**
 * The mock player (spec §4): plays a mock queue on a clock, with no provider. It moves to the
 * next track when progress reaches the duration; previous and next reset progress to 0 and
 * unpause; with no current track it is paused.
 */
import { PROGRESS_TICK_MS, type MockQueue, type RepeatMode } from '@fanfare/protocol';
import type { TimerApi } from '../env.ts';
import type { PlaybackStore } from './state.ts';
import type { Player, PlayRequest } from './types.ts';

/** Spec §4: mock mode is on when the global testing flag or the mock-player flag is set. */
export const MOCK_FLAGS = { testing: '__FANFARE_TESTING__', mockPlayer: '__FANFARE_MOCK_PLAYER__' } as const;

export class MockPlayer implements Player {
  readonly kind = 'mock';
  private queue: MockQueue = { tracks: [], index: 0 };
  private tick: unknown = null;

  constructor(
    readonly store: PlaybackStore,
    private readonly timers: TimerApi,
    private readonly load: (request: PlayRequest) => Promise<MockQueue>,
  ) {}

  get currentQueue(): MockQueue {
    return this.queue;
  }

  private show(isPaused: boolean): void {
    const track = this.queue.tracks[this.queue.index] ?? null;
    this.store.update({ currentTrack: track, isPaused: track ? isPaused : true, isLoading: false });
    this.store.updateProgress(0, true);
    this.sync();
  }

  private sync(): void {
    const playing = !this.store.state.isPaused;
    if (playing && this.tick === null) this.tick = this.timers.setInterval(() => this.advance(), PROGRESS_TICK_MS);
    if (!playing && this.tick !== null) {
      this.timers.clearInterval(this.tick);
      this.tick = null;
    }
  }

  private advance(): void {
    const { progressMs, currentTrack, repeatMode } = this.store.state;
    if (!currentTrack) return this.show(true);
    const next = progressMs + PROGRESS_TICK_MS;
    if (next < currentTrack.durationMs) return this.store.updateProgress(next);
    if (repeatMode === 'track') return this.show(false);
    void this.next();
  }

  async play(request?: PlayRequest): Promise<void> {
    if (request) {
      this.store.update({ isLoading: true });
      this.queue = await this.load(request);
      this.show(false);
      if (request.positionMs) this.store.updateProgress(request.positionMs, true);
      return;
    }
    this.store.update({ isPaused: !this.store.state.currentTrack });
    this.sync();
  }
  async pause(): Promise<void> {
    this.store.update({ isPaused: true });
    this.sync();
  }
  async seek(positionMs: number): Promise<void> {
    this.store.updateProgress(Math.min(positionMs, this.store.state.currentTrack?.durationMs ?? 0), true);
  }
  async next(): Promise<void> {
    const last = this.queue.tracks.length - 1;
    if (this.queue.index < last) this.queue = { ...this.queue, index: this.queue.index + 1 };
    else if (this.store.state.repeatMode === 'context') this.queue = { ...this.queue, index: 0 };
    else {
      // End of the queue: nothing more to play.
      this.queue = { ...this.queue, index: this.queue.tracks.length };
    }
    this.show(false);
  }
  async previous(): Promise<void> {
    this.queue = { ...this.queue, index: Math.max(0, Math.min(this.queue.index, this.queue.tracks.length) - 1) };
    this.show(false);
  }
  async setVolume(fraction: number): Promise<void> {
    this.store.update({ volume: Math.min(1, Math.max(0, fraction)) });
  }
  async setShuffle(on: boolean): Promise<void> {
    this.store.update({ isShuffle: on });
  }
  async setRepeat(mode: RepeatMode): Promise<void> {
    this.store.update({ repeatMode: mode });
  }
  destroy(): void {
    if (this.tick !== null) this.timers.clearInterval(this.tick);
    this.tick = null;
  }
}
