import type { PlayerDevice, Track } from '@fanfare/protocol';
import { MediaSupportError, StateEmitter, StreamInterruptedError, type PlayerAdapter, type PlaybackState } from './types.ts';

import type Hls from 'hls.js';
import { loadWithTimeout } from '../rules/loadTimeout.ts';

type HlsModule = { default: typeof Hls };
type HlsInstance = Hls;

/**
 * The internal streaming service `umg_hls` (spec 1): real audio through hls.js, which is loaded
 * only when this player starts (it is most of a bundle). Without Media Source Extensions (older
 * iOS) the browser plays HLS itself.
 */
export class HlsPlayer implements PlayerAdapter {
  readonly kind = 'umg_hls' as const;
  private readonly emitter = new StateEmitter();
  private hlsModule: HlsModule | null = null;
  private hls: HlsInstance | null = null;
  private native = false;
  private currentUrl: string | null = null;
  private currentTrack: string | null = null;
  /** The stream failed for good (hls.js gave up, e.g. a long network drop): the next play reloads it. */
  private failed = false;
  /** Ends a load still waiting for its playlist (a newer load or destroy replaced it). */
  private cancelLoad: (() => void) | null = null;

  constructor(
    readonly audio: HTMLAudioElement,
    private readonly loadHls: () => Promise<HlsModule> = () => loadWithTimeout(() => import('hls.js')),
  ) {
    audio.preload = 'auto';
    audio.addEventListener('playing', () => this.emitter.update({ isPaused: false, isLoading: false, needsGesture: false }));
    audio.addEventListener('pause', () => this.emitter.update({ isPaused: true }));
    audio.addEventListener('waiting', () => this.emitter.update({ isLoading: true }));
    audio.addEventListener('volumechange', () => this.emitter.update({ volume: audio.volume }));
    // The element failed (its source or the network): silent and no longer loading, which is what
    // the session's stall tick heals. Left "loading", a paused player matched no heal and stayed silent.
    audio.addEventListener('error', () => this.emitter.update({ isPaused: true, isLoading: false }));
  }

  /**
   * hls.js wherever Media Source Extensions exist, as hls.js advises; the browser's own HLS only
   * without them (older iOS). Chromium 156 answers canPlayType(HLS) with "maybe", and its own
   * player ends a 10 s network drop in a fatal MEDIA_ERR_SRC_NOT_SUPPORTED, where hls.js retries
   * the fragment and `recover()` restarts it the moment the network is back.
   */
  async init(): Promise<void> {
    if (hasMediaSource()) {
      const mod = await this.loadHls();
      if (mod.default.isSupported()) {
        this.hlsModule = mod;
        return;
      }
    }
    this.native = this.audio.canPlayType(HLS_MIME_TYPE) !== '';
    if (!this.native) throw new MediaSupportError('This browser cannot play HLS audio');
  }

  async play(track: Track, positionMs: number): Promise<void> {
    if (!track.hls_url) throw new MediaSupportError(`Track ${track.id} has no HLS stream`);
    const url = new URL(track.hls_url, document.baseURI).toString();
    this.emitter.update({ isLoading: true });
    this.currentTrack = track.id;
    if (url !== this.currentUrl || this.isBroken()) {
      this.currentUrl = url;
      this.failed = false;
      try {
        await this.load(url, positionMs);
      } catch (err) {
        // Loaded again by the next play: a heal once the network is back.
        this.currentUrl = null;
        this.emitter.update({ isLoading: false, isPaused: true });
        throw err;
      }
    } else {
      this.audio.currentTime = positionMs / 1000;
    }
    await this.start();
  }

