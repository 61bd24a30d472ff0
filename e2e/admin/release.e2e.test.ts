/**
 * The back office's Release tab in Debian's Chromium against the real server: a local release
 * clock whose time has passed in DE (out) and GB (the storefront lacks the release), with an
 * exception for US (its own later time and zone). The status table says per territory where the
 * release stands and why; an editor changes the US exception, saves and publishes, and the table
 * follows. At desktop and phone width, axe-clean.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, callCms, expectAccessibleAtBothWidths, openBackOffice, screenshotChecked, waitFor } from './browser.ts';

const DAY = 86_400_000;

let server: TestServer;
let browser: Browser;
let page: Page;
let adminToken: string;

const api = <T = unknown>(method: string, p: string, body?: unknown) => callCms<T>(server.cmsUrl, adminToken, method, p, body);

/** `YYYY-MM-DDTHH:mm` of a UTC instant (a wall-clock time the clock reads in each zone). */
const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe('the Release tab: per-territory exceptions and where the release stands, with why', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const login = await fetch(`${server.cmsUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    ({ browser, page } = await openBackOffice(server.cmsUrl));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows DE released, GB unavailable with the storefront named, US pending at its own time; editing the US exception moves its release', async () => {
    const ctx = server.server.ctx;
    const album = ctx.catalog.albums[0]!;
    const now = Date.now();
    const usTime = `${wallClock(now + 30 * DAY).slice(0, 10)}T09:00`;
    const app = await api<{ id: string }>('POST', '/api/apps', { name: 'e2e-release', title: 'E2E release' });
    const created = await api<{ id: string }>('POST', '/api/campaigns', {
      app_id: app.body.id,
      name: 'E2E release tab',
      slug: 'release-tab',
      enabled_services: ['spotify'],
      data: {
        participating_countries: ['DE', 'GB', 'US'],
        release: {
          clock: { mode: 'local', local_time: wallClock(now - 2 * DAY), territories: { US: { local_time: usTime, time_zone: 'America/Los_Angeles' } } },
          spotify: { album_id: album.spotify_id, track_ids: [], artist_ids: [] },
          consent_text: { en: 'Save the album to my library at release.' },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The storefront in GB lacks the release.
    await fetch(`${server.partyUrl}/emulator/control/availability`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ service: 'spotify', id: album.spotify_id, country: 'GB', available: false }) });
    expect((await api('POST', `/api/campaigns/${created.body.id}/publish`, {})).status).toBe(200);
    // The server's job checks the storefronts of the territories whose time has passed.
    await waitFor(async () => {
      const r = await api<{ territories: { country: string; state: string }[] }>('GET', `/api/campaigns/${created.body.id}/presave/report`);
      return r.body.territories.map((t) => t.state).join() === 'released,unavailable,pending' ? r.body : null;
    }, 'DE released and GB unavailable', 60_000);

    await page.goto(`${server.cmsUrl}/admin/#/campaigns/${created.body.id}`);
    await page.getByRole('tab', { name: 'Release' }).click();
    const status = page.getByRole('list', { name: 'Release per territory' });
    await status.waitFor();
    expect(await status.getByRole('listitem').evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-testid'), r.getAttribute('data-state')]))).toEqual([
      ['territory-DE', 'released'],
      ['territory-GB', 'unavailable'],
      ['territory-US', 'pending'],
    ]);
    expect(await page.getByTestId('reason-DE').textContent()).toContain('Out, found on Spotify');
    const gb = await page.getByTestId('reason-GB').textContent();
    expect(gb).toContain('Spotify lacks the release in GB');
    expect(gb).toContain('stays in pre-release');
    expect(await page.getByTestId('reason-US').textContent()).toBe('Waiting for the release time.');
    // Each release in the territory's own wall-clock time and zone.
    expect(await page.getByTestId('release-at-US').textContent()).toContain('(America/Los_Angeles)');
    expect(await page.getByTestId('release-at-DE').textContent()).toContain('(Europe/Berlin)');
    expect(await page.getByTestId('release-at-GB').textContent()).toContain('(Europe/London)');

    // The exceptions: every participating territory, US with its own time and zone.
    const overrides = page.getByTestId('territory-overrides');
    expect(await overrides.locator('[data-territory]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-territory')))).toEqual(['DE', 'GB', 'US']);
    expect(await page.getByLabel('Local release time in US').inputValue()).toBe(usTime);
    expect(await page.getByRole('combobox', { name: 'Time zone of US' }).inputValue()).toBe('America/Los_Angeles');
    expect(await page.getByLabel('Local release time in DE').inputValue()).toBe('');

    await screenshotChecked(page, 'release-tab');
    await expectAccessibleAtBothWidths(page, 'the Release tab');

    // The editor moves the US release to 18:00 New York time, saves and publishes.
    const newUsTime = `${usTime.slice(0, 10)}T18:00`;
    await page.getByLabel('Local release time in US').fill(newUsTime);
    await page.getByRole('combobox', { name: 'Time zone of US' }).click();
    await page.getByRole('combobox', { name: 'Time zone of US' }).fill('America/New_Y');
    await page.getByRole('option', { name: 'America/New_York' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('unsaved').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('button', { name: 'Publish now' }).click();
    await waitFor(async () => ((await page.getByTestId('release-at-US').textContent()) ?? '').includes('(America/New_York)') || null, 'the US release in New York time', 30_000);
    const stored = await api<{ data: { release: { clock: { territories: Record<string, unknown> } } } }>('GET', `/api/campaigns/${created.body.id}`);
    expect(stored.body.data.release.clock.territories).toEqual({ US: { local_time: newUsTime, time_zone: 'America/New_York' } });
    const report = await api<{ territories: { country: string; release_at: string; time_zone: string }[] }>('GET', `/api/campaigns/${created.body.id}/presave/report`);
    const us = report.body.territories.find((t) => t.country === 'US')!;
    expect(us.time_zone).toBe('America/New_York');
    // 18:00 in New York is 22:00 or 23:00 UTC (summer or winter time).
    expect(new Date(us.release_at).toLocaleString('en-GB', { timeZone: 'America/New_York', dateStyle: 'short', timeStyle: 'short' })).toBe(
      new Date(`${newUsTime}:00Z`).toLocaleString('en-GB', { timeZone: 'UTC', dateStyle: 'short', timeStyle: 'short' }),
    );
  });
});
