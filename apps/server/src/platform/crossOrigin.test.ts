/**
 * Every cross-origin rule derives from PUBLIC_URL and CMS_PUBLIC_URL (and the operator's extra
 * ALLOWED_REDIRECT_ORIGINS): CORS of both APIs, login redirects, the preview's postMessage origins,
 * frame-ancestors, and the configuration written into the back office. The party API and the CMS
 * run on non-default free ports and on two host names (127.0.0.1 and localhost, both listeners
 * bound to 127.0.0.1), so nothing here can pass by sharing an origin or a default port.
 * Raw fetches throughout: CORS headers, redirects and pages are not API answers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, parseWebConfig, WEB_CONFIG_META } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import { registerAdminWebApp } from '../cms/admin/webApp.ts';
import { DEMO_APP_NAME, DEMO_CAMPAIGN_SLUG } from '../cms/demoCampaign.ts';
import { registerPartyWebApp } from '../party/webApp.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { loadConfig } from './config.ts';
import { createHttpApp } from './http.ts';
import { createLogger } from './logger.ts';

const FOREIGN = 'https://evil.example';

/** Where a request really goes: every listener binds 127.0.0.1, whatever host its public URL names. */
const bound = (publicUrl: string) => {
  const url = new URL(publicUrl);
  url.hostname = '127.0.0.1';
  return url.origin;
};

async function preflight(target: string, origin: string): Promise<string | null> {
  const res = await fetch(target, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
  });
  return res.headers.get('access-control-allow-origin');
}

describe('cross-origin rules, the party API and the CMS on two host names and non-default ports', () => {
  let ts: TestServer;
  let party: string;
  let cms: string;
  beforeAll(async () => {
    ts = await startTestServer({ hostNames: { party: '127.0.0.1', cms: 'localhost' } });
    party = ts.partyUrl;
    cms = ts.cmsUrl;
  });
  afterAll(() => ts.close());

  it('runs on the chosen host names and ports, not the defaults', () => {
    expect(new URL(party).hostname).toBe('127.0.0.1');
    expect(new URL(cms).hostname).toBe('localhost');
    expect([new URL(party).port, new URL(cms).port]).not.toContain('8080');
    expect([new URL(party).port, new URL(cms).port]).not.toContain('1337');
  });

  it('the party API lets the back office (the CMS origin) call it from the browser, and no other origin', async () => {
    expect(await preflight(`${bound(party)}/api/parties/x`, cms)).toBe(cms);
    const get = await fetch(`${bound(party)}/api/parties`, { headers: { origin: cms } });
    expect(get.headers.get('access-control-allow-origin')).toBe(cms);
    expect(await preflight(`${bound(party)}/api/parties/x`, FOREIGN)).toBeNull();
    // The CMS listener's address under another host name is another origin.
    expect(await preflight(`${bound(party)}/api/parties/x`, bound(cms))).toBeNull();
  });

  it('the CMS lets the party app (the party origin) call it from the browser, and no other origin', async () => {
    const target = `${bound(cms)}/api/campaigns/x/newsletter/signup`;
    expect(await preflight(target, party)).toBe(party);
    expect(await preflight(target, FOREIGN)).toBeNull();
  });

  it('a fan login may return to a page on either surface, and is refused with a detail for a foreign origin', async () => {
    const login = (redirect: string) => fetch(`${bound(party)}/api/auth/spotify/login?redirect_uri=${encodeURIComponent(redirect)}`, { redirect: 'manual' });
    expect((await login(`${party}/p/demo/`)).status).toBe(302);
    expect((await login(`${cms}/c/${DEMO_APP_NAME}/${DEMO_CAMPAIGN_SLUG}`)).status).toBe(302);
    const refused = await login(`${FOREIGN}/p/demo/`);
    expect(refused.status).toBe(400);
    expect(ErrorBody.parse(await refused.json()).detail).toMatch(/redirect_uri/);
  });

  it('a campaign page may be framed by the CMS (the back office preview) and the party origin only', async () => {
    const res = await fetch(`${bound(cms)}/c/${DEMO_APP_NAME}/${DEMO_CAMPAIGN_SLUG}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toBe(`frame-ancestors 'self' ${cms} ${party}`);
  });
});

describe('the pages carry the configured origins', () => {
  const config = loadConfig({ PORT: '18080', CMS_PORT: '11337', PUBLIC_URL: 'https://party.label.example', CMS_PUBLIC_URL: 'https://cms.label.example/' });
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pages-origins-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><meta name="fanfare-party-id" content="" /><title>x</title></head><body></body></html>');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function appWith(register: (app: Awaited<ReturnType<typeof createHttpApp>>, ctx: ServerContext) => Promise<void>) {
    const logger = createLogger('silent');
    const app = await createHttpApp({ name: 't', title: 't', logger, isReady: async () => true });
    await register(app, { logger, config } as unknown as ServerContext);
    await app.ready();
    return app;
  }

  it('the back office page tells the app both public URLs (typed by the protocol) and may not be framed', async () => {
    const app = await appWith((a, ctx) => registerAdminWebApp(a, ctx, dir));
    try {
      const res = await app.inject({ url: '/admin/' });
      expect(res.statusCode).toBe(200);
      const content = new RegExp(`<meta name="${WEB_CONFIG_META}" content="([^"]*)"`).exec(res.body)?.[1] ?? null;
      const parsed = parseWebConfig(content?.replaceAll('&quot;', '"'));
      expect(parsed).toEqual({ ok: true, config: { partyUrl: 'https://party.label.example', cmsUrl: 'https://cms.label.example' } });
      expect(res.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    } finally {
      await app.close();
    }
  });

  it('the party page may be framed by the CMS only, and answers previews to it', async () => {
    // The party page looks up the campaign of the party for its newsletter form: none here.
    const app = await appWith((a, ctx) => registerPartyWebApp(a, ctx, dir));
    try {
      const res = await app.inject({ url: '/p/summer/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toBe("frame-ancestors 'self' https://cms.label.example https://party.label.example");
      expect(res.body).toContain('<meta name="fanfare-preview-origins" content="https://cms.label.example https://party.label.example" />');
    } finally {
      await app.close();
    }
  });
});

describe('ALLOWED_REDIRECT_ORIGINS', () => {
  it('adds origins to the surfaces\' own, never replaces them (the back office keeps reaching the party API)', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://party.label.example', CMS_PUBLIC_URL: 'https://cms.label.example', ALLOWED_REDIRECT_ORIGINS: 'https://www.label.example/, https://shop.label.example/path' });
    expect(c.allowedRedirectOrigins).toEqual(['https://party.label.example', 'https://cms.label.example', 'https://www.label.example', 'https://shop.label.example']);
  });

  it('public URLs are kept as base URLs: no trailing slash, no default port', () => {
    const c = loadConfig({ PUBLIC_URL: 'https://Party.Label.example:443/', CMS_PUBLIC_URL: 'http://cms.label.example:8000/base/' });
    expect([c.publicUrl, c.cmsPublicUrl]).toEqual(['https://party.label.example', 'http://cms.label.example:8000/base']);
  });
});
