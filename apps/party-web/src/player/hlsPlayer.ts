import type { PlayerDevice, Track } from '@fanfare/protocol';
import { MediaSupportError, StateEmitter, StreamInterruptedError, type PlayerAdapter, type PlaybackState } from './types.ts';

import type Hls from 'hls.js';
import { loadWithTimeout } from '../rules/loadTimeout.ts';

type HlsModule = { default: typeof Hls };
type HlsInstance = Hls;

/**
 * The internal streaming service `umg_hls` (spec 1): real audio through hls.js, which is loaded
 * only when this player starts (it is most of a bundle). Safari plays HLS natively.
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

  constructor(
    readonly audio: HTMLAudioElement,
    private readonly loadHls: () => Promise<HlsModule> = () => loadWithTimeout(() => import('hls.js')),
  ) {
    audio.preload = 'auto';
    audio.addEventListener('playing', () => this.emitter.update({ isPaused: false, isLoading: false, needsGesture: false }));
    audio.addEventListener('pause', () => this.emitter.update({ isPaused: true }));
    audio.addEventListener('waiting', () => this.emitter.update({ isLoading: true }));
    audio.addEventListener('volumechange', () => this.emitter.update({ volume: audio.volume }));
  }

  async init(): Promise<void> {
    this.native = this.audio.canPlayType('application/vnd.apple.mpegurl') !== '';
    if (this.native) return;
    const mod = await this.loadHls();
    if (!mod.default.isSupported()) throw new MediaSupportError('This browser cannot play HLS audio');
    this.hlsModule = mod;
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
      await once(this.audio, 'loadedmetadata');
      this.audio.currentTime = positionMs / 1000;
      return;
    }
    this.hls?.destroy();
    const Hls = this.hlsModule.default;
    const hls = new Hls({ startPosition: positionMs / 1000, enableWorker: true });
    this.hls = hls;
    await new Promise<void>((resolve, reject) => {
      let isParsed = false;
      hls.on(Hls.Events.MANIFEST_PARSED, () => {
        isParsed = true;
        resolve();
      });
      hls.on(Hls.Events.ERROR, (_e, data) => {
        if (!data.fatal || this.hls !== hls) return;
        const isNetwork = data.type === Hls.ErrorTypes.NETWORK_ERROR;
        if (!isParsed) {
          reject(isNetwork ? new StreamInterruptedError(`HLS stream unreachable: ${data.details}`) : new MediaSupportError(`HLS error: ${data.details}`));
          return;
        }
        if (data.type === Hls.ErrorTypes.MEDIA_ERROR) {
          console.warn(`HLS media error, recovering: ${data.details}`);
          hls.recoverMediaError();
          return;
        }
        // The stream broke mid-track: silent until the next heal reloads it.
        console.warn(`HLS stream failed: ${data.details}`);
        this.failed = true;
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
    // 'seeked' fires before audio runs again: resolve only once the position advances past the
    // target, so the caller measures real playback (bounded: a stalled stream must not hang).
    const deadline = performance.now() + 2_000;
    while (this.audio.currentTime <= target + 0.01 && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
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
    // Restart fragment loading now instead of after hls.js's retry backoff (up to 8 s).
    if (this.hls && !this.failed) {
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
    this.hls?.destroy();
    this.hls = null;
    this.audio.pause();
    this.audio.removeAttribute('src');
    this.emitter.clear();
  }
}

function once(target: EventTarget, event: string): Promise<void> {
  return new Promise((resolve) => target.addEventListener(event, () => resolve(), { once: true }));
}