  private async load(url: string, positionMs: number): Promise<void> {
    if (this.native || !this.hlsModule) {
      this.audio.src = url;
      await loadedOrFailed(this.audio, NATIVE_LOAD_TIMEOUT_MS);
      this.audio.currentTime = positionMs / 1000;
      return;
    }
    // A destroyed hls.js instance never answers: the load waiting on it must end, or the heal that
    // started it would hold every later heal.
    this.cancelLoad?.();
    this.hls?.destroy();
    const Hls = this.hlsModule.default;
    const hls = new Hls({ startPosition: positionMs / 1000, enableWorker: true });
    this.hls = hls;
    await new Promise<void>((resolve, reject) => {
      let isParsed = false;
      this.cancelLoad = () => {
        this.cancelLoad = null;
        reject(new StreamInterruptedError('HLS load replaced by a newer one'));
      };
      hls.on(Hls.Events.MANIFEST_PARSED, () => {
        isParsed = true;
        this.cancelLoad = null;
        resolve();
      });
      hls.on(Hls.Events.ERROR, (_e, data) => {
        if (!data.fatal || this.hls !== hls) return;
        const isNetwork = data.type === Hls.ErrorTypes.NETWORK_ERROR;
        if (!isParsed) {
          this.cancelLoad = null;
          reject(isNetwork ? new StreamInterruptedError(`HLS stream unreachable: ${data.details}`) : new MediaSupportError(`HLS error: ${data.details}`));
          return;
        }
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
          console.warn(`HLS media error, recovering: ${data.details}`);
          hls.recoverMediaError();
          return;
        }
        // The stream broke mid-track (hls.js's retries ran out): silent until the next heal
        // reloads it. Detached, as hls.js advises: a start waiting for data on it ends (AbortError)
        // instead of waiting for good, which would hold every later heal.
        console.warn(`HLS stream failed: ${data.details}`);
        this.failed = true;
        this.hls = null;
        hls.destroy();
        this.emitter.update({ isLoading: false, isPaused: true });
      });
      hls.loadSource(url);
      hls.attachMedia(this.audio);
    });
  }

  /**
   * The element lost its stream (hls.js gave up, or its media source was dropped while the network
   * was gone: no source, or a media error): only a fresh load brings it back.
   */
  private isBroken(): boolean {
    return this.failed || this.audio.error !== null || this.audio.networkState === HTMLMediaElement.NETWORK_NO_SOURCE;
  }

  private async start(): Promise<void> {
    try {
      await this.audio.play();
    } catch (err) {
      // Autoplay policy: the fan has to click once before audio may start.
      if (err instanceof DOMException && err.name === 'NotAllowedError') {
        this.emitter.update({ needsGesture: true, isLoading: false, isPaused: true });
        return;
      }
      if (err instanceof DOMException && (err.name === 'NotSupportedError' || err.name === 'AbortError')) {
        // The source is gone or was replaced mid-start: the next heal loads the stream afresh.
        this.failed = true;
        this.emitter.update({ isLoading: false, isPaused: true });
        throw new StreamInterruptedError(`Audio could not start: ${err.message}`);
      }
      throw err;
    }
  }

  async seek(positionMs: number): Promise<void> {
    const target = positionMs / 1000;
    this.audio.currentTime = target;
    if (this.audio.paused) return;
    await waitForSteadyClock(this.audio, target);
  }

  async setRate(rate: number): Promise<void> {
    // Both: loading a new source resets playbackRate to defaultPlaybackRate.
    this.audio.preservesPitch = true;
    this.audio.defaultPlaybackRate = rate;
    this.audio.playbackRate = rate;
  }

  async pause(): Promise<void> {
    this.audio.pause();
  }

  async enqueue(_tracks: Track[]): Promise<void> {
    // Each track is its own stream; the next one is loaded on its track change.
  }

  async setVolume(volume: number): Promise<void> {
    this.audio.volume = Math.min(1, Math.max(0, volume));
  }

  positionMs(): number {
    return this.audio.currentTime * 1000;
  }

  currentTrackId(): string | null {
    return this.currentTrack;
  }

  recover(): void {
    // Restart fragment loading now instead of after hls.js's retry backoff (up to 8 s). Not while
    // a new stream still loads its playlist: it starts at its own position once parsed.
    if (this.hls && !this.failed && this.hls.levels.length > 0) {
      this.hls.stopLoad();
      this.hls.startLoad(this.audio.currentTime);
    }
  }

  async devices(): Promise<PlayerDevice[]> {
    return [{ id: 'browser', is_active: true }];
  }

  onState(listener: (s: PlaybackState) => void): () => void {
    return this.emitter.on(listener);
  }

  destroy(): void {
    this.cancelLoad?.();
    this.hls?.destroy();
    this.hls = null;
    this.audio.pause();
    this.audio.removeAttribute('src');
    this.emitter.clear();
  }
}

