import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_META, Campaign } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, call, createApp, createCampaign, login, startCmsServer } from '../testing.ts';

function metaContent(html: string, name: string): string | null {
  const m = new RegExp(`<meta name="${name}" content="([^"]*)">`).exec(html);
  if (!m) return null;
  return m[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

describe.each(DB_TARGETS)('campaign pages (%s)', (db) => {
  let ts: TestServer;
  let admin: string;

  beforeAll(async () => {
    ts = await startCmsServer(db, { CAMPAIGN_ENVIRONMENT: 'live' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
  });
  afterAll(() => ts?.close());

  it('the page at the campaign url embeds the campaign JSON and the environment as metadata', async () => {
    const appId = await createApp(ts, admin, 'fan-pages');
    const c = await createCampaign(ts, admin, {
      app_id: appId,
      name: 'Tour "2030" <live>',
      slug: 'tour',
      meta_tags: { title: 'The Tour', description: 'Dates & tickets', 'og:image': 'https://img.example/t.png' },
    });
    await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: admin });
    const res = await fetch(c.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<title>The Tour</title>');
    expect(html).toContain('<meta name="description" content="Dates &amp; tickets">');
    expect(html).toContain('<meta property="og:image" content="https://img.example/t.png">');
    expect(html).not.toContain('<live>');
    expect(metaContent(html, CAMPAIGN_META.environment)).toBe('production');
    expect(metaContent(html, CAMPAIGN_META.campaignId)).toBe(c.id);
    const embedded = Campaign.parse(JSON.parse(metaContent(html, CAMPAIGN_META.campaign)!));
    expect(embedded).toMatchObject({ id: c.id, name: 'Tour "2030" <live>', slug: 'tour', app: 'fan-pages' });
    // Editors' lock (with an e-mail address) is not shown to visitors.
    expect(embedded.lock).toBeNull();
    expect(html).not.toContain(ADMIN.email);
  });

  it('an unknown campaign page is a 404 page', async () => {
    const res = await fetch(`${ts.cmsUrl}/c/fan-pages/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});
