/**
 * The one in-page playback state model (spec §3) and its broadcast (spec §4: a document event on
 * every change). Progress moves only when time goes back or by at least 1000 ms (spec §9).
 */
import { PLAYER_INITIAL_VOLUME, PROGRESS_UPDATE_MIN_MS, type PlaybackState } from '@fanfare/protocol';
import { Emitter } from '../emitter.ts';

/** Spec §3 defaults. */
export function initialPlaybackState(): PlaybackState {
  return {
    currentTrack: null,
    isPaused: true,
    repeatMode: 'off',
    isShuffle: false,
    progressMs: 0,
    isLoading: false,
    volume: PLAYER_INITIAL_VOLUME,
    supportsVolume: true,
  };
}

/** Spec §9: an update is due when time moves back or forward by at least 1000 ms. */
export function isProgressUpdateDue(previousMs: number, nextMs: number): boolean {
  return nextMs < previousMs || nextMs - previousMs >= PROGRESS_UPDATE_MIN_MS;
}

export class PlaybackStore {
  private current: PlaybackState = initialPlaybackState();
  private readonly emitter = new Emitter<{ change: PlaybackState }>();

  constructor(private readonly broadcast: (state: PlaybackState) => void) {}

  get state(): PlaybackState {
    return this.current;
  }

  subscribe(fn: (state: PlaybackState) => void): () => void {
    return this.emitter.on('change', fn);
  }

  /** Merges `patch`; broadcasts only when a field changed. */
  update(patch: Partial<PlaybackState>): void {
    const next = { ...this.current, ...patch };
    const changed = (Object.keys(patch) as Array<keyof PlaybackState>).some((k) => k !== 'originalEvent' && next[k] !== this.current[k]);
    if (!changed) return;
    this.current = next;
    this.broadcast(next);
    this.emitter.emit('change', next);
  }

  /** Applies a progress reading under the spec §9 rule (unless `force`, used on track change and seek). */
  updateProgress(ms: number, force = false): void {
    const capped = Math.max(0, Math.round(ms));
    if (force || isProgressUpdateDue(this.current.progressMs, capped)) this.update({ progressMs: capped });
  }

  reset(): void {
    this.update(initialPlaybackState());
  }

  destroy(): void {
    this.emitter.clear();
  }
}
