/**
 * Translations (spec §5, §8, §9): campaign messages with the app's as fallback on 404, plural
 * rules checked against a numeric pattern, locale detection in the spec's order.
 */
import {
  CAMPAIGN_DEFAULT_LOCALE,
  CAMPAIGN_DEFAULT_LOCALES,
  DEFAULT_PLURAL_FORM,
  PLURAL_FORM_PATTERN,
  type Locale,
  type TranslationsResponse,
  type UserGeo,
} from '@fanfare/protocol';
import { ApiError, type CampaignApi } from './api.ts';
import { Emitter } from './emitter.ts';
import { compilePluralExpression } from './pluralRule.ts';
import type { PageEnv } from './env.ts';
import { SDK_ERRORS } from './errors.ts';
import { readJson, writeJson, type StorageKeys } from './storage.ts';

/** Default locales of spec §9: de and en, plural rule `n != 1`. */
export const DEFAULT_LOCALES: Locale[] = CAMPAIGN_DEFAULT_LOCALES.map((code) => ({ code, pluralForm: DEFAULT_PLURAL_FORM }));

/**
 * Compiles a plural rule such as `nplurals=2; plural=(n != 1);`. Spec §5: anything but a numeric
 * rule (the protocol's pattern, then our expression grammar) throws.
 */
export function compilePluralForm(form: string): (n: number) => number {
  if (form.length > 200 || !PLURAL_FORM_PATTERN.test(form)) throw new Error(SDK_ERRORS.invalidPluralForm(form));
  const expr = /plural\s*=\s*([^;]+);?\s*$/.exec(form)![1]!;
  try {
    return compilePluralExpression(expr);
  } catch {
    throw new Error(SDK_ERRORS.invalidPluralForm(form));
  }
}

/** Spec §9 detection order: stored choice, browser exact, browser base, geo language-country, geo language, default. */
export function detectLocale(available: readonly string[], input: { stored: string | null; browser: readonly string[]; geo: UserGeo | null; fallback: string }): string {
  const find = (code: string | null | undefined) => (code ? available.find((a) => a.toLowerCase() === code.toLowerCase()) : undefined);
  const base = (code: string) => code.split(/[-_]/)[0]!;
  const candidates = [
    () => find(input.stored),
    () => input.browser.map(find).find(Boolean),
    () => input.browser.map((b) => find(base(b))).find(Boolean),
    () => (input.geo ? find(`${input.geo.language_code}-${input.geo.country_code}`) : undefined),
    () => (input.geo ? find(input.geo.language_code) : undefined),
  ];
  for (const c of candidates) {
    const hit = c();
    if (hit) return hit;
  }
  return find(input.fallback) ?? available[0] ?? input.fallback;
}

const isCode = (v: unknown): v is string => typeof v === 'string' && v.length <= 20;

/** The page's own messages of a locale (its labels), under which the campaign's translations lie. */
export type DefaultMessages = (locale: string) => Record<string, string>;

export class I18n {
  readonly events = new Emitter<{ change: { locale: string } }>();
  private locales: Locale[] = DEFAULT_LOCALES;
  private defaultLocale: string = CAMPAIGN_DEFAULT_LOCALE;
  private messages = new Map<string, Record<string, string>>();
  private plurals = new Map<string, (n: number) => number>();
  private current: string = CAMPAIGN_DEFAULT_LOCALE;

  constructor(
    private readonly env: PageEnv,
    private readonly api: CampaignApi,
    /** `hasOwnTranslations: false` when the campaign record is known to hold none (see fetchTranslations). */
    private readonly ids: { campaignId: string | null; app: string | null; hasOwnTranslations?: boolean },
    private readonly keys: StorageKeys | null,
    private readonly defaults: DefaultMessages = () => ({}),
  ) {}

  get locale(): string {
    return this.current;
  }

  get availableLocales(): string[] {
    return this.locales.map((l) => l.code);
  }

  /** Campaign translations, falling back to the app's on 404 (spec §8); other errors are rethrown. */
  async fetchTranslations(): Promise<TranslationsResponse> {
    const { campaignId, app } = this.ids;
    if (!campaignId && !app) throw new Error(SDK_ERRORS.translationsNeedId);
    // A campaign known to hold no translations would answer 404 and send us to the app anyway:
    // asking the app at once spares the visitor's console a failed request on every load.
    const campaignAnswers = campaignId && !(this.ids.hasOwnTranslations === false && app);
    if (campaignAnswers) {
      try {
        return await this.api.campaignTranslations(campaignId!);
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404) || !app) throw err;
      }
    }
    return this.api.appTranslations(app!);
  }

  /** Loads messages and picks the locale. */
  async load(): Promise<string> {
    this.apply(await this.fetchTranslations());
    const geo = await this.api.geo().catch(() => null);
    const stored = this.keys ? readJson(this.env.localStorage, this.keys.locale, isCode) : null;
    this.current = detectLocale(this.availableLocales, { stored, browser: this.env.languages(), geo, fallback: this.defaultLocale });
    this.events.emit('change', { locale: this.current });
    return this.current;
  }

  /** Uses translations given directly (e.g. the editor's unsaved campaign). */
  apply(t: TranslationsResponse): void {
    const locales = t.locales.length > 0 ? t.locales : DEFAULT_LOCALES;
    const plurals = new Map(locales.map((l) => [l.code, compilePluralForm(l.pluralForm)] as const));
    this.locales = locales;
    this.plurals = plurals;
    this.defaultLocale = t.default_locale;
    // The campaign's own messages win key by key over the page's.
    this.messages = new Map(t.items.map((i) => [i.locale, { ...this.defaults(i.locale), ...i.messages }]));
  }

  /** The visitor's choice, stored per campaign. */
  setLocale(code: string): void {
    if (!this.availableLocales.includes(code)) throw new Error(`Unknown locale ${code}`);
    this.current = code;
    if (this.keys) writeJson(this.env.localStorage, this.keys.locale, code);
    this.events.emit('change', { locale: code });
  }

  /**
   * The message of `key`, with `{name}` placeholders filled. Plural messages hold their forms
   * separated by `|`, picked by the locale's rule for `count`. A missing key returns the key and warns (spec §8).
   */
  t(key: string, vars: Record<string, string | number> = {}, locale: string = this.current): string {
    const raw = this.messages.get(locale)?.[key];
    if (raw === undefined) {
      this.env.logger.warn(`Missing translation for "${key}" in ${locale}`);
      return key;
    }
    let text = raw;
    if (typeof vars.count === 'number' && raw.includes('|')) {
      const forms = raw.split('|');
      const index = (this.plurals.get(locale) ?? ((n: number) => Number(n !== 1)))(vars.count);
      text = forms[Math.min(Math.max(index, 0), forms.length - 1)]!;
    }
    return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
  }

  destroy(): void {
    this.events.clear();
  }
}
