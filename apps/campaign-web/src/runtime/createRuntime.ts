import { browserEnv, createCampaign, dataLayerSink, type CampaignInstance } from '@fanfare/campaign-sdk';
import {
  type CampaignService,
  type CampaignSimulation,
  type NewsletterConsent,
  type PlaybackTrack,
  type Presave,
  type SpotifyTrack,
  type TerritoryRelease,
} from '@fanfare/protocol';
import { pageOf, withTheme } from '../rules/look.ts';
import { createPlayerControls } from './player.ts';
import { emulatorMusicKit } from './musicKitEmulator.ts';
import { emulatorSpotifySdk, loadSpotifyWebPlaybackSdk } from './spotifySdk.ts';
import { checkGateCode } from './gateCode.ts';
import { pageMessagesOf } from './translations.ts';
import type { PageRuntime, PageView } from './types.ts';

/** Page metadata naming the Spotify emulator's Web API (written by the CMS, apps/server cms/pages). */
const SPOTIFY_EMULATOR_META = 'fanfare:spotify-emulator-api';
const APPLE_EMULATOR_META = 'fanfare:apple-emulator-authorize';

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

function snapshotOf(c: CampaignInstance, simulation: CampaignSimulation | null, bannerDismissed: boolean, release: TerritoryRelease | null = null, presave: Presave | null = null): PageView {
  const local = territorial(c.campaign, c.timing.phase === 'running' ? 'running' : c.timing.phase, simulation ? null : release);
  const campaign = local.campaign;
  const gate = c.tokenGate.result;
  const simulatedLogin = simulation?.login;
  const token = c.token;
  const banner = c.newsletterBanner;
  return {
    campaign,
    // Inside the editor the previewed theme is laid over the page's own look (spec 7 `theme`).
    page: withTheme(pageOf(campaign), c.theme),
    environment: c.environment,
    phase: local.phase,
    locale: c.i18n.locale,
    defaultLocale: campaign.i18n?.default_locale ?? 'de',
    locales: c.i18n.availableLocales,
    banner: banner && !bannerDismissed ? { state: banner.state, message: banner.message } : null,
    hasAccess: simulation?.token_gate ? simulation.token_gate === 'granted' : gate ? gate.has_access : null,
    account: simulatedLogin !== undefined ? (simulatedLogin ? { service: simulatedLogin } : null) : token ? { service: token.service } : null,
    isEditor: c.bridge.isConnected,
    isReady: true,
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
  // The CMS names the Spotify emulator's Web API when it runs one (offline, tests): the page then
  // plays through the emulator with a stand-in for Spotify's Web Playback SDK.
  const spotifyEmulatorApi = env.meta(SPOTIFY_EMULATOR_META);
  // Likewise for Apple: a MusicKit stand-in logs in through the Apple emulator's consent page.
  const appleEmulatorAuthorize = env.meta(APPLE_EMULATOR_META);
  const knownTracks = new Map<string, PlaybackTrack>();
  const musicKit = appleEmulatorAuthorize
    ? emulatorMusicKit({
        authorizeUrl: appleEmulatorAuthorize,
        location: window.location,
        replaceUrl: (url) => window.history.replaceState(window.history.state, '', url),
        storage: window.localStorage,
        timers: env.timers,
        track: (id) => knownTracks.get(id),
      })
    : null;
  const dataLayer = ((window as unknown as { dataLayer?: unknown[] }).dataLayer ??= []);
  const c = createCampaign({
    env,
    defaultMessages: pageMessagesOf,
    trackingSink: dataLayerSink(dataLayer),
    playerName: PLAYER_NAME,
    ...(spotifyEmulatorApi
      ? { spotifyApiUrl: spotifyEmulatorApi, spotifySdk: async () => emulatorSpotifySdk(spotifyEmulatorApi, env.fetch, env.timers) }
      : { spotifySdk: loadSpotifyWebPlaybackSdk() }),
    // The CMS serves this page, so in a local set-up on any port the page's own origin is the backend.
    backendOrigins: { local: window.location.origin },
    ...(musicKit ? { musicKit: async () => musicKit } : {}),
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
  let release: TerritoryRelease | null = null;
  let presave: Presave | null = null;
  let snapshot = snapshotOf(c, simulation, bannerDismissed);
  const changed = () => {
    snapshot = snapshotOf(c, simulation, bannerDismissed, release, presave);
    for (const l of listeners) l();
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
      return result.status;
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
      const list = (await c.api.spotifyTracks(ids)).map(toPlaybackTrack);
      for (const t of list) knownTracks.set(t.id, t);
      return list;
    },
    createPlayer: (tracks) => createPlayerControls(c, tracks, snapshot.account?.service ?? null),
    pickMedia(fieldId, currentUrl, width, height) {
      c.bridge
        .openMediaLibrary({ fieldId, currentFileUrl: currentUrl && /^https?:/.test(currentUrl) ? currentUrl : null, targetWidth: width, targetHeight: height })
        .catch((err: unknown) => console.warn('Media library request failed', err));
    },
  };
}
