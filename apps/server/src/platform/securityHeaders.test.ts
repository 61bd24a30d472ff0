/**
 * Every page of both listeners sends helmet's security headers: nosniff, its referrer policy,
 * frame-ancestors from configuration (or none), HSTS only when the listener's public URL is https.
 * The JSON API is left as it is.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP_NAME, DEMO_CAMPAIGN_SLUG } from '../cms/demoCampaign.ts';
import { DEMO_PARTY_ID } from '../demo/seed.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { EMULATOR_CLIENT, type Config } from './config.ts';
import type { App } from './http.ts';
import { registeredRoutes } from './route.ts';
import { framingOrigins } from './webConfig.ts';

type Listener = 'party' | 'cms';

interface Page {
  listener: Listener;
  /** The route as registered. */
  route: string;
  /** A request that reaches it. */
  path: (config: Config) => string;
  framing: 'nobody' | 'configured';
  referrer: string;
}

/** Every page of both listeners. A route answering HTML that is missing here fails the suite. */
const PAGES: Page[] = [
  { listener: 'party', route: '/', path: () => '/', framing: 'configured', referrer: 'same-origin' },
  { listener: 'party', route: '/p/:partyId/', path: () => `/p/${DEMO_PARTY_ID}/`, framing: 'configured', referrer: 'same-origin' },
  { listener: 'party', route: '/legal/:page', path: () => '/legal/imprint', framing: 'configured', referrer: 'same-origin' },
  { listener: 'party', route: '/p/:partyId/legal/:page', path: () => `/p/${DEMO_PARTY_ID}/legal/privacy`, framing: 'configured', referrer: 'same-origin' },
  {
    listener: 'party',
    route: '/emulator/spotify/accounts/authorize',
    path: (c) => `/emulator/spotify/accounts/authorize?${new URLSearchParams({ client_id: EMULATOR_CLIENT.id, response_type: 'code', redirect_uri: `${c.publicUrl}/api/auth/spotify/callback` })}`,
    framing: 'nobody',
    referrer: 'no-referrer',
  },
  { listener: 'party', route: '/emulator/apple/authorize', path: () => '/emulator/apple/authorize', framing: 'nobody', referrer: 'no-referrer' },
  { listener: 'cms', route: '/admin/', path: () => '/admin/', framing: 'nobody', referrer: 'same-origin' },
  { listener: 'cms', route: '/c/:app/:slug', path: () => `/c/${DEMO_APP_NAME}/${DEMO_CAMPAIGN_SLUG}`, framing: 'configured', referrer: 'strict-origin-when-cross-origin' },
  { listener: 'cms', route: '/password/reset', path: () => '/password/reset?token=abc', framing: 'nobody', referrer: 'no-referrer' },
  // The OpenAPI documents' UI, on both listeners.
  ...(['party', 'cms'] as const).flatMap((listener) =>
    ['/docs', '/docs/static/index.html'].map((route): Page => ({ listener, route, path: () => route, framing: 'nobody', referrer: 'same-origin' })),
  ),
];

/** A value for each path parameter that reaches a real answer (the demo party and campaign). */
const SAMPLE_PARAMS: Record<string, string> = { partyId: DEMO_PARTY_ID, page: 'imprint', app: DEMO_APP_NAME, slug: DEMO_CAMPAIGN_SLUG };

const baseUrl = (app: App) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function headersOf(app: App, path: string): Promise<Headers> {
  const res = await fetch(baseUrl(app) + path, { redirect: 'manual' });
  await res.arrayBuffer();
  return res.headers;
}

function expectPageHeaders(headers: Headers, page: Page, config: Config, https: boolean): void {
  const ancestors = page.framing === 'nobody' ? "'none'" : ["'self'", ...framingOrigins(config)].join(' ');
  expect(headers.get('content-security-policy'), page.route).toBe(`frame-ancestors ${ancestors}`);
  expect(headers.get('x-frame-options'), page.route).toBe(page.framing === 'nobody' ? 'DENY' : null);
  expect(headers.get('x-content-type-options'), page.route).toBe('nosniff');
  expect(headers.get('referrer-policy'), page.route).toBe(page.referrer);
  expect(headers.get('strict-transport-security'), page.route).toBe(https ? 'max-age=31536000; includeSubDomains' : null);
}

describe.each<{ scheme: string; env: Record<string, string> }>([
  { scheme: 'http', env: {} },
  {
    scheme: 'https',
    env: { PUBLIC_URL: 'https://party.label.example', CMS_PUBLIC_URL: 'https://cms.label.example', ALLOWED_REDIRECT_ORIGINS: 'https://www.label.example' },
  },
])('security headers with $scheme public URLs', ({ scheme, env }) => {
  let ts: TestServer;
  const https = scheme === 'https';
  const apps = (): Record<Listener, App> => ({ party: ts.server.party!, cms: ts.server.cms! });

  beforeAll(async () => {
    ts = await startTestServer({ env });
  });
  afterAll(() => ts?.close());

  it.each(PAGES.map((p) => [`${p.listener} ${p.route}`, p] as const))('the page %s sends helmet\'s headers with frame-ancestors from configuration', async (_name, page) => {
    const config = ts.server.ctx.config;
    expect(registeredRoutes(apps()[page.listener]).some((r) => r.method === 'GET' && r.url === page.route), `${page.route} is registered`).toBe(true);
    expectPageHeaders(await headersOf(apps()[page.listener], page.path(config)), page, config, https);
  });

  it('every other route outside the JSON API that answers HTML is listed as a page', async () => {
    const listed = new Set(PAGES.map((p) => `${p.listener} ${p.route}`));
    const unlisted: string[] = [];
    for (const listener of ['party', 'cms'] as const) {
      const app = apps()[listener];
      const others = registeredRoutes(app).filter(
        (r) => r.method === 'GET' && !r.url.startsWith('/api/') && !r.url.includes('*') && !listed.has(`${listener} ${r.url}`),
      );
      for (const r of others) {
        const res = await fetch(baseUrl(app) + r.url.replace(/:(\w+)/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? 'x'), { redirect: 'manual' });
        await res.arrayBuffer();
        if (res.headers.get('content-type')?.startsWith('text/html')) unlisted.push(`${listener} ${r.url}`);
      }
    }
    expect(unlisted).toEqual([]);
  });

  it('the JSON API keeps its own headers: no page policy on an API answer', async () => {
    const headers = await headersOf(apps().party, `/api/parties/${DEMO_PARTY_ID}`);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('content-security-policy')).toBeNull();
    expect(headers.get('strict-transport-security')).toBeNull();
  });
});
