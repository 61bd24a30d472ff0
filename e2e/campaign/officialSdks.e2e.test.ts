/**
 * Issue 44, "real SDKs, one interface": with Apple and Spotify credentials set, both pages (a
 * campaign page and the party app) request MusicKit JS v3 and Spotify's Web Playback SDK from
 * their official URLs. Offline, this test answers those URLs with the emulators' stand-in scripts
 * (which implement the same interfaces) and points the server's provider URLs at the emulators
 * (EMULATORS mounts them next to the credentials); login and playback must still work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MUSICKIT_JS_URL, SPOTIFY_PLAYER_JS_URL, type CampaignPageInput } from '@fanfare/protocol';
import { EMULATOR_APPLE_DEVELOPER_TOKEN, EMULATOR_CLIENT } from '../../apps/server/src/platform/config.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb } from '../party/browser.ts';
import { buildCampaignWeb, launchChromium, waitFor } from './browser.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-0123' };

let server: TestServer;
let browser: Browser;
let adminToken: string;
let trackIds: string[] = [];

async function cmsApi<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.cmsUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * A fan's browser whose requests to the official SDK URLs are answered with the emulators'
 * stand-in scripts; `requested` lists the official URLs the page asked for.
 */
async function fanPage(): Promise<{ context: BrowserContext; page: Page; requested: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
  context.setDefaultTimeout(15_000);
  const requested: string[] = [];
  const standIns: [string, string][] = [
    [MUSICKIT_JS_URL, `${server.partyUrl}/emulator/apple/musickit.js`],
    [SPOTIFY_PLAYER_JS_URL, `${server.partyUrl}/emulator/spotify/spotify-player.js`],
  ];
  for (const [official, standIn] of standIns) {
    await context.route(official, async (route) => {
      requested.push(official);
      const res = await fetch(standIn);
      await route.fulfill({ status: 200, contentType: 'text/javascript', body: await res.text() });
    });
  }
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return { context, page, requested };
}

