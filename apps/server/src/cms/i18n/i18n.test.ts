import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLURAL_FORM, type TranslationsResponse } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, errorDetail, failure, login, rawCall, startCmsServer } from '../testing.ts';

describe.each(DB_TARGETS)('i18n: translations, geo, countries (%s)', (db) => {
  let ts: TestServer;
  const api = () => cmsApi(ts);
  const appTranslations = (app: string, query: { fresh?: string } = {}) => api().call('getAppTranslations', { params: { app }, query });
  const messagesOf = (r: TranslationsResponse, locale: string) => r.items.find((t) => t.locale === locale)!.messages;
  let admin: string;
  let appId: string;

  beforeAll(async () => {
    ts = await startCmsServer(db, { GEO_COUNTRY_HEADER: 'X-Country' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    appId = await createApp(ts, admin, 'fan-pages', {
      i18n: {
        default_locale: 'en',
        locales: [{ code: 'fr', pluralForm: 'nplurals=2; plural=(n > 1);' }],
        translations: [
          { locale: 'en', messages: { 'cta.listen': 'Listen now', 'footer.imprint': 'Imprint' } },
          { locale: 'de', messages: { 'cta.listen': 'Jetzt anhören' } },
        ],
      },
    });
  });
  afterAll(() => ts?.close());

  it('app translations: the default locales de and en with the default plural rule, the app messages and locales', async () => {
    const r = await appTranslations('fan-pages');
    expect(r.default_locale).toBe('en');
    expect(r.locales).toEqual(
      expect.arrayContaining([
        { code: 'de', pluralForm: DEFAULT_PLURAL_FORM },
        { code: 'en', pluralForm: DEFAULT_PLURAL_FORM },
        { code: 'fr', pluralForm: 'nplurals=2; plural=(n > 1);' },
      ]),
    );
    const en = messagesOf(r, 'en');
    expect(en['cta.listen']).toBe('Listen now');
    expect(en['newsletter.success']).toMatch(/subscription was successful/);
    expect(await appTranslations(appId)).toEqual(r);
    expect((await failure(appTranslations('missing'))).status).toBe(404);
  });

  it('campaign translations: 404 when the campaign has none (the page falls back to the app)', async () => {
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Plain', slug: 'plain' });
    const r = await failure(api().call('getCampaignTranslations', { params: { id: c.id } }));
    expect(r.status).toBe(404);
    expect(r.message).toMatch(/no translations/);
    expect((await failure(api().call('getCampaignTranslations', { params: { id: 'missing' } }))).status).toBe(404);
  });

  it('campaign translations override the app key by key; missing keys fall back to the app', async () => {
    const c = await createCampaign(ts, admin, {
      app_id: appId,
      name: 'Translated',
      slug: 'translated',
      i18n: { translations: [{ locale: 'en', messages: { 'cta.listen': 'Stream the album' } }] },
    });
    const r = await api().call('getCampaignTranslations', { params: { id: c.id } });
    const en = messagesOf(r, 'en');
    expect(en['cta.listen']).toBe('Stream the album');
    expect(en['footer.imprint']).toBe('Imprint');
    expect(messagesOf(r, 'de')['cta.listen']).toBe('Jetzt anhören');
  });

  it('a bad plural form is refused (422) and not stored', async () => {
    const r = await failure(
      cmsApi(ts, admin).call('createCampaign', {
        body: { app_id: appId, name: 'Bad', slug: 'bad-plural', i18n: { locales: [{ code: 'en', pluralForm: 'alert(1)' }], translations: [] } },
      }),
    );
    expect(r.status).toBe(422);
    expect((await cmsApi(ts, admin).call('slugExists', { params: { app: appId, slug: 'bad-plural' } })).exists).toBe(false);
  });

  it('app translations are cached; ?fresh bypasses the cache; a config reload clears it', async () => {
    await appTranslations('fan-pages');
    const config = { i18n: { translations: [{ locale: 'en', messages: { 'cta.listen': 'Changed' } }] } };
    await ts.server.ctx.db.updateTable('cms_apps').set({ config: JSON.stringify(config) }).where('id', '=', appId).execute();
    expect(messagesOf(await appTranslations('fan-pages'), 'en')['cta.listen']).toBe('Listen now');
    expect(messagesOf(await appTranslations('fan-pages', { fresh: 'true' }), 'en')['cta.listen']).toBe('Changed');
    expect(messagesOf(await appTranslations('fan-pages', { fresh: '' }), 'en')['cta.listen']).toBe('Changed');
  });

  it('geo: the country from the proxy header, else from Accept-Language, else the default DE/de', async () => {
    const geo = (headers: Record<string, string>) => api().call('getGeo', {}, { headers });
    expect(await geo({ 'x-country': 'at', 'accept-language': 'en-US,en;q=0.9' })).toEqual({ country_code: 'AT', language_code: 'en' });
    expect(await geo({ 'accept-language': 'fr;q=0.5, en-GB;q=0.8' })).toEqual({ country_code: 'GB', language_code: 'en' });
    expect(await geo({ 'x-country': 'XX' })).toEqual({ country_code: 'DE', language_code: 'de' });
    expect(await geo({})).toEqual({ country_code: 'DE', language_code: 'de' });
  });

  it('countries: every ISO country with its name, in the asked locale', async () => {
    const en = await api().call('listCountries');
    expect(en.items.length).toBeGreaterThan(240);
    expect(en.items).toContainEqual({ code: 'DE', name: 'Germany' });
    const de = await api().call('listCountries', { query: { locale: 'de' } });
    expect(de.items).toContainEqual({ code: 'DE', name: 'Deutschland' });
  });

  it('countries: a long or malformed locale tag answers 422 {detail} like any invalid query, never 500; en_GB reads as en-GB', async () => {
    // Raw: the typed client would refuse these queries before sending them.
    for (const locale of ['en-aaaaaaaa-aaaaaaaa', `en-${'abcdefgh-'.repeat(40)}x1`, 'x'.repeat(5000)]) {
      const res = await rawCall(ts, 'GET', `/api/i18n/countries?locale=${encodeURIComponent(locale)}`);
      expect(res.status, locale).toBe(422);
      expect(errorDetail(res.body)).toBeTruthy();
    }
    const gb = await api().call('listCountries', { query: { locale: 'en_GB' } });
    expect(gb.items).toContainEqual({ code: 'DE', name: 'Germany' });
  });
});