/** How long the media clock must run at its rate, without a freeze, before a seek counts as landed. */
export const STEADY_WINDOW_MS = 60;
/**
 * The wait is bounded: on a starved machine the clock may never run 60 ms clean, and the
 * continuous sync closes whatever a seek measured too early leaves.
 */
export const STEADY_MAX_WAIT_MS = 750;
/** How far the media clock may stray from the wall clock over that window and still count as steady. */
export const STEADY_SLACK_MS = 6;

/**
 * Resolves once the media clock runs steadily past `targetS` (bounded: a stalled stream must not
 * hang). Measured in Chromium (issue 16): after a seek, `currentTime` moves on for 10-30 ms, then
 * freezes for 70-100 ms while the audio output fills, then runs. A seek that resolved on the first
 * movement was measured as landed while the player then fell ~70 ms behind for good.
 */
export async function waitForSteadyClock(audio: Pick<HTMLMediaElement, 'currentTime' | 'paused' | 'playbackRate'>, targetS: number, maxMs = STEADY_MAX_WAIT_MS): Promise<void> {
  const deadline = performance.now() + maxMs;
  let base: { wall: number; media: number } | null = null;
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 10));
    const wall = performance.now();
    const media = audio.currentTime * 1000;
    if (audio.paused || media <= targetS * 1000) {
      base = null;
      continue;
    }
    if (!base) {
      base = { wall, media };
      continue;
    }
    const elapsed = wall - base.wall;
    const advanced = media - base.media;
    // A freeze (or a jump) inside the window: start the window again from here.
    if (Math.abs(advanced - elapsed * audio.playbackRate) > STEADY_SLACK_MS) base = { wall, media };
    else if (elapsed >= STEADY_WINDOW_MS) return;
  }
}

/** The MIME type of an HLS playlist, as the browser's own player names it. */
const HLS_MIME_TYPE = 'application/vnd.apple.mpegurl';

/** How long the browser's own HLS player may take to read a playlist before a heal tries again. */
export const NATIVE_LOAD_TIMEOUT_MS = 10_000;

function hasMediaSource(): boolean {
  const g = globalThis as { MediaSource?: unknown; ManagedMediaSource?: unknown };
  return typeof g.MediaSource === 'function' || typeof g.ManagedMediaSource === 'function';
}

/**
 * Resolves once the element has read the stream's metadata; a failed or silent load rejects (a
 * heal loads it again), so a load with the network gone cannot hold every later heal.
 */
function loadedOrFailed(audio: HTMLMediaElement, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (err: Error | null) => {
      clearTimeout(timer);
      audio.removeEventListener('loadedmetadata', onLoaded);
      audio.removeEventListener('error', onError);
      if (err) reject(err);
      else resolve();
    };
    const onLoaded = () => settle(null);
    const onError = () => settle(new StreamInterruptedError(`HLS stream unreachable: media error ${audio.error?.code ?? 'unknown'}`));
    const timer = setTimeout(() => settle(new StreamInterruptedError(`HLS stream not loaded within ${timeoutMs} ms`)), timeoutMs);
    audio.addEventListener('loadedmetadata', onLoaded);
    audio.addEventListener('error', onError);
  });
}
