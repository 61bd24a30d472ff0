import { CAMPAIGN_META, CAMPAIGN_ENVIRONMENT_ALIASES, type Campaign, type CampaignEnvironment } from '@fanfare/protocol';
import { PAGE_MESSAGES } from '../messages.ts';
import { pageOf } from '../rules/look.ts';
import type { PageRuntime, PageView, Phase } from './types.ts';

/** The SDK's local-storage key of a campaign's chosen locale (a test keeps it equal to `storageKeys`). */
export const storedLocaleKey = (campaignId: string) => `fanfare:${campaignId}:locale`;

/** Where the campaign stands at `now`, by its dates (spec 4 "Campaign timing"). */
export function phaseAt(campaign: Pick<Campaign, 'starts_at' | 'ends_at'>, now: number): Phase {
  if (campaign.ends_at && Date.parse(campaign.ends_at) <= now) return 'ended';
  if (campaign.starts_at && Date.parse(campaign.starts_at) > now) return 'upcoming';
  return 'running';
}

/** The first-paint locale: the stored choice, then the browser's languages (exact, then base), then the default. */
export function firstLocale(available: readonly string[], stored: string | null, browser: readonly string[], fallback: string): string {
  if (stored && available.includes(stored)) return stored;
  for (const lang of browser) if (available.includes(lang)) return lang;
  for (const lang of browser) {
    const base = lang.split(/[-_]/)[0]!;
    if (available.includes(base)) return base;
  }
  return available.includes(fallback) ? fallback : (available[0] ?? fallback);
}

/** `{name}` filled and the `|`-separated plural form picked by the default rule (n != 1). */
export function formatMessage(raw: string, vars: Record<string, string | number> = {}): string {
  let text = raw;
  if (typeof vars.count === 'number' && raw.includes('|')) {
    const forms = raw.split('|');
    text = forms[Math.min(Number(vars.count !== 1), forms.length - 1)]!;
  }
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}

/**
 * Spec §5: the environment must be staging, production (also live, prod) or local, else
 * 'Invalid environment', already at first paint (the SDK, loading later, applies the same rule).
 */
export function firstEnvironment(value: string): CampaignEnvironment {
  const key = value.trim().toLowerCase();
  // Own keys only: 'constructor' or 'toString' are not environments.
  if (!Object.hasOwn(CAMPAIGN_ENVIRONMENT_ALIASES, key)) throw new Error('Invalid environment');
  return CAMPAIGN_ENVIRONMENT_ALIASES[key]!;
}

/** The campaign from the page metadata, read without the validator (the SDK validates it next). */
function readMetadata(): { campaign: Campaign; environment: string } {
  const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? null;
  const json = meta(CAMPAIGN_META.campaign);
  if (!meta(CAMPAIGN_META.campaignId) || !json) throw new Error('CMS Campaign ID is not loaded, check meta tags');
  return { campaign: JSON.parse(json) as Campaign, environment: meta(CAMPAIGN_META.environment) ?? '' };
}

/**
 * The page's runtime at first paint. The page renders at once from the metadata the CMS wrote
 * (hero, countdown, texts in the likely locale) while the campaign SDK, with its validator, loads
 * in its own chunk; every action waits for it, and its snapshot replaces the first one when it is
 * ready. This keeps the first chunk small for fans on phones.
 */
export function bootRuntime(load: () => Promise<PageRuntime> = () => import('./createRuntime.ts').then((m) => m.createRuntime())): { runtime: PageRuntime; ready: Promise<PageRuntime> } {
  const { campaign, environment } = readMetadata();
  const locales = campaign.i18n?.locales?.map((l) => l.code) ?? ['de', 'en'];
  const defaultLocale = campaign.i18n?.default_locale ?? 'de';
  let stored: string | null = null;
  try {
    stored = JSON.parse(localStorage.getItem(storedLocaleKey(campaign.id)) ?? 'null') as string | null;
  } catch {
    stored = null; // storage blocked or a foreign value
  }
  const locale = firstLocale(locales, typeof stored === 'string' ? stored : null, navigator.languages ?? [navigator.language], defaultLocale);
  const gate = campaign.token_gate;
  const first: PageView = {
    campaign,
    page: pageOf(campaign),
    environment: firstEnvironment(environment),
    phase: phaseAt(campaign, Date.now()),
    locale,
    defaultLocale,
    locales,
    banner: null,
    // A gated campaign waits for the SDK's verdict; the gate page itself is always shown.
    hasAccess: gate.enabled && gate.product_id && !campaign.is_token_gate ? null : true,
    account: null,
    unavailable: {},
    sdkLoading: {},
    isEditor: false,
    isReady: false,
    restoredConsents: [],
    release: null,
    presave: null,
  };
  document.documentElement.lang = locale;

  const listeners = new Set<() => void>();
  let real: PageRuntime | null = null;
  const ready = load().then((rt) => {
    real = rt;
    rt.subscribe(() => listeners.forEach((l) => l()));
    listeners.forEach((l) => l());
    return rt;
  });
  const messages = PAGE_MESSAGES[locale as 'de' | 'en'] ?? PAGE_MESSAGES.en;

  const runtime: PageRuntime = {
    getSnapshot: () => (real ? real.getSnapshot() : first),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    t: (key, vars) => (real ? real.t(key, vars) : formatMessage(messages[key] ?? key, vars)),
    now: () => (real ? real.now() : Date.now()),
    setLocale: (code) => void ready.then((rt) => rt.setLocale(code)),
    signup: (email, consents) => ready.then((rt) => rt.signup(email, consents)),
    checkCode: (code) => ready.then((rt) => rt.checkCode(code)),
    login: (service) => ready.then((rt) => rt.login(service)),
    noteConsents: (ids) => void ready.then((rt) => rt.noteConsents(ids)),
    handover: (service, from) => ready.then((rt) => rt.handover(service, from)),
    logout: () => ready.then((rt) => rt.logout()),
    dismissBanner: () => real?.dismissBanner(),
    presave: (body) => ready.then((rt) => rt.presave(body)),
    tracks: (ids) => ready.then((rt) => rt.tracks(ids)),
    createPlayer: (tracks) => {
      if (!real) throw new Error('The player needs the campaign runtime');
      return real.createPlayer(tracks);
    },
    pickMedia: (fieldId, url, w, h) => void ready.then((rt) => rt.pickMedia(fieldId, url, w, h)),
  };
  return { runtime, ready };
}