describe('official provider SDKs when credentials are set: the pages ask the official URLs', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await Promise.all([buildCampaignWeb(), buildPartyWeb()]);
    server = await startTestServer({
      env: ({ partyPort }) => {
        const self = `http://127.0.0.1:${partyPort}`;
        return {
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          // "Any values": the emulators' own, so the server's calls to the providers reach them.
          SPOTIFY_CLIENT_ID: EMULATOR_CLIENT.id,
          SPOTIFY_CLIENT_SECRET: EMULATOR_CLIENT.secret,
          SPOTIFY_ACCOUNTS_URL: `${self}/emulator/spotify/accounts`,
          SPOTIFY_API_URL: `${self}/emulator/spotify/api/v1`,
          APPLE_DEVELOPER_TOKEN: EMULATOR_APPLE_DEVELOPER_TOKEN,
          APPLE_API_URL: `${self}/emulator/apple/v1`,
          EMULATORS: 'spotify,apple',
        };
      },
    });
    expect(server.server.ctx.config.emulators).toEqual({ spotify: false, apple: false });
    const login = await fetch(`${server.cmsUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    const album = await cmsApi<{ tracks: { items: { id: string }[] } }>('GET', '/api/spotify/albums/6iz0r2rAVeYBGcpxZOyXHX');
    trackIds = album.tracks.items.map((t) => t.id);
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function campaignUrl(slug: string): Promise<string> {
    const app = await cmsApi<{ id: string }>('POST', '/api/apps', { name: `sdk-${slug}`, title: 'SDK e2e' });
    const page: CampaignPageInput = { look: { font: 'rubik', primary_color: '#ff5a36', background_color: '#14142b' }, modules: [{ type: 'player', id: 'player', spotify_track_ids: trackIds }] };
    const c = await cmsApi<{ id: string; url: string }>('POST', '/api/campaigns', { app_id: app.id, name: `SDK ${slug}`, slug, enabled_services: ['spotify', 'apple'], data: { page } });
    await cmsApi('POST', `/api/campaigns/${c.id}/publish`, {});
    return c.url;
  }

  it('campaign page: MusicKit JS v3 from its official URL logs the fan in and plays the tracks', async () => {
    const url = await campaignUrl('apple');
    const { context, page, requested } = await fanPage();
    const progress = async () => Number(await page.getByRole('progressbar', { name: 'Fortschritt' }).getAttribute('aria-valuenow'));
    try {
      await page.goto(url);
      await page.getByRole('button', { name: 'Mit Apple Music anmelden' }).click();
      await page.waitForURL((u) => u.pathname === '/emulator/apple/authorize');
      expect(requested).toContain(MUSICKIT_JS_URL);
      const consent = new URL(page.url());
      consent.searchParams.set('login_hint', 'sdk-e2e-apple');
      await page.goto(consent.toString());
      await page.getByRole('button', { name: 'Abmelden' }).waitFor();
      await page.locator('[data-player-kind="provider"]').waitFor();
      const tracks = page.locator('.tracklist__button');
      const firstName = (await tracks.first().locator('strong').textContent())!;
      await tracks.first().click();
      await page.getByTestId('now-playing').getByText(firstName).waitFor();
      const before = await waitFor(async () => ((await progress()) >= 1 ? progress() : null), 'progress to start');
      await waitFor(async () => (await progress()) > before, 'progress to grow');
    } finally {
      await context.close();
    }
  });

  it('campaign page: while Apple\'s CDN hangs the Apple button shows it is loading and the page works; after 120 s it says why', async () => {
    const url = await campaignUrl('apple-hang');
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    context.setDefaultTimeout(15_000);
    let musicKitAsked = false;
    // Apple's CDN never answers: the request stays open.
    await context.route(MUSICKIT_JS_URL, () => void (musicKitAsked = true));
    const page = await context.newPage();
    try {
      // The page's own clock, so the 120 s script timeout can be run through at once.
      await page.clock.install();
      await page.goto(url);
      const loading = page.getByRole('button', { name: 'Apple Music wird geladen …' });
      await loading.waitFor();
      expect(await loading.isDisabled()).toBe(true);
      expect(await loading.getAttribute('aria-busy')).toBe('true');
      expect(musicKitAsked).toBe(true);
      // Everything else works meanwhile: the Spotify login and the previews.
      expect(await page.getByRole('button', { name: 'Mit Spotify anmelden' }).isEnabled()).toBe(true);
      await page.locator('.tracklist__button').first().waitFor();
      const errors: unknown[] = [];
      await page.exposeFunction('__recordLoadError', (d: unknown) => void errors.push(d));
      await page.evaluate(() => document.addEventListener('fanfare:load-error', (e) => void (window as unknown as { __recordLoadError(d: unknown): void }).__recordLoadError((e as CustomEvent).detail)));
      await page.clock.runFor(120_000);
      await page.getByText('Apple Music hat nicht innerhalb von 2 Minuten geantwortet', { exact: false }).waitFor();
      await waitFor(async () => (errors.length > 0 ? true : null), 'the load-error event');
      expect(errors).toMatchObject([{ service: 'apple', src: MUSICKIT_JS_URL, timedOut: true }]);
      expect(await page.getByRole('button', { name: /Apple Music/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Mit Spotify anmelden' }).isEnabled()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it("campaign page: Spotify's Web Playback SDK from its official URL plays the fan's tracks", async () => {
    const url = await campaignUrl('spotify');
    const { context, page, requested } = await fanPage();
    try {
      await page.goto(url);
      await page.getByRole('button', { name: 'Mit Spotify anmelden' }).click();
      await page.waitForURL((u) => u.pathname === '/emulator/spotify/accounts/authorize');
      const consent = new URL(page.url());
      consent.searchParams.set('login_hint', 'sdk-e2e-spotify');
      await page.goto(consent.toString());
      await page.getByRole('button', { name: 'Abmelden' }).waitFor();
      await page.locator('[data-player-kind="provider"]').waitFor();
      expect(requested).toContain(SPOTIFY_PLAYER_JS_URL);
      const tracks = page.locator('.tracklist__button');
      const secondName = (await tracks.nth(1).locator('strong').textContent())!;
      await tracks.nth(1).click();
      await page.getByTestId('now-playing').getByText(secondName).waitFor();
      await page.getByRole('button', { name: 'Pause' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('party app: the Apple button loads MusicKit JS v3 from its official URL and the fan logs in', async () => {
    const { context, page, requested } = await fanPage();
    try {
      await page.goto(`${server.partyUrl}/`);
      await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
      await page.getByRole('button', { name: 'Weiter mit Apple Music' }).click();
      await page.getByRole('link', { name: 'Allow as Sam' }).click();
      await page.waitForURL(/#\/register/);
      expect(requested).toEqual([MUSICKIT_JS_URL]);
      expect(new URL(page.url()).search).toBe('');
    } finally {
      await context.close();
    }
  });
});
