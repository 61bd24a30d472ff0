/**
 * One campaign on a page: every module wired to one `PageEnv`, owned by one instance that
 * `destroy()` tears down (timers, listeners, players). Nothing lives at module level, so two
 * campaigns on one page share no state.
 */
import type { AccountTokenInfo, Campaign, CampaignEnvironment, CampaignSimulation, CampaignTheme } from '@fanfare/protocol';
import { CampaignApi } from './api.ts';
import { EditorBridge } from './bridge.ts';
import { configFor, readCampaignConfig, type BackendOrigins, type CampaignConfig } from './config.ts';
import { Emitter } from './emitter.ts';
import { FunnelRecorder, type FunnelOptions } from './funnel.ts';
import { browserEnv, type PageEnv } from './env.ts';
import { DOCUMENT_EVENTS } from './events.ts';
import { I18n, type DefaultMessages } from './i18n.ts';
import { Login, type MusicKitAuth } from './login.ts';
import { Newsletter, readNewsletterBanner, type NewsletterBanner } from './newsletter.ts';
import type { MusicKitPlayer } from './playback/applePlayer.ts';
import type { HlsModule, MediaElementLike } from './playback/hlsPlayer.ts';
import { Playback, previewManifestUrl } from './playback/playback.ts';
import type { SpotifySdk } from './playback/spotifyPlayer.ts';
import { storageKeys } from './storage.ts';
import { TokenGate } from './tokenGate.ts';
import { CampaignTiming } from './timing.ts';
import { Tracker, type TrackingSink } from './tracking.ts';

/** MusicKit's configured instance: login uses its auth part, the Apple player the rest. */
export type MusicKitInstance = MusicKitAuth & MusicKitPlayer;

export interface CampaignOptions {
  /** The browser by default; tests pass fakes. */
  env?: PageEnv;
  /** Known campaign (skips reading the page metadata). */
  campaign?: Campaign;
  environment?: CampaignEnvironment;
  backendOrigins?: BackendOrigins;
  /** Where tracking events go; nowhere by default (see `dataLayerSink`). */
  trackingSink?: TrackingSink;
  /** Spec §9: the product's short name, shown by the streaming provider. */
  playerName?: string;
  /** The funnel's referrer and the browser's objection to tracking (decision 0039). */
  funnel?: FunnelOptions;
  /** The page's own messages of a locale, laid under the campaign's translations (see `I18n`). */
  defaultMessages?: DefaultMessages;
  musicKit?: () => Promise<MusicKitInstance | null>;
  spotifySdk?: () => Promise<SpotifySdk>;
  spotifyApiUrl?: string;
  mockPlayer?: boolean;
  createMedia?: () => MediaElementLike;
  loadHls?: () => Promise<HlsModule>;
}

export interface CampaignEvents extends Record<string, unknown> {
  /** The campaign changed (editor's unsaved version, or saved). */
  campaign: Campaign;
  simulation: CampaignSimulation | null;
  theme: CampaignTheme;
  started: { at: number };
  ended: { at: number };
  newsletterBanner: NewsletterBanner | null;
}

let instanceCount = 0; // only a source of unique request-id prefixes, never shared state

export class CampaignInstance {
  readonly events = new Emitter<CampaignEvents>();
  readonly env: PageEnv;
  readonly api: CampaignApi;
  readonly bridge: EditorBridge;
  readonly tracker: Tracker;
  readonly login: Login;
  readonly newsletter: Newsletter;
  readonly tokenGate: TokenGate;
  readonly timing: CampaignTiming;
  readonly i18n: I18n;
  readonly playback: Playback;
  /** Anonymous funnel events of this page and its A/B variant. */
  readonly funnel: FunnelRecorder;
  /** The banner to show for a newsletter confirmation, read once at start. */
  newsletterBanner: NewsletterBanner | null = null;
  private config: CampaignConfig;
  private editorToken: string | null = null;
  private simulation: CampaignSimulation | null = null;
  /** The look the editor previews (bridge `theme`), null outside the editor. */
  theme: CampaignTheme | null = null;
  private readonly unsubscribers: Array<() => void> = [];
  private started = false;

