/**
 * HLS preview player (spec §4 "Preview player"): loading → playing, pause/resume, seek, volume;
 * other controls log 'Not supported'. hls.js is imported only when a preview first plays, so it
 * stays out of the core bundle (size budget).
 */
import type { PlaybackTrack, RepeatMode } from '@fanfare/protocol';
import type { Logger } from '../env.ts';
import { SDK_ERRORS } from '../errors.ts';
import type { PlaybackStore } from './state.ts';
import type { Player, PlayRequest } from './types.ts';

/** The part of an `HTMLAudioElement` the player uses. */
export interface MediaElementLike {
  src: string;
  currentTime: number;
  /** Seconds; NaN until known, Infinity for a live stream. */
  readonly duration: number;
  volume: number;
  readonly paused: boolean;
  canPlayType(type: string): string;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: string, fn: () => void): void;
  removeEventListener(type: string, fn: () => void): void;
  removeAttribute(name: string): void;
  load(): void;
}

/** The part of hls.js the player uses. */
export interface HlsInstance {
  loadSource(url: string): void;
  attachMedia(media: unknown): void;
  destroy(): void;
}
export interface HlsModule {
  default: { isSupported(): boolean; new (): HlsInstance };
}

export interface HlsPreviewOptions {
  createMedia: () => MediaElementLike;
  /** The manifest URL of a track's preview. */
  manifestUrl: (trackId: string) => string;
  /** Resolves the track's metadata for the state, when known. */
  describe?: (trackId: string) => PlaybackTrack | null;
  loadHls?: () => Promise<HlsModule>;
  logger: Logger;
}

export class HlsPreviewPlayer implements Player {
  readonly kind = 'preview';
  private media: MediaElementLike | null = null;
  private hls: HlsInstance | null = null;
  private readonly listeners: Array<[string, () => void]> = [];

  constructor(
    readonly store: PlaybackStore,
    private readonly o: HlsPreviewOptions,
  ) {}

  private element(): MediaElementLike {
    if (this.media) return this.media;
    const m = this.o.createMedia();
    const on = (type: string, fn: () => void) => {
      m.addEventListener(type, fn);
      this.listeners.push([type, fn]);
    };
    on('playing', () => this.store.update({ isLoading: false, isPaused: false }));
    on('pause', () => this.store.update({ isPaused: true }));
    on('waiting', () => this.store.update({ isLoading: true }));
    on('ended', () => this.store.update({ isPaused: true }));
    on('timeupdate', () => this.store.updateProgress(m.currentTime * 1000));
    // A preview is a clip of the track (about 30 s): once the stream knows its length, the
    // player shows that, not the full track's duration from the catalog.
    on('durationchange', () => {
      const track = this.store.state.currentTrack;
      if (track && Number.isFinite(m.duration) && m.duration > 0) this.store.update({ currentTrack: { ...track, durationMs: Math.round(m.duration * 1000) } });
    });
    on('volumechange', () => this.store.update({ volume: m.volume }));
    // A failed stream (network gone, source refused) is paused, not loading for ever: the fan
    // sees the play button again and can retry.
    on('error', () => this.store.update({ isLoading: false, isPaused: true }));
    this.media = m;
    return m;
  }

  async play(request?: PlayRequest): Promise<void> {
    const media = this.element();
    if (!request) {
      await media.play();
      return;
    }
    const id = request.type === 'track' ? request.id : request.type === 'tracks' ? request.ids[request.offset ?? 0] : undefined;
    if (!id) {
      this.o.logger.warn(SDK_ERRORS.notSupported, request.type);
      return;
    }
    this.store.update({ isLoading: true, isPaused: true, currentTrack: this.o.describe?.(id) ?? null });
    this.store.updateProgress(0, true);
    const url = this.o.manifestUrl(id);
    this.hls?.destroy();
    this.hls = null;
    if (media.canPlayType('application/vnd.apple.mpegurl')) {
      // The browser's own HLS (Safari, Android's and desktop Chromium): a 30 s preview needs no
      // hls.js retries, and a phone is spared its chunk. The party player decides the other way
      // (decision 0029): it must live through network drops.
      media.src = url;
    } else {
      const { default: Hls } = await (this.o.loadHls ?? (() => import('hls.js') as Promise<HlsModule>))();
      if (!Hls.isSupported()) {
        this.store.update({ isLoading: false });
        throw new Error(SDK_ERRORS.playbackUnsupported);
      }
      this.hls = new Hls();
      this.hls.loadSource(url);
      this.hls.attachMedia(media);
    }
    if (request.positionMs) media.currentTime = request.positionMs / 1000;
    await media.play();
  }

  async pause(): Promise<void> {
    this.media?.pause();
  }
  async seek(positionMs: number): Promise<void> {
    if (!this.media) return;
    this.media.currentTime = positionMs / 1000;
    this.store.updateProgress(positionMs, true);
  }
  async setVolume(fraction: number): Promise<void> {
    this.element().volume = Math.min(1, Math.max(0, fraction));
  }
  private unsupported(what: string): Promise<void> {
    this.o.logger.warn(SDK_ERRORS.notSupported, what);
    return Promise.resolve();
  }
  next(): Promise<void> {
    return this.unsupported('next');
  }
  previous(): Promise<void> {
    return this.unsupported('previous');
  }
  setShuffle(): Promise<void> {
    return this.unsupported('shuffle');
  }
  setRepeat(_mode: RepeatMode): Promise<void> {
    return this.unsupported('repeat');
  }

  destroy(): void {
    this.hls?.destroy();
    this.hls = null;
    if (this.media) {
      for (const [t, fn] of this.listeners) this.media.removeEventListener(t, fn);
      this.media.pause();
      this.media.removeAttribute('src');
      this.media.load();
    }
    this.listeners.length = 0;
    this.media = null;
  }
}
