/**
 * Pre-save end to end in Debian's Chromium: two fans pre-save before the release, one in a
 * territory where the release comes out (DE) and one where the storefront lacks it (GB); the
 * server's clock moves past the release, and only the first fan's emulated library changes, with
 * a receipt in the outbox.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readOutbox } from '../../apps/server/src/platform/mail.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { callCms } from '../admin/browser.ts';
import { buildCampaignWeb, launchChromium, seriousViolations, waitFor } from './browser.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-0123' };
const HOUR = 3_600_000;

let server: TestServer;
let browser: Browser;
let adminToken: string;

const api = <T = unknown>(method: string, p: string, body?: unknown) => callCms<T>(server.cmsUrl, adminToken, method, p, body);

describe('pre-save in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildCampaignWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const login = await fetch(`${server.cmsUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('pre-saves before the release; at the release the library changes in the available territory only, with a receipt', async () => {
    const ctx = server.server.ctx;
    const album = ctx.catalog.albums[0]!;
    const artist = ctx.catalog.artistByKey(album.artist_keys[0]!).spotify_id;
    const app = await api<{ id: string }>('POST', '/api/apps', { name: 'e2e-presave', title: 'E2E pre-save' });
    const releaseAt = ctx.now() + HOUR;
    const created = await api<{ id: string; url: string }>('POST', '/api/campaigns', {
      app_id: app.body.id,
      name: 'E2E pre-save',
      slug: 'presave',
      enabled_services: ['spotify'],
      data: {
        participating_countries: ['DE', 'GB'],
        release: {
          clock: { mode: 'instant', at: new Date(releaseAt).toISOString() },
          spotify: { album_id: album.spotify_id, track_ids: [], artist_ids: [artist] },
          consent_text: { de: 'Ja, speichert das Album zum Erscheinen in meiner Bibliothek.', en: 'Yes, save the album to my library at release.' },
        },
        page: { modules: [{ type: 'presave', id: 'presave' }, { type: 'countdown', id: 'countdown' }] },
      },
    });
    expect(created.status).toBe(201);
    expect((await api('POST', `/api/campaigns/${created.body.id}/publish`, {})).status).toBe(200);
    // The storefront in GB lacks the release.
    await fetch(`${server.partyUrl}/emulator/control/availability`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ service: 'spotify', id: album.spotify_id, country: 'GB', available: false }) });

    for (const [country, fan] of [
      ['DE', 'Demo Fan'],
      ['GB', 'Sam'],
    ] as const) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE', extraHTTPHeaders: { 'cf-ipcountry': country } });
      context.setDefaultTimeout(15_000);
      const page = await context.newPage();
      const logs: string[] = [];
      page.on('console', (m) => logs.push(m.text()));
      page.on('response', (r) => {
        if (r.url().includes('presave')) logs.push(`${r.request().method()} ${r.url()} ${r.status()}`);
      });
      await page.goto(created.body.url);
      await page.locator(`[data-testid="presave"][data-territory="${country}"]`).waitFor();
      await page.getByRole('button', { name: 'Mit Spotify vorab speichern' }).click();
      await page.getByRole('link', { name: `Continue as ${fan}` }).click();
      await page.getByTestId('presave-form').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Vorab speichern' }).click();
      await page
        .locator('[data-testid="presave-state"][data-state="pending"]')
        .waitFor()
        .catch(async (e: unknown) => {
          throw new Error(`${country}: ${await page.locator('[data-testid="presave"]').evaluate((n) => n.outerHTML)} ${page.url()} ${logs.join(' | ')}`, { cause: e });
        });
      await context.close();
    }

    // The server's clock (the scheduler reads ctx.now) moves past the release.
    ctx.now = () => releaseAt + 60_000;
    const library = async (fan: string) => (await (await fetch(`${server.partyUrl}/emulator/control/library?service=spotify&fan=${fan}`)).json()) as { albums: string[]; artists: string[] };
    const de = await waitFor(async () => {
      const lib = await library('demo-fan');
      return lib.albums.length > 0 && lib.artists.length > 0 ? lib : null;
    }, 'the DE fan’s library', 30_000);
    expect(de).toMatchObject({ albums: [album.spotify_id], artists: [artist] });
    const receipt = await waitFor(async () => (await readOutbox(path.join(server.dataDir, 'outbox'))).find((m) => m.to === 'demo.fan@example.com' && m.subject.includes('E2E pre-save')) ?? null, 'the receipt', 30_000);
    expect(receipt.text).toContain('Album gespeichert');
    const report = await waitFor(async () => {
      const r = await api<{ territories: { country: string; state: string }[] }>('GET', `/api/campaigns/${created.body.id}/presave/report`);
      return r.body.territories.find((t) => t.country === 'GB')?.state === 'unavailable' ? r.body : null;
    }, 'GB unavailable', 30_000);
    expect(report.territories.map((t) => [t.country, t.state])).toEqual([
      ['DE', 'released'],
      ['GB', 'unavailable'],
    ]);
    expect((await library('sam')).albums).toEqual([]);
  });
});
