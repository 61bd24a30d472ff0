/** The in-app browser handover: a short-lived, single-use, hashed token carries a visit's state. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer } from '../testing.ts';

describe.each(DB_TARGETS)('in-app browser handover (%s)', (db) => {
  let ts: TestServer;
  let campaign: { id: string; url: string };
  let other: { id: string };

  beforeAll(async () => {
    ts = await startCmsServer(db, { HANDOVER_TTL_MINUTES: '15' });
    const admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'handover-pages');
    const newsletters = [{ id: 'label-news', enabled: true, signup_mode: 'optional' as const, locales: { de: { addressbook_id: 'a', form_id: 'f' }, en: { addressbook_id: 'b', form_id: 'g' } } }];
    campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Handover', slug: 'handover', newsletters });
    other = await createCampaign(ts, admin, { app_id: appId, name: 'Other', slug: 'other' });
  });
  afterAll(async () => ts?.close());

  const api = () => cmsApi(ts);
  const tokenOf = (url: string) => new URL(url).searchParams.get('handover')!;

  it('carries locale, UTM parameters, unsent consents and the wanted login to the system browser, once', async () => {
    const link = await api().call('createHandover', {
      params: { id: campaign.id },
      body: { locale: 'en', utm: { utm_source: 'instagram', utm_medium: 'story', utm_campaign: 'tidal' }, consents: [{ id: 'label-news', accepted: true }], service: 'spotify', from: 'instagram' },
    });
    const url = new URL(link.url);
    expect(url.origin + url.pathname).toBe(campaign.url);
    // Only the token travels in the URL: the state stays on the server.
    expect([...url.searchParams.keys()]).toEqual(['handover']);
    const expiresIn = Date.parse(link.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000 + 1000);

    const state = await api().call('redeemHandover', { params: { id: campaign.id }, body: { token: tokenOf(link.url) } });
    expect(state).toEqual({ locale: 'en', utm: { utm_source: 'instagram', utm_medium: 'story', utm_campaign: 'tidal' }, consents: [{ id: 'label-news', accepted: true }], service: 'spotify', from: 'instagram' });
    // Single use: a second redeem (a shared or replayed link) gets nothing.
    expect((await failure(api().call('redeemHandover', { params: { id: campaign.id }, body: { token: tokenOf(link.url) } }))).status).toBe(404);
  });

  it('stores the token only as its hash', async () => {
    const link = await api().call('createHandover', { params: { id: campaign.id }, body: { locale: 'de' } });
    const rows = await ts.server.ctx.db.selectFrom('cms_handovers').selectAll().execute();
    const token = tokenOf(link.url);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(JSON.stringify(r)).not.toContain(token);
  });

  it('an expired link and a link of another campaign are refused with 404', async () => {
    const link = await api().call('createHandover', { params: { id: campaign.id }, body: { locale: 'de' } });
    expect((await failure(api().call('redeemHandover', { params: { id: other.id }, body: { token: tokenOf(link.url) } }))).status).toBe(404);
    const realNow = ts.server.ctx.now;
    const t0 = realNow();
    ts.server.ctx.now = () => t0 + 15 * 60_000 + 1;
    try {
      expect((await failure(api().call('redeemHandover', { params: { id: campaign.id }, body: { token: tokenOf(link.url) } }))).status).toBe(404);
      // The next handover sweeps the expired rows.
      await api().call('createHandover', { params: { id: campaign.id }, body: {} });
      const left = await ts.server.ctx.db.selectFrom('cms_handovers').select('expires_at').execute();
      expect(left.every((r) => r.expires_at > t0 + 15 * 60_000)).toBe(true);
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it("drops consents for newsletters the campaign lacks and locales it does not offer", async () => {
    const link = await api().call('createHandover', { params: { id: campaign.id }, body: { locale: 'fr', consents: [{ id: 'label-news', accepted: false }, { id: 'elsewhere', accepted: true }] } });
    const state = await api().call('redeemHandover', { params: { id: campaign.id }, body: { token: tokenOf(link.url) } });
    expect(state.locale).toBeUndefined();
    expect(state.consents).toEqual([{ id: 'label-news', accepted: false }]);
  });

  it('bad input is a 4xx with detail: unknown UTM key, oversized value, too many consents, unknown campaign', async () => {
    const bad = async (body: unknown, id = campaign.id) => {
      const e = await failure(api().call('createHandover', { params: { id }, body: body as never }));
      expect(e.body).toHaveProperty('detail');
      return e.status;
    };
    expect(await bad({ utm: { utm_term: 'x' } })).toBe(422);
    expect(await bad({ utm: { utm_source: 'x'.repeat(201) } })).toBe(422);
    expect(await bad({ consents: Array.from({ length: 21 }, (_, i) => ({ id: `n${i}`, accepted: true })) })).toBe(422);
    expect(await bad({ service: 'tidal' })).toBe(422);
    expect(await bad({}, 'missing-campaign')).toBe(404);
    expect((await failure(api().call('redeemHandover', { params: { id: campaign.id }, body: { token: 'short' } }))).status).toBe(422);
  });
});
