import type { PlayerDevice, PlayerStatus, SourceReport, Track } from '@fanfare/protocol';
import { positionNowMs } from '../rules/playback.ts';
import { MediaSupportError, StreamInterruptedError, type PlaybackState, type PlayerAdapter } from './types.ts';

/** Drift beyond which a playing track is re-aligned with the party timeline (players without seek). */
export const DRIFT_TOLERANCE_MS = 1_500;
/** The same for players that can seek cheaply in buffered media (HLS, mock). */
export const SEEKABLE_DRIFT_TOLERANCE_MS = 250;
/** Error within which a fine alignment stops: below what two listeners in one room notice. */
export const FINE_SYNC_TOLERANCE_MS = 8;
/**
 * Seeks per fine alignment (after a start or a drift). Not a limit on correcting: whatever error
 * is left is taken up by the continuous sync (playback rate), which never stops.
 */
export const FINE_SYNC_ATTEMPTS = 5;
/** How often the continuous sync measures the error while the player runs (issue 16). */
export const SYNC_STEP_MS = 250;
/**
 * An error past this, on NUDGE_CONFIRM_STEPS steps in a row, starts a rate nudge. Below it the
 * player is left alone: measured in Chromium, each switch from rate 1 to another rate costs the
 * media clock 18-25 ms (the audio output is refilled), so nudging a smaller error makes it worse.
 */
export const NUDGE_START_MS = 12;
/** Steps in a row the error must stay past NUDGE_START_MS (a single noisy reading does not nudge). */
export const NUDGE_CONFIRM_STEPS = 2;
/**
 * Steps in a row past the drift tolerance before the continuous sync seeks (2 s, like the
 * session's two drift ticks): the indicator names a large gap before it is closed, and a brief
 * stall that resolves by itself does not cost a seek.
 */
export const DRIFT_CONFIRM_STEPS = 8;
/** Rate deviation of a nudge for errors up to NUDGE_LARGE_ERROR_MS (pitch is kept; 2 % is not heard). */
export const NUDGE_RATE_SMALL = 0.02;
/** Rate deviation of a nudge for larger errors (up to the seek threshold). */
export const NUDGE_RATE_LARGE = 0.05;
export const NUDGE_LARGE_ERROR_MS = 60;
/** How long a heal lets a waiting stream catch up by itself before it restarts it. */
export const STALL_WAIT_MS = 1_000;

export interface PlayerControllerDeps {
  adapter: PlayerAdapter;
  status: () => PlayerStatus | null;
  clockOffsetMs: () => number;
  now?: () => number;
  /** A player initialisation error (spec 8): the app shows its media-support error state. */
  onMediaError: (err: unknown) => void;
  onDevices?: (devices: PlayerDevice[]) => void;
  onManualPause?: (paused: boolean) => void;
  /** The player started or finished realigning with the timeline (the status shows "catching up"). */
  onCatchingUp?: (isCatchingUp: boolean) => void;
  /** The measured offset: timeline position minus player position (positive: behind), null while silent. */
  onOffset?: (offsetMs: number | null) => void;
}

/** What one continuous-sync step did. */
export type SyncAction = 'idle' | 'busy' | 'none' | 'rate' | 'seek';

/**
 * The rate of a nudge for an error (timeline minus player; positive: behind): faster when behind,
 * slower when ahead. One rate for the whole nudge, since every rate switch costs time.
 */
export function nudgeRateFor(errorMs: number): number {
  const deviation = Math.abs(errorMs) > NUDGE_LARGE_ERROR_MS ? NUDGE_RATE_LARGE : NUDGE_RATE_SMALL;
  return errorMs > 0 ? 1 + deviation : 1 - deviation;
}

