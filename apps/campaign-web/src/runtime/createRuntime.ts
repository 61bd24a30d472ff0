import { browserEnv, createCampaign, dataLayerSink, storageKeys, type CampaignInstance, type MusicKitInstance, type SpotifySdk } from '@fanfare/campaign-sdk';
import {
  HANDOVER_QUERY_PARAM,
  SPOTIFY_PLAYER_JS_URL,
  type CampaignService,
  type CampaignSimulation,
  type NewsletterConsent,
  type PlaybackTrack,
  type Presave,
  type SpotifyTrack,
  type TerritoryRelease,
} from '@fanfare/protocol';
import { pageOf, withTheme } from '../rules/look.ts';
import { pageForVariant } from '../rules/variant.ts';
import { createPlayerControls } from './player.ts';
import { loadMusicKit, loadSpotifySdk, readProviderSdks } from '@fanfare/client/provider-sdks';
import { checkGateCode } from './gateCode.ts';
import { SdkStatus, type SdkStatusView } from './sdkStatus.ts';
import { pageMessagesOf } from './translations.ts';
import type { PageRuntime, PageView } from './types.ts';

/** The product's short name, shown by the streaming provider as the player's name (spec 9). */
const PLAYER_NAME = 'Fanfare';

/** A Spotify track as the player describes it (spec 3 "Track"). */
export function toPlaybackTrack(t: SpotifyTrack): PlaybackTrack {
  return {
    id: t.id,
    name: t.name,
    artists: t.artists.map((a) => a.name),
    album: t.album?.name ?? '',
    durationMs: t.duration_ms,
    image: t.album?.images[0]?.url ?? null,
  };
}

/** Session-storage key of the consents a handover restored (kept across the login redirect until sent). */
const restoredConsentsKey = (campaignId: string) => `fanfare:${campaignId}:handover-consents`;
const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;

function readStored(storage: Storage, key: string): unknown {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null; // storage blocked or a foreign value
  }
}

function writeStored(storage: Storage, key: string, value: unknown): void {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch {
    // storage blocked: the state lives for this page only
  }
}

/** The handover token of the address, removed from it so a reload or a shared URL does not carry it. */
function takeHandoverToken(): string | null {
  const url = new URL(window.location.href);
  const token = url.searchParams.get(HANDOVER_QUERY_PARAM);
  if (token === null) return null;
  url.searchParams.delete(HANDOVER_QUERY_PARAM);
  window.history.replaceState(window.history.state, '', url.toString());
  return token || null;
}

/** How often the page asks again while its territory's release time passed but the server has not flipped it. */
const RELEASE_POLL_MS = 15_000;

/** The page's phase and campaign as the visitor's territory sees them (`data.release`). */
function territorial(campaign: PageView['campaign'], phase: PageView['phase'], release: TerritoryRelease | null): { campaign: PageView['campaign']; phase: PageView['phase'] } {
  if (!release) return { campaign, phase };
  return {
    // The countdown runs to the territory's release; services that lack the release there are hidden.
    campaign: { ...campaign, starts_at: release.release_at, enabled_services: campaign.enabled_services.filter((s) => release.services.includes(s)) },
    // An unavailable territory stays in pre-release until the server finds the release there.
    phase: release.state === 'released' ? (phase === 'ended' ? 'ended' : 'running') : 'upcoming',
  };
}

function snapshotOf(
  c: CampaignInstance,
  simulation: CampaignSimulation | null,
  bannerDismissed: boolean,
  restoredConsents: string[],
  sdks: SdkStatusView,
  release: TerritoryRelease | null = null,
  presave: Presave | null = null,
): PageView {
  const local = territorial(c.campaign, c.timing.phase === 'running' ? 'running' : c.timing.phase, simulation ? null : release);
  const campaign = local.campaign;
  const gate = c.tokenGate.result;
  const simulatedLogin = simulation?.login;
  const token = c.token;
  const banner = c.newsletterBanner;
  return {
    campaign,
    // Inside the editor the previewed theme is laid over the page's own look (spec 7 `theme`).
    // Visitors of an A/B test see their variant; the editor always shows the page as edited.
    page: withTheme(pageForVariant(pageOf(campaign), campaign.data.ab_test, c.bridge.isConnected ? 'a' : c.funnel.variant), c.theme),
    environment: c.environment,
    phase: local.phase,
    locale: c.i18n.locale,
    defaultLocale: campaign.i18n?.default_locale ?? 'de',
    locales: c.i18n.availableLocales,
    banner: banner && !bannerDismissed ? { state: banner.state, message: banner.message } : null,
    hasAccess: simulation?.token_gate ? simulation.token_gate === 'granted' : gate ? gate.has_access : null,
    account: simulatedLogin !== undefined ? (simulatedLogin ? { service: simulatedLogin } : null) : token ? { service: token.service } : null,
    unavailable: sdks.unavailable,
    sdkLoading: sdks.loading,
    isEditor: c.bridge.isConnected,
    isReady: true,
    restoredConsents,
    release: simulation ? null : release,
    presave,
  };
}

