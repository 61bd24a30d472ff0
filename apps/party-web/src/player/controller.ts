import type { PlayerDevice, PlayerStatus, Track } from '@fanfare/protocol';
import { positionNowMs } from '../rules/playback.ts';
import { MediaSupportError, type PlayerAdapter } from './types.ts';

/** Drift beyond which a playing track is re-aligned with the party timeline (players without seek). */
export const DRIFT_TOLERANCE_MS = 1_500;
/** The same for players that can seek cheaply in buffered media (HLS, mock). */
export const SEEKABLE_DRIFT_TOLERANCE_MS = 250;
/** Error within which a fine alignment stops: below what two listeners in one room notice. */
export const FINE_SYNC_TOLERANCE_MS = 8;
/** Fine alignment attempts after a start or a drift. */
export const FINE_SYNC_ATTEMPTS = 5;

export interface PlayerControllerDeps {
  adapter: PlayerAdapter;
  status: () => PlayerStatus | null;
  clockOffsetMs: () => number;
  now?: () => number;
  /** A player initialisation error (spec 8): the app shows its media-support error state. */
  onMediaError: (err: unknown) => void;
  onDevices?: (devices: PlayerDevice[]) => void;
  onManualPause?: (paused: boolean) => void;
}

/**
 * The player rules of spec 4: initialised once; play starts the current track at progress_ms
 * (corrected by the clock offset), then loads devices and clears the manual-pause flag; a track
 * change sets the status and plays unless manually paused; a queue change enqueues; pause sets
 * the manual-pause flag.
 */
export class PlayerController {
  private initPromise: Promise<boolean> | null = null;
  private manualPause = false;
  private readonly now: () => number;
  /** How far behind its target the player lands after a seek (learned): seeks aim that far ahead. */
  private seekLagMs = 0;

  constructor(private readonly deps: PlayerControllerDeps) {
    this.now = deps.now ?? (() => Date.now());
  }

  /** The player service this controller drives. */
  get adapter(): PlayerAdapter {
    return this.deps.adapter;
  }

  async setVolume(volume: number): Promise<void> {
    await this.deps.adapter.setVolume(volume);
  }

  get isManuallyPaused(): boolean {
    return this.manualPause;
  }

  /** Initialises the service once (call only when authenticated); false after a media error. */
  init(): Promise<boolean> {
    this.initPromise ??= this.deps.adapter.init().then(
      () => true,
      (err: unknown) => {
        this.deps.onMediaError(err);
        return false;
      },
    );
    return this.initPromise;
  }

  /** Play: the current track at the corrected position, then devices, then clear manual pause. */
  async play(): Promise<void> {
    if (!(await this.init())) return;
    const status = this.deps.status();
    if (!status || status.is_paused) return;
    try {
      await this.deps.adapter.play(status.track, positionNowMs(status, this.now(), this.deps.clockOffsetMs()));
      await this.alignFinely();
    } catch (err) {
      if (err instanceof MediaSupportError) this.deps.onMediaError(err);
      else throw err;
      return;
    }
    const devices = await this.deps.adapter.devices().catch(() => []);
    this.deps.onDevices?.(devices);
    this.setManualPause(false);
  }

  /** Track change (spec 4): the status is already set by the caller; plays unless manually paused. */
  async onTrackChange(): Promise<void> {
    if (this.manualPause) return;
    const status = this.deps.status();
    if (status?.is_paused) {
      await this.deps.adapter.pause();
      return;
    }
    await this.play();
  }

  /** Queue change (spec 4): enqueues the tracks. */
  async onQueueChange(tracks: Track[]): Promise<void> {
    if (!(await this.init())) return;
    await this.deps.adapter.enqueue(tracks);
  }

  /** Pause by the fan (spec 4): sets the manual-pause flag. */
  async pause(): Promise<void> {
    this.setManualPause(true);
    await this.deps.adapter.pause();
  }

  /** Re-aligns with the timeline when the position drifted (e.g. after a stall). */
  async realign(): Promise<boolean> {
    const status = this.deps.status();
    if (this.manualPause || !status || status.is_paused) return false;
    const expected = positionNowMs(status, this.now(), this.deps.clockOffsetMs());
    const canSeek = typeof this.deps.adapter.seek === 'function';
    const tolerance = canSeek ? SEEKABLE_DRIFT_TOLERANCE_MS : DRIFT_TOLERANCE_MS;
    if (Math.abs(this.deps.adapter.positionMs() - expected) <= tolerance) return false;
    if (canSeek) await this.alignFinely();
    else await this.play();
    return true;
  }

  /**
   * The position a start computes is stale by the time the stream has loaded: measure the error
   * once playback runs and seek to the timeline. A seek lands behind its target by the time audio
   * takes to resume; each landing error teaches that lag, and the next seek aims ahead by it.
   * Bounded to a few attempts; a player without seek keeps its start position.
   */
  private async alignFinely(): Promise<void> {
    const { adapter } = this.deps;
    if (!adapter.seek) return;
    let seeked = false;
    for (let attempt = 0; attempt <= FINE_SYNC_ATTEMPTS; attempt++) {
      const status = this.deps.status();
      if (!status || status.is_paused || this.manualPause) return;
      const error = positionNowMs(status, this.now(), this.deps.clockOffsetMs()) - adapter.positionMs();
      if (seeked) this.seekLagMs = Math.min(1_000, Math.max(0, this.seekLagMs + error));
      if (Math.abs(error) <= FINE_SYNC_TOLERANCE_MS || attempt === FINE_SYNC_ATTEMPTS) return;
      await adapter.seek(positionNowMs(status, this.now(), this.deps.clockOffsetMs()) + this.seekLagMs);
      seeked = true;
    }
  }

  destroy(): void {
    this.deps.adapter.destroy();
  }

  private setManualPause(paused: boolean): void {
    this.manualPause = paused;
    this.deps.onManualPause?.(paused);
  }
}
