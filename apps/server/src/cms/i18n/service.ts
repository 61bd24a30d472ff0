import {
  CAMPAIGN_DEFAULT_LOCALE,
  CAMPAIGN_DEFAULT_LOCALES,
  DEFAULT_PLURAL_FORM,
  NEWSLETTER_BANNER_MESSAGES,
  type AppConfig,
  type I18nSettings,
  type Locale,
  type TranslationsResponse,
  type UserGeo,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { notFound } from '../../platform/errors.ts';
import type { CampaignView } from '../editorial/preview.ts';
import { COUNTRY_CODES } from './countries.ts';

const CACHE_TTL_MS = 60_000;

/** Built-in translations under every app's: the default locales and the newsletter banner texts. */
const BUILT_IN: I18nSettings = {
  default_locale: CAMPAIGN_DEFAULT_LOCALE,
  locales: CAMPAIGN_DEFAULT_LOCALES.map((code) => ({ code, pluralForm: DEFAULT_PLURAL_FORM })),
  translations: CAMPAIGN_DEFAULT_LOCALES.map((locale) => ({
    locale,
    messages: {
      'newsletter.success': NEWSLETTER_BANNER_MESSAGES[locale].success,
      'newsletter.error': NEWSLETTER_BANNER_MESSAGES[locale].error,
    },
  })),
};

/**
 * Layers translations: later layers override earlier ones key by key, so a campaign's messages win
 * over its app's, and the app's over the built-in ones (a key missing above falls back below).
 */
export function layerTranslations(layers: (I18nSettings | null | undefined)[]): TranslationsResponse {
  const locales = new Map<string, Locale>();
  const messages = new Map<string, Record<string, string>>();
  let defaultLocale: string = CAMPAIGN_DEFAULT_LOCALE;
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.default_locale) defaultLocale = layer.default_locale;
    for (const l of layer.locales ?? []) locales.set(l.code, l);
    for (const t of layer.translations ?? []) {
      messages.set(t.locale, { ...messages.get(t.locale), ...t.messages });
      if (!locales.has(t.locale)) locales.set(t.locale, { code: t.locale, pluralForm: DEFAULT_PLURAL_FORM });
    }
  }
  if (!locales.has(defaultLocale)) locales.set(defaultLocale, { code: defaultLocale, pluralForm: DEFAULT_PLURAL_FORM });
  return {
    default_locale: defaultLocale,
    locales: [...locales.values()],
    items: [...locales.keys()].map((locale) => ({ locale, messages: messages.get(locale) ?? {} })),
  };
}

/** Apps' translations as this node last read them, each trusted for a minute (the composition root makes one per server). */
export class AppTranslationsCache {
  private readonly entries = new Map<string, { value: TranslationsResponse; at: number }>();

  /** The app's translations read less than a minute before `now`, or undefined. */
  recent(appId: string, now: number): TranslationsResponse | undefined {
    const hit = this.entries.get(appId);
    return hit && now - hit.at < CACHE_TTL_MS ? hit.value : undefined;
  }

  store(appId: string, value: TranslationsResponse, now: number): void {
    this.entries.set(appId, { value, at: now });
  }

  /** Drops an app's cached translations (config reload). */
  drop(appId: string): void {
    this.entries.delete(appId);
  }
}

async function appRow(ctx: ServerContext, idOrName: string) {
  return ctx.db
    .selectFrom('cms_apps')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .executeTakeFirst();
}

/** An app's translations over the built-in ones; cached for a minute unless `fresh`. */
export async function appTranslations(ctx: ServerContext, idOrName: string, fresh: boolean): Promise<TranslationsResponse> {
  const app = await appRow(ctx, idOrName);
  if (!app) throw notFound('App not found');
  const now = ctx.now();
  const recent = fresh ? undefined : ctx.appTranslations.recent(app.id, now);
  if (recent) return recent;
  const value = layerTranslations([BUILT_IN, parseJson<AppConfig>(app.config, {}).i18n]);
  ctx.appTranslations.store(app.id, value, now);
  return value;
}

/** A campaign's translations over its app's; 404 when the campaign has none (the page then asks the app). */
export async function campaignTranslations(ctx: ServerContext, campaignId: string, view: CampaignView = 'published'): Promise<TranslationsResponse> {
  // Visitors read the published version; an unpublished campaign is not there for them. The
  // editor's preview reads the draft.
  const row = await ctx.db.selectFrom('cms_campaigns').select(['app_id', 'doc', 'published_doc']).where('id', '=', campaignId).executeTakeFirst();
  if (!row || (view === 'published' && row.published_doc === null)) throw notFound('Campaign not found');
  const i18n =
    view === 'draft'
      ? parseJson<{ i18n?: I18nSettings | null }>(row.doc, {}).i18n
      : parseJson<{ doc?: { i18n?: I18nSettings | null } }>(row.published_doc ?? '{}', {}).doc?.i18n;
  if (!i18n || (i18n.translations ?? []).length === 0) throw notFound('This campaign has no translations');
  const app = await appTranslations(ctx, row.app_id, false);
  return layerTranslations([
    { default_locale: app.default_locale, locales: app.locales, translations: app.items },
    i18n,
  ]);
}

/**
 * The visitor's country and language: the country from the header a proxy or CDN sets
 * (GEO_COUNTRY_HEADER, e.g. cf-ipcountry), else from the region of the preferred language
 * (Accept-Language `de-AT` gives AT); the language from Accept-Language. Defaults from
 * GEO_DEFAULT_COUNTRY / GEO_DEFAULT_LANGUAGE (DE, de).
 */
export function geoOf(ctx: ServerContext, headers: Record<string, string | string[] | undefined>): UserGeo {
  const { geoCountryHeader, geoDefaultCountry, geoDefaultLanguage } = ctx.config.cms;
  const known = new Set(COUNTRY_CODES);
  const raw = headers[geoCountryHeader];
  const fromHeader = (Array.isArray(raw) ? raw[0] : raw)?.trim().toUpperCase();
  const languages = parseAcceptLanguage(String(headers['accept-language'] ?? ''));
  const fromLanguage = languages.map((l) => l.split('-')[1]?.toUpperCase()).find((r) => r && known.has(r));
  const country = fromHeader && known.has(fromHeader) ? fromHeader : (fromLanguage ?? geoDefaultCountry);
  const language = languages.map((l) => l.split('-')[0]!.toLowerCase()).find((l) => /^[a-z]{2,3}$/.test(l)) ?? geoDefaultLanguage;
  return { country_code: country, language_code: language };
}

/** Language tags of an Accept-Language header, most preferred first. */
function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag!.trim(), q: q ? Number(q) : 1 };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q)
    .map((x) => x.tag);
}