  constructor(options: CampaignOptions = {}) {
    const env = (this.env = options.env ?? browserEnv());
    this.config = options.campaign
      ? configFor(env, options.campaign, options.environment ?? 'production', options.backendOrigins)
      : readCampaignConfig(env, options.backendOrigins);
    const campaign = this.config.campaign;
    const keys = storageKeys(campaign.id);
    this.api = new CampaignApi({
      baseUrl: this.config.backendOrigin,
      fetch: env.fetch,
      editorToken: () => this.editorToken,
      previewToken: () => this.config.previewToken,
    });
    this.tracker = new Tracker(env, options.trackingSink ?? (() => undefined), campaign, keys);
    this.bridge = new EditorBridge(env, this.config.allowedOrigins, `c${++instanceCount}`);
    const musicKit = options.musicKit ?? (async () => null);
    this.login = new Login(env, this.api, this.tracker, campaign.id, keys, musicKit);
    this.funnel = new FunnelRecorder(
      env,
      () => `${this.config.backendOrigin}/api/campaigns/${encodeURIComponent(this.config.campaign.id)}/funnel/events`,
      () => ({ id: this.config.campaign.id, isAbTestOn: this.config.campaign.data.ab_test?.enabled === true }),
      () => this.tracker.utmParams(),
      // Only visitors of the published page count: never the editor's frame or a preview link.
      () => !this.bridge.isConnected && this.config.previewToken === null,
      options.funnel,
    );
    this.newsletter = new Newsletter(env, this.api, this.tracker, () => this.config.campaign, () =>
      this.bridge.isConnected || this.config.previewToken !== null ? null : this.funnel.context(),
    );
    this.tokenGate = new TokenGate(env, this.api, campaign, keys, () => !this.bridge.isConnected);
    this.timing = new CampaignTiming(env.timers, () => this.now(), () => this.config.campaign);
    this.i18n = new I18n(env, this.api, { campaignId: campaign.id, app: campaign.app, hasOwnTranslations: (campaign.i18n?.translations ?? []).length > 0 }, keys, options.defaultMessages);
    this.playback = new Playback({
      env,
      api: this.api,
      token: () => this.login.token,
      playerName: options.playerName ?? 'Fanfare',
      mockPlayer: options.mockPlayer,
      musicKit,
      spotifySdk: options.spotifySdk,
      spotifyApiUrl: options.spotifyApiUrl,
      previewManifestUrl: (id) => previewManifestUrl(this.config.backendOrigin, id, this.config.campaign.id),
      createMedia: options.createMedia,
      loadHls: options.loadHls,
    });

    this.unsubscribers.push(
      this.timing.events.on('started', (e) => {
        this.events.emit('started', e);
        env.dispatch(DOCUMENT_EVENTS.campaignStarted, { campaignId: this.campaign.id });
      }),
      this.timing.events.on('ended', (e) => {
        this.events.emit('ended', e);
        env.dispatch(DOCUMENT_EVENTS.campaignEnded, { campaignId: this.campaign.id });
      }),
      this.bridge.on('campaignInfo:v2', (m) => this.applyEditorCampaign(m.campaign, m.simulation ?? null)),
      this.bridge.on('campaignSaved', (m) => this.applyEditorCampaign(m.campaign, this.simulation)),
      this.bridge.on('token', (m) => void (this.editorToken = m.token)),
      this.bridge.on('theme', (m) => {
        this.theme = m.theme;
        this.events.emit('theme', m.theme);
      }),
    );
  }

  get campaign(): Campaign {
    return this.config.campaign;
  }

  get environment(): CampaignEnvironment {
    return this.config.environment;
  }

