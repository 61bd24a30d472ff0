import type { SdkUnavailable } from './sdkStatus.ts';
import type { CodeCheck } from './gateCode.ts';
import type { Campaign, CampaignEnvironment, CampaignPage, CampaignService, HandoverLink, InAppBrowser, NewsletterConsent, PlaybackDevice, PlaybackState, PlaybackTrack, Presave, PresaveBody, TerritoryRelease } from '@fanfare/protocol';

/** Where the campaign's timing stands (spec 4 "Campaign timing"). */
export type Phase = 'upcoming' | 'running' | 'ended';

/** The newsletter confirmation banner (spec 2). */
export interface BannerView {
  state: 'success' | 'error';
  message: string;
}

/** Everything the page renders from, as one immutable snapshot. */
export interface PageView {
  campaign: Campaign;
  page: CampaignPage;
  environment: CampaignEnvironment;
  phase: Phase;
  locale: string;
  defaultLocale: string;
  locales: string[];
  banner: BannerView | null;
  /** `null` while the gate is being checked. */
  hasAccess: boolean | null;
  account: { service: CampaignService } | null;
  /**
   * Providers whose SDK cannot load on this page, and why: the server names no SDK script
   * (`not-configured`), the script failed (`load-failed`) or did not answer within 120 s
   * (`timed-out`; both with the load-error event). Their login button is not shown; the page says why instead.
   */
  unavailable: Partial<Record<CampaignService, SdkUnavailable>>;
  /** Providers whose SDK is still loading: their login button shows it and waits. */
  sdkLoading: Partial<Record<CampaignService, true>>;
  /** Inside the back office's editor frame (the bridge is connected). */
  isEditor: boolean;
  /** The campaign runtime has loaded (login, gate, banner and translations are known). */
  isReady: boolean;
  /** Newsletter ids whose consent the visitor ticked before an in-app browser handover (not sent yet). */
  restoredConsents: string[];
  /**
   * The release in the visitor's territory (campaigns with `data.release`): the page's timing,
   * countdown and services follow it. Null without a release or before it is known.
   */
  release: TerritoryRelease | null;
  /** The logged-in fan's pre-save of this campaign, if any. */
  presave: Presave | null;
}

/** What the player shows and does, whichever player runs (provider, HLS preview). */
export interface PlayerView {
  kind: 'provider' | 'preview';
  state: PlaybackState;
  devices: PlaybackDevice[];
  activeDeviceId: string | null;
}

export interface PlayerControls {
  playTrack(trackId: string): Promise<void>;
  toggle(): Promise<void>;
  next(): Promise<void>;
  previous(): Promise<void>;
  setVolume(fraction: number): Promise<void>;
  transfer(deviceId: string): Promise<void>;
  refreshDevices(): Promise<void>;
  getSnapshot(): PlayerView;
  subscribe(listener: () => void): () => void;
  destroy(): void;
}

/**
 * The page's runtime as the components see it: one snapshot and a few actions. Built on the
 * campaign SDK (`runtime/createRuntime.ts`); components never call the backend themselves.
 */
export interface PageRuntime {
  getSnapshot(): PageView;
  subscribe(listener: () => void): () => void;
  /** A message of the current locale, `{name}` filled, plural forms picked by `{count}`. */
  t(key: string, vars?: Record<string, string | number>): string;
  /** The page's clock (the editor may simulate another time). */
  now(): number;
  setLocale(code: string): void;
  signup(email: string, consents: NewsletterConsent[]): Promise<'sent' | 'skipped'>;
  /** Checks an access code through the SDK; granted opens the gate (the SDK then redirects). */
  checkCode(code: string): Promise<CodeCheck>;
  login(service: CampaignService): Promise<void>;
  /** The newsletter ids the visitor has ticked and not sent yet (they travel with a handover). */
  noteConsents(newsletterIds: string[]): void;
  /**
   * A link that continues this visit in the system browser (in-app browsers cannot log in):
   * locale, UTM parameters, unsent consents and the wanted login travel with it.
   */
  handover(service: CampaignService, from: InAppBrowser): Promise<HandoverLink>;
  logout(): Promise<void>;
  dismissBanner(): void;
  /** Pre-saves the release for the logged-in fan (the territory is the server's reading of the request). */
  presave(body: Omit<PresaveBody, 'locale' | 'host_url'>): Promise<Presave>;
  /** The campaign's tracks, looked up by Spotify id. */
  tracks(spotifyIds: string[]): Promise<PlaybackTrack[]>;
  /** The player for the visitor: the provider's when logged in, else HLS previews. */
  createPlayer(tracks: PlaybackTrack[]): PlayerControls;
  /** Inside the editor: ask the back office's media library for a field's image. */
  pickMedia(fieldId: string, currentUrl: string | null, width: number, height: number): void;
}
