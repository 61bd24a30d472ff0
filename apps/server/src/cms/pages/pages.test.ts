import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_META, Campaign, PROVIDER_SDK_META } from '@fanfare/protocol';
import { EMULATOR_APPLE_DEVELOPER_TOKEN } from '../../platform/config.ts';
import { createHttpApp } from '../../platform/http.ts';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, login, startCmsServer } from '../testing.ts';
import { registerPageRoutes } from './routes.ts';
import { skeletonTextColor } from './skeleton.ts';

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
    await cmsApi(ts, admin).call('lockCampaign', { params: { id: c.id } });
    const res = await fetch(c.url); // raw: the HTML page as a browser loads it
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<title>The Tour</title>');
    expect(html).toContain('<meta name="description" content="Dates &amp; tickets">');
    expect(html).toContain('<meta property="og:image" content="https://img.example/t.png">');
    expect(html).not.toContain('<live>');
    expect(metaContent(html, CAMPAIGN_META.environment)).toBe('production');
    expect(metaContent(html, CAMPAIGN_META.campaignId)).toBe(c.id);
    // The page is told its backend (the CMS's public origin), so the SDK's environment default is not needed.
    expect(metaContent(html, CAMPAIGN_META.backendOrigin)).toBe(new URL(ts.cmsUrl).origin);
    // With the built-in emulators (no credentials) the page loads their stand-in SDK scripts and
    // plays through the Spotify emulator's Web API (issue 44: real credentials load the official ones).
    expect(metaContent(html, PROVIDER_SDK_META.spotifySdkSrc)).toBe(`${ts.partyUrl}/emulator/spotify/spotify-player.js`);
    expect(metaContent(html, PROVIDER_SDK_META.spotifyApi)).toBe(`${ts.partyUrl}/emulator/spotify/api/v1`);
    expect(metaContent(html, PROVIDER_SDK_META.musicKitSrc)).toBe(`${ts.partyUrl}/emulator/apple/musickit.js`);
    expect(metaContent(html, PROVIDER_SDK_META.appleDeveloperToken)).toBe(EMULATOR_APPLE_DEVELOPER_TOKEN);
    const embedded = Campaign.parse(JSON.parse(metaContent(html, CAMPAIGN_META.campaign)!));
    expect(embedded).toMatchObject({ id: c.id, name: 'Tour "2030" <live>', slug: 'tour', app: 'fan-pages' });
    // Editors' lock (with an e-mail address) is not shown to visitors.
    expect(embedded.lock).toBeNull();
    expect(html).not.toContain(ADMIN.email);
  });

  it('an unknown campaign page is a 404 page', async () => {
    const res = await fetch(`${ts.cmsUrl}/c/fan-pages/nope`); // raw: an HTML page
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it('the first screen keeps a label text colour only when it reads at 4.5:1, else white or navy', () => {
    expect(skeletonTextColor('#14142b', undefined)).toBe('#ffffff');
    expect(skeletonTextColor('#ffffff', undefined)).toBe('#14213d');
    expect(skeletonTextColor('#ffffff', '#222222')).toBe('#222222');
    expect(skeletonTextColor('#101820', '#202020')).toBe('#ffffff');
  });

  describe('the built campaign page app', () => {
    let dist: string;
    let app: Awaited<ReturnType<typeof createHttpApp>>;
    const js = 'console.log("campaign page");'.repeat(100);

    beforeAll(async () => {
      dist = fs.mkdtempSync(path.join(os.tmpdir(), 'campaign-web-dist-'));
      fs.mkdirSync(path.join(dist, 'assets'));
      fs.writeFileSync(
        path.join(dist, 'index.html'),
        '<!doctype html><html lang="de"><head><meta charset="utf-8" /><title>Fanfare</title><script type="module" src="/campaign-web/assets/app.js"></script><link rel="stylesheet" crossorigin href="/campaign-web/assets/app.css"></head><body><div id="root"><div class="boot"></div></div>\n<noscript>needs JS</noscript></body></html>',
      );
      fs.writeFileSync(path.join(dist, 'assets', 'app.js'), js);
      fs.writeFileSync(path.join(dist, 'assets', 'app.css'), '.page{color:red}');
      fs.writeFileSync(path.join(dist, 'assets', 'app.js.br'), zlib.brotliCompressSync(js));
      fs.writeFileSync(path.join(dist, 'assets', 'app.js.gz'), zlib.gzipSync(js));
      app = await createHttpApp({ name: 'cms', title: 't', logger: ts.server.ctx.logger, isReady: async () => true });
      await registerPageRoutes(app, ts.server.ctx, dist);
    });
    afterAll(async () => {
      await app?.close();
      fs.rmSync(dist, { recursive: true, force: true });
    });

    it('serves the built page with the campaign JSON and the environment in its head (campaign spec §2 page metadata)', async () => {
      const appId = await createApp(ts, admin, 'built-pages');
      const c = await createCampaign(ts, admin, {
        app_id: appId,
        name: 'Built </title><script>',
        slug: 'built',
        i18n: { default_locale: 'en', locales: [{ code: 'en', pluralForm: 'nplurals=2; plural=(n != 1);' }], translations: [] },
        data: {
          page: {
            look: { background_color: '#ffffff' },
            modules: [{ type: 'hero', id: 'h', title: { de: 'Hallo', en: 'Hi <b>there</b>' }, cover_image: 'https://img.example/cover.png' }],
          },
        },
      });
      const res = await app.inject({ url: '/c/built-pages/built' });
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<title>Built &lt;/title&gt;&lt;script&gt;</title>');
      // The first screen is in the HTML, escaped, in the campaign's colours, before any script runs.
      expect(html).toContain('<h1 class="ffui-headline ffui-headline--1">Hi &lt;b&gt;there&lt;/b&gt;</h1>');
      expect(html).toContain('--page-bg:#ffffff;--ffui-text:#14213d');
      expect(html).toContain('<img class="hero__cover" src="https://img.example/cover.png"');
      expect(html).toContain('<link rel="preload" as="image" href="https://img.example/cover.png" fetchpriority="high">');
      expect(html).not.toContain('class="boot"');
      // The page's stylesheet is in the HTML: the first paint waits for no other request.
      expect(html).toContain('<style>.page{color:red}</style>');
      expect(html).not.toContain('href="/campaign-web/assets/app.css"');
      expect(html).toContain('/campaign-web/assets/app.js');
      expect(metaContent(html, CAMPAIGN_META.campaignId)).toBe(c.id);
      expect(metaContent(html, CAMPAIGN_META.environment)).toBe('production');
      expect(Campaign.parse(JSON.parse(metaContent(html, CAMPAIGN_META.campaign)!)).slug).toBe('built');
      // Only the CMS (the back office's preview) and the allowed origins may frame the page.
      expect(res.headers['content-security-policy']).toMatch(/^frame-ancestors 'self' /);
      expect(res.headers['cache-control']).toBe('no-cache');
    });

    it('the first screen leaves out what variant B of a running A/B test changes in the hero, so no visitor sees the other variant flash', async () => {
      const appId = await createApp(ts, admin, 'ab-pages');
      const hero = { type: 'hero', id: 'h', title: { en: 'Title A' }, subtitle: { en: 'Subtitle A' }, cover_image: 'https://img.example/a.png' };
      const page = { modules: [hero] };
      const i18n = { default_locale: 'en', locales: [{ code: 'en', pluralForm: 'nplurals=2; plural=(n != 1);' }], translations: [] };
      await createCampaign(ts, admin, { app_id: appId, name: 'AB', slug: 'ab', i18n, data: { page, ab_test: { enabled: true, variant_b: [{ module_id: 'h', subtitle: { en: 'Subtitle B' } }] } } });
      await createCampaign(ts, admin, { app_id: appId, name: 'AB off', slug: 'ab-off', i18n, data: { page, ab_test: { enabled: false, variant_b: [{ module_id: 'h', title: { en: 'Title B' } }] } } });
      const running = (await app.inject({ url: '/c/ab-pages/ab' })).body;
      expect(running).toContain('>Title A</h1>');
      expect(running).toContain('<img class="hero__cover" src="https://img.example/a.png"');
      expect(running).not.toContain('>Subtitle A</p>');
      const off = (await app.inject({ url: '/c/ab-pages/ab-off' })).body;
      expect(off).toContain('>Title A</h1>');
      expect(off).toContain('>Subtitle A</p>');
    });

    it('sends the assets pre-compressed to browsers that accept it, cached for good', async () => {
      const br = await app.inject({ url: '/campaign-web/assets/app.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(js);
      expect(String(br.headers['cache-control'])).toContain('immutable');
      // Shared caches must keep one copy per encoding.
      expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
      const gz = await app.inject({ url: '/campaign-web/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      const plain = await app.inject({ url: '/campaign-web/assets/app.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
    });
  });
});