/** Why a heal runs: each is a moment the player may have lost the timeline (issue 15). */
export type HealReason = 'reconnected' | 'stalled' | 'visible' | 'drift' | 'fan';

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
  /** The adapter's last reported state (playing, loading, needs a click). */
  private playback: PlaybackState | null = null;
  private healing: Promise<boolean> | null = null;
  private stepping = false;
  /** Steps in a row with the error past NUDGE_START_MS. */
  private pastStartSteps = 0;
  /** Steps in a row with the error past the drift tolerance. */
  private pastToleranceSteps = 0;
  /** The playback rate last set by the continuous sync (1 when not nudging). */
  private rate = 1;
  private syncTimer: ReturnType<typeof setInterval> | null = null;
  private readonly unsubscribe: () => void;
  /** What the fan hears through this player and why (issue 47); a live session opened later reports it. */
  sourceReport: SourceReport | null = null;

  constructor(private readonly deps: PlayerControllerDeps) {
    this.now = deps.now ?? (() => Date.now());
    this.unsubscribe = deps.adapter.onState((state) => {
      this.playback = state;
    });
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
      // A fresh start runs at normal speed; the continuous sync nudges again once it plays.
      await this.setRate(1);
      await this.deps.adapter.play(status.track, positionNowMs(status, this.now(), this.deps.clockOffsetMs()));
      await this.alignFinely();
    } catch (err) {
      if (err instanceof MediaSupportError) this.deps.onMediaError(err);
      // A stream cut by the network is retried by the next heal (socket back, tab back, drift).
      else if (!(err instanceof StreamInterruptedError)) throw err;
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
    return this.heal('drift');
  }

  /**
   * Brings the player back onto the timeline by itself (issue 15): after the socket reconnects,
   * the stream stalls, the tab returns, or drift. A player that should play but does not (stream
   * cut, wrong track after a missed track change) starts again at the timeline's position; one
   * that plays but drifted seeks. Never overrides the fan's own pause or the browser's need for a
   * click. Concurrent calls share one run. True when something was corrected.
   */
  heal(reason: HealReason): Promise<boolean> {
    // The network is back or the fan returned: retry a waiting stream now rather than at the end
    // of the stream library's own backoff (seconds), also when a heal under way waits on it.
    if (reason !== 'drift') this.deps.adapter.recover?.();
    this.healing ??= this.runHeal(reason).finally(() => {
      this.healing = null;
      this.deps.onCatchingUp?.(false);
      this.reportOffset();
    });
    return this.healing;
  }

  private async runHeal(reason: HealReason): Promise<boolean> {
    const status = this.deps.status();
    if (this.manualPause || !status || status.is_paused || this.playback?.needsGesture) return false;
    if (!(await this.init())) return false;
    const { adapter } = this.deps;
    if (this.playback?.isLoading) await this.waitWhileLoading(STALL_WAIT_MS);
    const heldTrack = adapter.currentTrackId?.() ?? status.track.id;
    const isSilent = !this.playback || this.playback.isPaused || this.playback.isLoading;
    if (isSilent || heldTrack !== status.track.id) {
      this.deps.onCatchingUp?.(true);
      await this.play();
      return true;
    }
    const expected = positionNowMs(status, this.now(), this.deps.clockOffsetMs());
    const canSeek = typeof adapter.seek === 'function';
    const tolerance = canSeek ? SEEKABLE_DRIFT_TOLERANCE_MS : DRIFT_TOLERANCE_MS;
    // A fan's tap resyncs whatever the drift; the automatic heals leave a small drift alone.
    if (reason !== 'fan' && Math.abs(adapter.positionMs() - expected) <= tolerance) return false;
    this.deps.onCatchingUp?.(true);
    if (canSeek) await this.alignFinely();
    else await this.play();
    return true;
  }

  /**
   * Starts the continuous sync (issue 16): every `intervalMs` one `syncStep`. Returns the stop;
   * `destroy` stops it too.
   */
  startSync(intervalMs: number = SYNC_STEP_MS): () => void {
    this.stopSync();
    const timer = setInterval(() => void this.syncStep().catch(() => undefined), intervalMs);
    this.syncTimer = timer;
    return () => {
      if (this.syncTimer === timer) this.stopSync();
    };
  }

  private stopSync(): void {
    if (this.syncTimer !== null) clearInterval(this.syncTimer);
    this.syncTimer = null;
  }

  /**
   * One step of the continuous sync (issue 16): measures the error against the timeline and
   * corrects it, every time, with no attempt limit. Past the drift tolerance for
   * DRIFT_CONFIRM_STEPS steps a seekable player seeks (a heal); below it, once the error stays past NUDGE_START_MS, a player with a rate
   * control plays 2 % (5 % for large errors) faster or slower until the error is closed, then
   * returns to rate 1. Smooth (no seek gap), and it cannot overshoot by more than half a step.
   */
  async syncStep(): Promise<SyncAction> {
    if (this.healing || this.stepping) return 'busy';
    const error = this.measureOffsetMs();
    if (error === null) {
      this.pastStartSteps = 0;
      this.pastToleranceSteps = 0;
      await this.setRate(1);
      return 'idle';
    }
    this.stepping = true;
    try {
      const { adapter } = this.deps;
      const tolerance = adapter.seek ? SEEKABLE_DRIFT_TOLERANCE_MS : DRIFT_TOLERANCE_MS;
      if (Math.abs(error) > tolerance) {
        this.pastStartSteps = 0;
        await this.setRate(1);
        if (++this.pastToleranceSteps < DRIFT_CONFIRM_STEPS) return 'none';
        this.pastToleranceSteps = 0;
        return (await this.heal('drift')) ? 'seek' : 'idle';
      }
      this.pastToleranceSteps = 0;
      if (!adapter.setRate) return 'none';
      if (this.rate !== 1) {
        // A nudge runs until the error is closed: crossed zero, or would cross before the next step.
        const closing = (this.rate - 1) * SYNC_STEP_MS;
        const isDone = Math.sign(error) !== Math.sign(this.rate - 1) || Math.abs(error) <= Math.abs(closing) / 2;
        if (!isDone) return 'rate';
        await this.setRate(1);
        return 'none';
      }
      this.pastStartSteps = Math.abs(error) > NUDGE_START_MS ? this.pastStartSteps + 1 : 0;
      if (this.pastStartSteps < NUDGE_CONFIRM_STEPS) return 'none';
      this.pastStartSteps = 0;
      await this.setRate(nudgeRateFor(error));
      return 'rate';
    } finally {
      this.stepping = false;
    }
  }

  /** The rate the continuous sync holds now (1 when not nudging). */
  get playbackRate(): number {
    return this.rate;
  }

  private async setRate(rate: number): Promise<void> {
    if (rate === this.rate || !this.deps.adapter.setRate) return;
    this.rate = rate;
    await this.deps.adapter.setRate(rate);
  }

  /** Waits (bounded) for a loading stream to play again. */
  private async waitWhileLoading(maxMs: number): Promise<void> {
    const steps = Math.ceil(maxMs / 100);
    for (let i = 0; i < steps && this.playback?.isLoading; i++) await new Promise((r) => setTimeout(r, 100));
  }

  /**
   * The fan's offset from the party, from the same clock sync the timeline uses: timeline position
   * minus player position (positive: behind). Null while the player is silent or the party paused.
   */
  measureOffsetMs(): number | null {
    const status = this.deps.status();
    if (!status || status.is_paused || !this.playback || this.playback.isPaused || this.playback.isLoading) return null;
    if ((this.deps.adapter.currentTrackId?.() ?? status.track.id) !== status.track.id) return null;
    return positionNowMs(status, this.now(), this.deps.clockOffsetMs()) - this.deps.adapter.positionMs();
  }

  /** Measures the offset and reports it to the UI. */
  reportOffset(): number | null {
    const offset = this.measureOffsetMs();
    this.deps.onOffset?.(offset);
    return offset;
  }

  /** True while the adapter should be playing but waits for data (a stalled stream). */
  get isStalled(): boolean {
    const status = this.deps.status();
    return !!status && !status.is_paused && !this.manualPause && !!this.playback && !this.playback.isPaused && this.playback.isLoading;
  }

  /** True when the timeline runs and the fan did not pause, but the player is silent. */
  get isSilentWhileLive(): boolean {
    const status = this.deps.status();
    return !!status && !status.is_paused && !this.manualPause && !!this.playback && this.playback.isPaused && !this.playback.needsGesture && !this.playback.isLoading;
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
    // Seek lag is learned at normal speed; the continuous sync resumes nudging afterwards.
    await this.setRate(1);
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
    this.stopSync();
    this.unsubscribe();
    this.deps.adapter.destroy();
  }

  private setManualPause(paused: boolean): void {
    this.manualPause = paused;
    this.deps.onManualPause?.(paused);
  }
}