/**
 * The page's runtime on the campaign SDK: one campaign instance read from the page metadata,
 * started once, and a snapshot that is rebuilt on each of its events (timing, locale, gate,
 * login, the editor's campaignInfo:v2), so the page re-renders at once.
 */
export async function createRuntime(): Promise<PageRuntime> {
  const env = browserEnv();
  // Read before the SDK starts, so that it sees the address without the token.
  const handoverToken = takeHandoverToken();
  // The CMS names each provider's SDK script (apps/server providers/sdkScripts.ts): the official
  // MusicKit JS v3 and Web Playback SDK with real credentials, the emulators' stand-ins otherwise.
  // A page without a MusicKit script cannot log in with Apple; Spotify falls back to its own URL.
  const sdks = readProviderSdks(document);
  const spotify = sdks.spotify ?? { src: SPOTIFY_PLAYER_JS_URL, apiUrl: null };
  const loadEnv = { doc: document, win: window };
  // MusicKit may take up to the 120 s script timeout (a hanging CDN): meanwhile the Apple button
  // shows it is loading and the rest of the page works; then the load-error event says why.
  const sdkStatus = new SdkStatus(document, sdks.musicKit ? [] : ['apple'], () => changed());
  const dataLayer = ((window as unknown as { dataLayer?: unknown[] }).dataLayer ??= []);
  const c = createCampaign({
    env,
    defaultMessages: pageMessagesOf,
    trackingSink: dataLayerSink(dataLayer),
    playerName: PLAYER_NAME,
    // Decision 0039: a browser's Global Privacy Control or Do Not Track stops the funnel's events.
    funnel: {
      referrer: document.referrer,
      objects: () => (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true || navigator.doNotTrack === '1',
    },
    spotifySdk: () => loadSpotifySdk<SpotifySdk>(spotify, loadEnv),
    ...(spotify.apiUrl ? { spotifyApiUrl: spotify.apiUrl } : {}),
    // The backend origin comes from the page metadata the CMS writes (`fanfare:backend-origin`);
    // only a page without it takes the environment's default (local: port 1337).
    ...(sdks.musicKit ? { musicKit: sdkStatus.track('apple', () => loadMusicKit<MusicKitInstance>(sdks.musicKit!, loadEnv, PLAYER_NAME)) } : {}),
    createMedia: () => {
      // In the document, so that assistive tools and tests can find what is playing.
      const audio = document.createElement('audio');
      audio.className = 'preview-audio';
      audio.dataset.testid = 'preview-audio';
      audio.preload = 'none';
      document.body.append(audio);
      return audio;
    },
  });

  const listeners = new Set<() => void>();
  let simulation: CampaignSimulation | null = null;
  let bannerDismissed = false;
  const campaignId = c.campaign.id;
  const stored = readStored(window.sessionStorage, restoredConsentsKey(campaignId));
  let restoredConsents: string[] = Array.isArray(stored) ? stored.filter((v): v is string => typeof v === 'string').slice(0, 20) : [];
  let draftConsents: string[] = restoredConsents;
  let release: TerritoryRelease | null = null;
  let presave: Presave | null = null;
  let snapshot = snapshotOf(c, simulation, bannerDismissed, restoredConsents, sdkStatus.current);
  // A declaration, not a const: the SDK load-error listener above may call it.
  function changed() {
    snapshot = snapshotOf(c, simulation, bannerDismissed, restoredConsents, sdkStatus.current, release, presave);
    for (const l of listeners) l();
  }

  /**
   * Picks up a visit handed over from an in-app browser: its locale, UTM parameters (as if they
   * had been in this address), unsent consents, then the login the visitor asked for.
   */
  const applyHandover = async (token: string) => {
    const cms = await c.api.cms();
    const state = await cms.call('redeemHandover', { params: { id: campaignId }, body: { token } }, { includeToken: false });
    if (state.locale && c.i18n.availableLocales.includes(state.locale)) c.i18n.setLocale(state.locale);
    const utmKey = storageKeys(campaignId).trackingParams;
    const utm = Object.fromEntries(Object.entries(state.utm).filter(([, v]) => v));
    if (Object.keys(utm).length > 0) writeStored(window.localStorage, utmKey, { ...(readStored(window.localStorage, utmKey) as object | null), ...utm });
    restoredConsents = state.consents.filter((x) => x.accepted).map((x) => x.id);
    draftConsents = restoredConsents;
    writeStored(window.sessionStorage, restoredConsentsKey(campaignId), restoredConsents.length ? restoredConsents : null);
    changed();
    if (state.service && !c.login.isLoggedIn && c.campaign.enabled_services.includes(state.service)) await c.login.login(state.service);
  };
  const cms = () => c.api.cms();
  const asFan = async () => {
    const token = c.token;
    return token ? (await cms()).with({ token: () => token.access_token }) : null;
  };
  /** Reads the release in the visitor's territory; while its time passed and it is not out, asks again. */
  const followRelease = async (tries = 0): Promise<void> => {
    if (!c.campaign.data.release) return;
    try {
      const geo = await c.api.geo();
      release = await (await cms()).call('getTerritoryRelease', { params: { id: c.campaign.id, country: geo.country_code } }, { includeToken: false });
    } catch {
      release = null;
    }
    changed();
    if (!release || release.state === 'released' || tries > 40) return;
    const wait = Math.max(Date.parse(release.release_at) - c.now(), 0) + RELEASE_POLL_MS * (release.state === 'unavailable' ? 4 : 1);
    env.timers.setTimeout(() => void followRelease(tries + 1), Math.min(wait, 2_147_483_647));
  };
  const loadPresave = async () => {
    presave = null;
    const fan = c.campaign.data.release ? await asFan() : null;
    if (fan) presave = await fan.call('getPresave', { params: { id: c.campaign.id } }).catch(() => null);
    changed();
  };
  c.events.on('campaign', changed);
  c.events.on('simulation', (s) => {
    simulation = s;
    if (s?.locale && c.i18n.availableLocales.includes(s.locale) && s.locale !== c.i18n.locale) c.i18n.setLocale(s.locale);
    changed();
  });
  c.events.on('theme', changed);
  c.events.on('started', changed);
  c.events.on('ended', changed);
  c.i18n.events.on('change', ({ locale }) => {
    document.documentElement.lang = locale;
    changed();
  });
  c.tokenGate.events.on('change', changed);
  c.login.events.on('change', () => void loadPresave());

  await c.start();
  changed();
  void followRelease();
  void loadPresave();
  // A used or expired link just leaves the visitor on the page, as an ordinary visit.
  if (handoverToken) await applyHandover(handoverToken).catch((err: unknown) => console.warn('Handover link not usable', err));

  return {
    getSnapshot: () => snapshot,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    t: (key, vars) => c.i18n.t(key, vars),
    now: () => c.now(),
    setLocale: (code) => c.i18n.setLocale(code),
    async signup(email: string, consents: NewsletterConsent[]) {
      const result = await c.newsletter.signup({ email, consents, locale: c.i18n.locale });
      // Sent: nothing left to restore.
      writeStored(window.sessionStorage, restoredConsentsKey(campaignId), null);
      draftConsents = [];
      return result.status;
    },
    noteConsents(ids: string[]) {
      draftConsents = ids.slice(0, 20);
    },
    async handover(service: CampaignService, from) {
      const stored = readStored(window.localStorage, storageKeys(campaignId).trackingParams) as Record<string, unknown> | null;
      const utm: Partial<Record<(typeof UTM_KEYS)[number], string>> = {};
      for (const k of UTM_KEYS) {
        const v = stored?.[k];
        if (typeof v === 'string' && v.trim()) utm[k] = v.trim().slice(0, 200);
      }
      const cms = await c.api.cms();
      return cms.call(
        'createHandover',
        { params: { id: campaignId }, body: { locale: c.i18n.locale, utm, consents: draftConsents.map((id) => ({ id, accepted: true })), service, from } },
        { includeToken: false },
      );
    },
    checkCode: (code: string) => checkGateCode(c.tokenGate, code),
    async login(service: CampaignService) {
      await c.login.login(service);
    },
    logout: () => c.login.logout(),
    async presave(body) {
      const fan = await asFan();
      if (!fan) throw new Error('User account must be logged in to pre-save');
      presave = await fan.call('presave', { params: { id: c.campaign.id }, body: { ...body, locale: c.i18n.locale, host_url: window.location.href.split('#')[0]!.slice(0, 2000) } });
      changed();
      return presave;
    },
    dismissBanner() {
      bannerDismissed = true;
      changed();
    },
    async tracks(ids: string[]) {
      return (await c.api.spotifyTracks(ids)).map(toPlaybackTrack);
    },
    createPlayer: (tracks) => createPlayerControls(c, tracks, snapshot.account?.service ?? null),
    pickMedia(fieldId, currentUrl, width, height) {
      c.bridge
        .openMediaLibrary({ fieldId, currentFileUrl: currentUrl && /^https?:/.test(currentUrl) ? currentUrl : null, targetWidth: width, targetHeight: height })
        .catch((err: unknown) => console.warn('Media library request failed', err));
    },
  };
}
