import type { PlayerDevice, PlayerStatus, Track } from '@fanfare/protocol';
import { positionNowMs } from '../rules/playback.ts';
import { MediaSupportError, type PlayerAdapter } from './types.ts';

/** Drift beyond which a playing track is re-aligned with the party timeline. */
export const DRIFT_TOLERANCE_MS = 1_500;

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
    if (Math.abs(this.deps.adapter.positionMs() - expected) <= DRIFT_TOLERANCE_MS) return false;
    await this.play();
    return true;
  }

  destroy(): void {
    this.deps.adapter.destroy();
  }

  private setManualPause(paused: boolean): void {
    this.manualPause = paused;
    this.deps.onManualPause?.(paused);
  }
}
