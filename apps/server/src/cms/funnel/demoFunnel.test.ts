import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { DEMO_APP_NAME, DEMO_RELEASE_SLUG } from '../demoCampaign.ts';
import { ADMIN, cmsApi, login, startCmsServer } from '../testing.ts';
import { DEMO_FUNNEL_UTM_CAMPAIGN, seedDemoFunnel } from './demoFunnel.ts';

describe.each(DB_TARGETS)('demo funnel (README: npm start shows a funnel with data) on %s', (db) => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startCmsServer(db);
  });
  afterAll(async () => ts?.close());

  it('the demo release campaign has a funnel of clearly synthetic events, seeded once', async () => {
    const admin = await login(ts, ADMIN.email, ADMIN.password);
    const api = cmsApi(ts, admin);
    const campaign = (await api.call('listCampaigns', {})).items.find((c) => c.slug === DEMO_RELEASE_SLUG && c.app === DEMO_APP_NAME)!;
    const f = await api.call('campaignFunnel', { params: { id: campaign.id }, query: {} });
    expect(f.totals.visit).toBe(1200);
    for (let i = 1; i < f.steps.length; i++) expect(f.steps[i]!.count).toBeLessThanOrEqual(f.steps[i - 1]!.count);
    expect(f.steps.at(-1)!.count).toBeGreaterThan(0);
    expect(f.channels.every((c) => c.utm_campaign === DEMO_FUNNEL_UTM_CAMPAIGN)).toBe(true);
    // The A/B test runs, and both variants have visitors to compare.
    expect(f.ab_test_enabled).toBe(true);
    expect(f.variants.map((v) => v.variant)).toEqual(['a', 'b']);
    for (const v of f.variants) expect(v.counts.visit).toBeGreaterThan(0);
    expect(f.comparison.every((c) => c.confidence !== null)).toBe(true);
    await seedDemoFunnel(ts.server.ctx);
    expect((await api.call('campaignFunnel', { params: { id: campaign.id }, query: {} })).totals).toEqual(f.totals);
  });
});
