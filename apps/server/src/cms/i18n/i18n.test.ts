import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLURAL_FORM } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, call, createApp, createCampaign, login, startCmsServer } from '../testing.ts';

describe.each(DB_TARGETS)('i18n: translations, geo, countries (%s)', (db) => {
  let ts: TestServer;
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
    const r = await call(ts, 'GET', '/api/apps/fan-pages/translations');
    expect(r.status).toBe(200);
    expect(r.body.default_locale).toBe('en');
    expect(r.body.locales).toEqual(
      expect.arrayContaining([
        { code: 'de', pluralForm: DEFAULT_PLURAL_FORM },
        { code: 'en', pluralForm: DEFAULT_PLURAL_FORM },
        { code: 'fr', pluralForm: 'nplurals=2; plural=(n > 1);' },
      ]),
    );
    const en = r.body.items.find((t: { locale: string }) => t.locale === 'en');
    expect(en.messages['cta.listen']).toBe('Listen now');
    expect(en.messages['newsletter.success']).toMatch(/subscription was successful/);
    expect((await call(ts, 'GET', `/api/apps/${appId}/translations`)).body).toEqual(r.body);
    expect((await call(ts, 'GET', '/api/apps/missing/translations')).status).toBe(404);
  });

  it('campaign translations: 404 when the campaign has none (the page falls back to the app)', async () => {
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Plain', slug: 'plain' });
    const r = await call(ts, 'GET', `/api/campaigns/${c.id}/translations`);
    expect(r.status).toBe(404);
    expect(r.body.detail).toMatch(/no translations/);
    expect((await call(ts, 'GET', '/api/campaigns/missing/translations')).status).toBe(404);
  });

  it('campaign translations override the app key by key; missing keys fall back to the app', async () => {
    const c = await createCampaign(ts, admin, {
      app_id: appId,
      name: 'Translated',
      slug: 'translated',
      i18n: { translations: [{ locale: 'en', messages: { 'cta.listen': 'Stream the album' } }] },
    });
    const r = await call(ts, 'GET', `/api/campaigns/${c.id}/translations`);
    expect(r.status).toBe(200);
    const en = r.body.items.find((t: { locale: string }) => t.locale === 'en');
    expect(en.messages['cta.listen']).toBe('Stream the album');
    expect(en.messages['footer.imprint']).toBe('Imprint');
    const de = r.body.items.find((t: { locale: string }) => t.locale === 'de');
    expect(de.messages['cta.listen']).toBe('Jetzt anhören');
  });

  it('a bad plural form is refused (422) and not stored', async () => {
    const r = await call(ts, 'POST', '/api/campaigns', {
      token: admin,
      body: { app_id: appId, name: 'Bad', slug: 'bad-plural', i18n: { locales: [{ code: 'en', pluralForm: 'alert(1)' }], translations: [] } },
    });
    expect(r.status).toBe(422);
  });

  it('app translations are cached; ?fresh bypasses the cache; a config reload clears it', async () => {
    await call(ts, 'GET', '/api/apps/fan-pages/translations');
    const config = { i18n: { translations: [{ locale: 'en', messages: { 'cta.listen': 'Changed' } }] } };
    await ts.server.ctx.db.updateTable('cms_apps').set({ config: JSON.stringify(config) }).where('id', '=', appId).execute();
    const cached = await call(ts, 'GET', '/api/apps/fan-pages/translations');
    expect(cached.body.items.find((t: { locale: string }) => t.locale === 'en').messages['cta.listen']).toBe('Listen now');
    const fresh = await call(ts, 'GET', '/api/apps/fan-pages/translations?fresh=true');
    expect(fresh.body.items.find((t: { locale: string }) => t.locale === 'en').messages['cta.listen']).toBe('Changed');
    const bare = await call(ts, 'GET', '/api/apps/fan-pages/translations?fresh');
    expect(bare.body.items.find((t: { locale: string }) => t.locale === 'en').messages['cta.listen']).toBe('Changed');
  });

  it('geo: the country from the proxy header, else from Accept-Language, else the default DE/de', async () => {
    const geo = (headers: Record<string, string>) => call(ts, 'GET', '/api/i18n/geo', { headers });
    expect((await geo({ 'x-country': 'at', 'accept-language': 'en-US,en;q=0.9' })).body).toEqual({ country_code: 'AT', language_code: 'en' });
    expect((await geo({ 'accept-language': 'fr;q=0.5, en-GB;q=0.8' })).body).toEqual({ country_code: 'GB', language_code: 'en' });
    expect((await geo({ 'x-country': 'XX' })).body).toEqual({ country_code: 'DE', language_code: 'de' });
    expect((await geo({})).body).toEqual({ country_code: 'DE', language_code: 'de' });
  });

  it('countries: every ISO country with its name, in the asked locale', async () => {
    const en = await call(ts, 'GET', '/api/i18n/countries');
    expect(en.body.items.length).toBeGreaterThan(240);
    expect(en.body.items).toContainEqual({ code: 'DE', name: 'Germany' });
    const de = await call(ts, 'GET', '/api/i18n/countries?locale=de');
    expect(de.body.items).toContainEqual({ code: 'DE', name: 'Deutschland' });
  });
});
