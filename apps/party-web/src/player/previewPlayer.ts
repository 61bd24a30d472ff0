import { PREVIEW_SECONDS, type PlayerDevice, type Track } from '@fanfare/protocol';
import { StateEmitter, type PlaybackState, type PlayerAdapter } from './types.ts';

/** Length of a preview clip. */
export const PREVIEW_MS = PREVIEW_SECONDS * 1_000;
/** How often a running clip checks whether it reached its end. */
const CLIP_CHECK_MS = 250;

/**
 * 30 s previews (issue 47): for a fan whose provider cannot play and whose party does not allow the
 * label stream. Each track plays in sync with the party for 30 s from where the fan first hears it
 * (its start, or the moment they joined), then stops until the next track. Heals and seeks past the
 * clip's end play nothing, so the controller's corrections never lengthen it.
 */
export class PreviewPlayer implements PlayerAdapter {
  readonly kind: PlayerAdapter['kind'];
  private readonly emitter = new StateEmitter();
  /** Where each track's clip starts (ms into the track). */
  private readonly clipStart = new Map<string, number>();
  private track: Track | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ended = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly inner: PlayerAdapter,
    /** Told when a clip ends (true) or a new one starts (false). */
    private readonly onClipEnded: (ended: boolean) => void = () => undefined,
  ) {
    this.kind = inner.kind;
    this.unsubscribe = inner.onState((s) => this.emitter.update(s));
  }

  /** Where `track`'s clip ends (ms into the track), once it has started. */
  clipEndMs(trackId: string): number | null {
    const start = this.clipStart.get(trackId);
    return start === undefined ? null : start + PREVIEW_MS;
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async play(track: Track, positionMs: number): Promise<void> {
    this.track = track;
    if (!this.clipStart.has(track.id)) this.clipStart.set(track.id, positionMs);
    if (positionMs >= this.clipEndMs(track.id)!) return this.endClip();
    this.setEnded(false);
    await this.inner.play(track, positionMs);
    this.watch();
  }

  async seek(positionMs: number): Promise<void> {
    const end = this.track ? this.clipEndMs(this.track.id) : null;
    if (end !== null && positionMs >= end) return this.endClip();
    await this.inner.seek?.(positionMs);
  }

  async setRate(rate: number): Promise<void> {
    await this.inner.setRate?.(rate);
  }

  pause(): Promise<void> {
    this.stopWatching();
    return this.inner.pause();
  }

  enqueue(tracks: Track[]): Promise<void> {
    return this.inner.enqueue(tracks);
  }

  setVolume(volume: number): Promise<void> {
    return this.inner.setVolume(volume);
  }

  positionMs(): number {
    return this.inner.positionMs();
  }

  currentTrackId(): string | null {
    return this.track?.id ?? null;
  }

  recover(): void {
    if (!this.ended) this.inner.recover?.();
  }

  devices(): Promise<PlayerDevice[]> {
    return this.inner.devices();
  }

  onState(listener: (s: PlaybackState) => void): () => void {
    return this.emitter.on(listener);
  }

  destroy(): void {
    this.stopWatching();
    this.unsubscribe();
    this.emitter.clear();
    this.inner.destroy();
  }

  /** Checks the running clip against its end (also called by the timer). */
  checkClip(): void {
    const end = this.track ? this.clipEndMs(this.track.id) : null;
    if (end !== null && this.inner.positionMs() >= end) void this.endClip();
  }

  private watch(): void {
    this.stopWatching();
    this.timer = setInterval(() => this.checkClip(), CLIP_CHECK_MS);
  }

  private stopWatching(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  private async endClip(): Promise<void> {
    this.stopWatching();
    this.setEnded(true);
    await this.inner.pause();
    this.emitter.update({ isPaused: true, isLoading: false });
  }

  private setEnded(ended: boolean): void {
    if (this.ended === ended) return;
    this.ended = ended;
    this.onClipEnded(ended);
  }
}
