/**
 * Playback of one campaign: one state store, the provider player (built once, only for the two
 * providers and a logged-in account), the HLS preview and mock mode (spec §4, §5, §8).
 */
import { PREVIEW_MANIFEST_PATH, type AccountTokenInfo } from '@fanfare/protocol';
import type { CampaignApi } from '../api.ts';
import type { PageEnv } from '../env.ts';
import { SDK_ERRORS } from '../errors.ts';
import { DOCUMENT_EVENTS } from '../events.ts';
import { ApplePlayer, type MusicKitPlayer } from './applePlayer.ts';
import { HlsPreviewPlayer, type HlsModule, type MediaElementLike } from './hlsPlayer.ts';
import { MOCK_FLAGS, MockPlayer } from './mockPlayer.ts';
import { buildMockQueue } from './mockQueue.ts';
import { SpotifyPlayerApi } from './spotifyApi.ts';
import { SpotifyPlayer, type SpotifySdk } from './spotifyPlayer.ts';
import { PlaybackStore } from './state.ts';
import type { Player } from './types.ts';

export interface PlaybackOptions {
  env: PageEnv;
  api: CampaignApi;
  token: () => AccountTokenInfo | null;
  /** Spec §9: the name the streaming provider shows for the in-page player. */
  playerName: string;
  /** Force the mock player (also on with the global flags of spec §4). */
  mockPlayer?: boolean;
  musicKit?: () => Promise<MusicKitPlayer | null>;
  spotifySdk?: () => Promise<SpotifySdk>;
  /** Spotify Web API base URL (the emulator's in tests and offline demos). */
  spotifyApiUrl?: string;
  /** Manifest URL of a track's preview (spec §7 "HLS preview"). */
  previewManifestUrl?: (trackId: string) => string;
  createMedia?: () => MediaElementLike;
  loadHls?: () => Promise<HlsModule>;
}

/** Spec §7 "HLS preview": the stream manifest by track `id`, with the `callback` label the server attributes the play to. */
export function previewManifestUrl(baseUrl: string, trackId: string, callback: string | null): string {
  const q = new URLSearchParams({ id: trackId });
  if (callback) q.set('callback', callback);
  return `${baseUrl}${PREVIEW_MANIFEST_PATH}?${q}`;
}

export class Playback {
  readonly store: PlaybackStore;
  private player: Player | null = null;
  private building: Promise<Player> | null = null;
  /** The service `building` is for ('mock' in mock mode). */
  private buildingFor: string | null = null;
  private previewPlayer: HlsPreviewPlayer | null = null;

  constructor(private readonly o: PlaybackOptions) {
    this.store = new PlaybackStore((state) => o.env.dispatch(DOCUMENT_EVENTS.playbackState, state));
  }

  /** Spec §4: mock mode from the global testing flag or the mock-player flag. */
  get isMock(): boolean {
    return this.o.mockPlayer === true || this.o.env.globalFlag(MOCK_FLAGS.testing) || this.o.env.globalFlag(MOCK_FLAGS.mockPlayer);
  }

  get current(): Player | null {
    return this.player;
  }

  private initError = (service: string) => (message: string) => this.o.env.dispatch(DOCUMENT_EVENTS.playerInitError, { service, message });

  /**
   * The provider player for `service`, built once per service. Asking for another service (Apple,
   * logout, then Spotify on the same page) tears the old player down and builds the new one, so
   * the caller never drives the previous provider. Mock mode has one player for every service.
   */
  loadPlayer(service: string): Promise<Player> {
    const key = this.isMock ? 'mock' : service;
    if (this.building && this.buildingFor === key) return this.building;
    if (this.building) {
      this.player?.destroy();
      this.player = null;
    }
    this.buildingFor = key;
    const building: Promise<Player> = this.build(service).then(
      (player) => {
        // A player finished after the page moved on to another service is torn down, not used.
        if (this.building !== building) {
          player.destroy();
          return player;
        }
        this.player = player;
        return player;
      },
      (err: unknown) => {
        if (this.building === building) {
          this.building = null;
          this.buildingFor = null;
        }
        throw err;
      },
    );
    this.building = building;
    return building;
  }

  private async build(service: string): Promise<Player> {
    const { env } = this.o;
    if (this.isMock) {
      return new MockPlayer(this.store, env.timers, (request) => buildMockQueue(this.o.api, request));
    }
    if (service !== 'apple' && service !== 'spotify') throw new Error(SDK_ERRORS.playerNotImplemented(service));
    const token = this.o.token();
    if (!token) throw new Error(SDK_ERRORS.playerRequiresLogin);
    if (service === 'apple') {
      const mk = await this.o.musicKit?.();
      if (!mk) throw new Error('MusicKit is not available');
      return new ApplePlayer(mk, this.store, env.logger, this.initError('apple'));
    }
    const sdk = await this.o.spotifySdk?.();
    if (!sdk) throw new Error('The Spotify Web Playback SDK is not available');
    const serviceToken = () => this.o.token()?.service_token ?? '';
    return new SpotifyPlayer(this.store, {
      sdk,
      api: new SpotifyPlayerApi(env.fetch, serviceToken, this.o.spotifyApiUrl),
      serviceToken,
      name: this.o.playerName,
      timers: env.timers,
      logger: env.logger,
      onInitError: this.initError('spotify'),
    });
  }

  /** The HLS preview player (no login needed); hls.js loads on its first play. */
  preview(): HlsPreviewPlayer {
    if (!this.previewPlayer) {
      const manifestUrl = this.o.previewManifestUrl ?? ((id: string) => previewManifestUrl(this.o.api.baseUrl, id, null));
      this.previewPlayer = new HlsPreviewPlayer(this.store, {
        createMedia: this.o.createMedia ?? (() => new Audio()),
        manifestUrl,
        loadHls: this.o.loadHls,
        logger: this.o.env.logger,
      });
    }
    return this.previewPlayer;
  }

  destroy(): void {
    this.player?.destroy();
    this.previewPlayer?.destroy();
    this.player = null;
    this.previewPlayer = null;
    this.building = null;
    this.buildingFor = null;
    this.store.destroy();
  }
}
