import type { PlayerDevice, Track } from '@fanfare/protocol';
import { StateEmitter, type PlayerAdapter, type PlaybackState } from './types.ts';

/** A player that keeps only the timeline: no audio (tests and demos). */
export class MockPlayer implements PlayerAdapter {
  readonly kind = 'mock' as const;
  private readonly emitter = new StateEmitter();
  private startedAt = 0;
  private startPos = 0;
  private rate = 1;
  track: Track | null = null;
  queue: Track[] = [];

  constructor(private readonly now: () => number = () => Date.now()) {}

  async init(): Promise<void> {}

  async play(track: Track, positionMs: number): Promise<void> {
    this.track = track;
    this.startPos = positionMs;
    this.startedAt = this.now();
    this.emitter.update({ isPaused: false, isLoading: false, needsGesture: false });
  }

  async setRate(rate: number): Promise<void> {
    // Rebase so the position is continuous across a rate change.
    this.startPos = this.positionMs();
    this.startedAt = this.now();
    this.rate = rate;
  }

  get playbackRate(): number {
    return this.rate;
  }

  async pause(): Promise<void> {
    this.startPos = this.positionMs();
    this.emitter.update({ isPaused: true });
  }

  async enqueue(tracks: Track[]): Promise<void> {
    this.queue.push(...tracks);
  }

  async setVolume(volume: number): Promise<void> {
    this.emitter.update({ volume });
  }

  positionMs(): number {
    if (this.emitter.state.isPaused) return this.startPos;
    return this.startPos + (this.now() - this.startedAt) * this.rate;
  }

  currentTrackId(): string | null {
    return this.track?.id ?? null;
  }

  async devices(): Promise<PlayerDevice[]> {
    return [{ id: 'mock', is_active: true }];
  }

  onState(listener: (s: PlaybackState) => void): () => void {
    return this.emitter.on(listener);
  }

  destroy(): void {
    this.emitter.clear();
  }
}
