import { ApiError } from '@fanfare/client';
import type { TranslationsResponse } from '@fanfare/protocol';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_LOCALES, I18n, compilePluralForm, detectLocale } from './i18n.ts';
import { storageKeys } from './storage.ts';
import { fakeApi, fakeEnv } from './test/fakes.ts';

const translations = (over: Partial<TranslationsResponse> = {}): TranslationsResponse => ({
  default_locale: 'de',
  locales: [
    { code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' },
    { code: 'en', pluralForm: 'nplurals=2; plural=(n != 1);' },
    { code: 'pl', pluralForm: 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);' },
  ],
  items: [
    { locale: 'de', messages: { hello: 'Hallo {name}', tracks: 'ein Titel|{count} Titel' } },
    { locale: 'en', messages: { hello: 'Hello {name}', tracks: 'one track|{count} tracks' } },
    { locale: 'pl', messages: { tracks: '{count} utwór|{count} utwory|{count} utworów' } },
  ],
  ...over,
});

describe('i18n', () => {
  it('campaign spec §8: campaign translations fall back to the app translations on 404', async () => {
    const { env } = fakeEnv();
    const app = vi.fn(async () => translations({ default_locale: 'en' }));
    const i18n = new I18n(env, fakeApi({ campaignTranslations: vi.fn(async () => Promise.reject(new ApiError(404, { detail: 'No translations' }, 'u'))), appTranslations: app }), { campaignId: 'c1', app: 'fan-pages' }, null);
    await expect(i18n.fetchTranslations()).resolves.toMatchObject({ default_locale: 'en' });
    expect(app).toHaveBeenCalledWith('fan-pages');
  });

  it('a campaign known to hold no translations asks the app at once, with no failing campaign request', async () => {
    const { env } = fakeEnv();
    const campaign = vi.fn(async () => Promise.reject(new ApiError(404, { detail: 'No translations' }, 'u')));
    const app = vi.fn(async () => translations({ default_locale: 'en' }));
    const i18n = new I18n(env, fakeApi({ campaignTranslations: campaign, appTranslations: app }), { campaignId: 'c1', app: 'fan-pages', hasOwnTranslations: false }, null);
    await expect(i18n.fetchTranslations()).resolves.toMatchObject({ default_locale: 'en' });
    expect(campaign).not.toHaveBeenCalled();
    expect(app).toHaveBeenCalledWith('fan-pages');
  });

  it('a campaign that holds translations is asked first', async () => {
    const { env } = fakeEnv();
    const campaign = vi.fn(async () => translations({ default_locale: 'pl' }));
    const app = vi.fn();
    const i18n = new I18n(env, fakeApi({ campaignTranslations: campaign, appTranslations: app }), { campaignId: 'c1', app: 'fan-pages', hasOwnTranslations: true }, null);
    await expect(i18n.fetchTranslations()).resolves.toMatchObject({ default_locale: 'pl' });
    expect(app).not.toHaveBeenCalled();
  });

  it('campaign spec §8: other errors of the campaign translations are rethrown', async () => {
    const { env } = fakeEnv();
    const app = vi.fn();
    const i18n = new I18n(env, fakeApi({ campaignTranslations: vi.fn(async () => Promise.reject(new ApiError(500, null, 'u'))), appTranslations: app }), { campaignId: 'c1', app: 'fan-pages' }, null);
    await expect(i18n.fetchTranslations()).rejects.toMatchObject({ status: 500 });
    expect(app).not.toHaveBeenCalled();
  });

  it("campaign spec §8: 'App or Campaign ID must be set to load translations'", async () => {
    const { env } = fakeEnv();
    const i18n = new I18n(env, fakeApi(), { campaignId: null, app: null }, null);
    await expect(i18n.fetchTranslations()).rejects.toThrow('App or Campaign ID must be set to load translations');
  });

  it('campaign spec §8: a missing key returns the key and logs a warning', () => {
    const { env, logs } = fakeEnv();
    const i18n = new I18n(env, fakeApi(), { campaignId: 'c1', app: null }, null);
    i18n.apply(translations());
    expect(i18n.t('hello', { name: 'Mara' })).toBe('Hallo Mara');
    expect(i18n.t('nope')).toBe('nope');
    expect(logs).toEqual([{ level: 'warn', args: ['Missing translation for "nope" in de'] }]);
  });

  it("the page's own messages lie under the campaign's translations: the campaign's win key by key", () => {
    const { env } = fakeEnv();
    const page = (locale: string) => ({ hello: `page hello (${locale})`, bye: `page bye (${locale})` });
    const i18n = new I18n(env, fakeApi(), { campaignId: 'c1', app: null }, null, page);
    i18n.apply(translations());
    expect(i18n.t('hello', { name: 'Mara' })).toBe('Hallo Mara');
    expect(i18n.t('bye')).toBe('page bye (de)');
    expect(i18n.t('hello', {}, 'pl')).toBe('page hello (pl)');
  });

  it('campaign spec §5: plural-form strings must match the numeric rule pattern, otherwise an error', () => {
    expect(compilePluralForm('nplurals=2; plural=(n != 1);')(1)).toBe(0);
    expect(compilePluralForm('nplurals=2; plural=(n != 1);')(2)).toBe(1);
    expect(() => compilePluralForm('nplurals=2; plural=alert(1);')).toThrow('Invalid plural form');
    expect(() => compilePluralForm('plural=(n != 1)')).toThrow('Invalid plural form');
    const { env } = fakeEnv();
    const i18n = new I18n(env, fakeApi(), { campaignId: 'c1', app: null }, null);
    expect(() => i18n.apply(translations({ locales: [{ code: 'de', pluralForm: 'window.x' }] }))).toThrow('Invalid plural form');
  });

  it('campaign spec §3: plural messages pick their form by the locale rule (three forms in Polish)', () => {
    const { env } = fakeEnv();
    const i18n = new I18n(env, fakeApi(), { campaignId: 'c1', app: null }, null);
    i18n.apply(translations());
    i18n.setLocale('pl');
    expect([1, 3, 5, 22].map((count) => i18n.t('tracks', { count }))).toEqual(['1 utwór', '3 utwory', '5 utworów', '22 utwory']);
    i18n.setLocale('en');
    expect(i18n.t('tracks', { count: 1 })).toBe('one track');
    expect(i18n.t('tracks', { count: 7 })).toBe('7 tracks');
  });

  it('campaign spec §9: default locales are de and en with the rule n != 1', () => {
    expect(DEFAULT_LOCALES).toEqual([
      { code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' },
      { code: 'en', pluralForm: 'nplurals=2; plural=(n != 1);' },
    ]);
    const { env } = fakeEnv();
    const i18n = new I18n(env, fakeApi(), { campaignId: 'c1', app: null }, null);
    i18n.apply(translations({ locales: [] }));
    expect(i18n.availableLocales).toEqual(['de', 'en']);
  });

  it('campaign spec §9: locale detection order: stored, browser exact, browser base, geo language-country, geo language, default', () => {
    const available = ['de', 'en', 'en-GB', 'fr-CA', 'it'];
    const geo = { country_code: 'CA', language_code: 'fr' };
    expect(detectLocale(available, { stored: 'it', browser: ['en-GB'], geo, fallback: 'de' })).toBe('it');
    expect(detectLocale(available, { stored: null, browser: ['en-GB', 'de'], geo, fallback: 'de' })).toBe('en-GB');
    expect(detectLocale(available, { stored: null, browser: ['es', 'en-US'], geo, fallback: 'de' })).toBe('en');
    expect(detectLocale(available, { stored: null, browser: ['es'], geo, fallback: 'de' })).toBe('fr-CA');
    expect(detectLocale(available, { stored: null, browser: ['es'], geo: { country_code: 'IT', language_code: 'it' }, fallback: 'de' })).toBe('it');
    expect(detectLocale(available, { stored: null, browser: ['es'], geo: null, fallback: 'de' })).toBe('de');
    expect(detectLocale(available, { stored: 'xx', browser: [], geo: null, fallback: 'en' })).toBe('en');
  });

  it('campaign spec §9: the chosen locale is stored per campaign and wins on the next load', async () => {
    const f = fakeEnv({ languages: ['en-US'] });
    const api = fakeApi({ campaignTranslations: vi.fn(async () => translations()), geo: vi.fn(async () => ({ country_code: 'DE', language_code: 'de' })) });
    const first = new I18n(f.env, api, { campaignId: 'c1', app: null }, storageKeys('c1'));
    await expect(first.load()).resolves.toBe('en');
    first.setLocale('pl');
    expect(JSON.parse(f.local.getItem(storageKeys('c1').locale)!)).toBe('pl');
    const second = new I18n(f.env, api, { campaignId: 'c1', app: null }, storageKeys('c1'));
    await expect(second.load()).resolves.toBe('pl');
  });

  it('setLocale: only a known locale, stored per campaign and announced; t() reads another locale on request', () => {
    const f = fakeEnv();
    const keys = storageKeys('c1');
    const i18n = new I18n(f.env, fakeApi(), { campaignId: 'c1', app: null }, keys);
    i18n.apply(translations());
    const changes: unknown[] = [];
    i18n.events.on('change', (e) => changes.push(e));
    expect(() => i18n.setLocale('xx')).toThrow('Unknown locale xx');
    expect(changes).toEqual([]);
    i18n.setLocale('en');
    expect(changes).toEqual([{ locale: 'en' }]);
    expect(JSON.parse(f.local.getItem(keys.locale)!)).toBe('en');
    expect(i18n.t('hello', { name: 'Ana' }, 'de')).toBe('Hallo Ana');
    // Without a count, or with a message of one form, no form is picked; unknown placeholders stay.
    expect(i18n.t('tracks')).toBe('one track|{count} tracks');
    expect(i18n.t('hello', { count: 2 })).toBe('Hello {name}');
    expect(i18n.t('tracks', { count: '2' })).toBe('one track|2 tracks');
    i18n.destroy();
    i18n.setLocale('de');
    expect(changes).toHaveLength(1);
  });

  it('a plural message in a locale without a compiled rule falls back to n != 1; a rule past the forms takes the last', () => {
    const { env } = fakeEnv();
    const i18n = new I18n(env, fakeApi(), { campaignId: 'c1', app: null }, null);
    i18n.apply(translations({ locales: [{ code: 'de', pluralForm: 'nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);' }], items: [{ locale: 'de', messages: { x: 'one|many' } }, { locale: 'fr', messages: { x: 'un|plusieurs' } }] }));
    expect(i18n.t('x', { count: 5 }, 'de')).toBe('many');
    expect(i18n.t('x', { count: 1 }, 'fr')).toBe('un');
    expect(i18n.t('x', { count: 0 }, 'fr')).toBe('plusieurs');
  });

  it('campaign spec §5: a plural rule longer than 200 characters is refused', () => {
    const long = `nplurals=2; plural=(n != 1${' '.repeat(200)});`;
    expect(() => compilePluralForm(long)).toThrow();
    expect(compilePluralForm('nplurals=2; plural=(n != 1)  ')(1)).toBe(0);
  });
});