  get backendOrigin(): string {
    return this.config.backendOrigin;
  }

  get isEmbedded(): boolean {
    return this.config.isEmbedded;
  }

  /** The page's clock: the editor's simulated time when one is set. */
  now(): number {
    return this.simulation?.now ? Date.parse(this.simulation.now) : this.env.now();
  }

  /** What the editor simulates (time, locale, country, gate, login); null outside the editor. */
  get currentSimulation(): CampaignSimulation | null {
    return this.simulation;
  }

  get token(): AccountTokenInfo | null {
    return this.login.token;
  }

  private applyEditorCampaign(campaign: Campaign, simulation: CampaignSimulation | null): void {
    this.config = { ...this.config, campaign };
    this.simulation = simulation;
    // The editor's unsaved translations show at once (the stored ones are what load() fetched).
    const i18n = campaign.i18n;
    if (i18n && i18n.translations.length > 0) {
      try {
        this.i18n.apply({ default_locale: i18n.default_locale ?? this.i18n.locale, locales: i18n.locales ?? [], items: i18n.translations });
      } catch (err) {
        this.env.logger.warn('Editor translations not applied', err);
      }
    }
    this.events.emit('campaign', campaign);
    this.events.emit('simulation', simulation);
    this.timing.start(); // dates or the simulated time may have changed
  }

  /**
   * Starts everything that runs on load: UTM capture, the newsletter banner, the editor hello,
   * login (callback, refresh), timing, token gate and translations. Failures of one part are
   * logged and do not stop the others.
   */
  async start(): Promise<void> {
    if (this.started) return; // a second start would double the refresh interval and the hello
    this.started = true;
    this.tracker.captureUtm();
    this.newsletterBanner = readNewsletterBanner(this.env, this.tracker);
    this.events.emit('newsletterBanner', this.newsletterBanner);
    // Spec §7 editor messaging: after the hello, the editor learns which URL the page shows.
    if (this.bridge.announceReady() !== null) this.bridge.sendCampaignUrl(this.env.location.href);
    this.timing.start();
    this.funnel.record('visit');
    // A token stored by an earlier visit is no login; one from the provider's callback (read in
    // login.init) or a login button is.
    let wasLoggedIn = this.login.token !== null;
    this.unsubscribers.push(
      this.login.events.on('change', (token) => {
        if (token && !wasLoggedIn) this.funnel.record('login');
        wasLoggedIn = token !== null;
      }),
    );
    const results = await Promise.allSettled([this.login.init(), this.tokenGate.check(), this.i18n.load()]);
    for (const r of results) if (r.status === 'rejected') this.env.logger.warn('Campaign start step failed', r.reason);
    // A key stored by an earlier visit is no gate pass: count the passes from here on.
    let hadAccess = this.tokenGate.result?.has_access === true;
    this.unsubscribers.push(
      this.tokenGate.events.on('change', (r) => {
        if (r.has_access && !hadAccess && this.config.campaign.token_gate.enabled) this.funnel.record('gate_pass');
        hadAccess = r.has_access;
      }),
      this.playback.store.subscribe((state) => {
        if (!state.isPaused && state.currentTrack) this.funnel.record('play');
      }),
    );
  }

  /** The visitor closed the newsletter banner. */
  dismissNewsletterBanner(): void {
    this.newsletterBanner = null;
    this.events.emit('newsletterBanner', null);
  }

  destroy(): void {
    for (const off of this.unsubscribers) off();
    this.unsubscribers.length = 0;
    this.playback.destroy();
    this.funnel.destroy();
    this.timing.destroy();
    this.login.destroy();
    this.tokenGate.destroy();
    this.i18n.destroy();
    this.bridge.destroy();
    this.events.clear();
  }
}

/** Creates the runtime of one campaign (from the page metadata unless `campaign` is given). */
export function createCampaign(options: CampaignOptions = {}): CampaignInstance {
  return new CampaignInstance(options);
}
