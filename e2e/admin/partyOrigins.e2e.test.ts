/**
 * The back office's party screens in Debian's Chromium with the surfaces where a deployment puts
 * them: PORT and CMS_PORT on free, non-default ports, and the back office and the party API on two
 * host names (the CMS as localhost, the party API as 127.0.0.1; both listeners bind 127.0.0.1).
 * The back office learns the party API's address only from the page the CMS serves: the party
 * list, the editor with its preview frame, and the live dashboard's socket all cross origins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PartyClient } from '@fanfare/client';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { DEMO_PARTY_ID } from '../../apps/server/src/demo/seed.ts';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb } from '../party/browser.ts';
import { buildAdminWeb, launchChromium, signInToBackOffice, waitFor } from './browser.ts';

const RENAMED = 'Tidal Lights across origins';

let server: TestServer;
let browser: Browser;
let page: Page;
/** Every request the back office made, and the ones that failed (CORS refusals show here). */
const requested: string[] = [];
const failed: string[] = [];

describe('the back office\'s party screens with the CMS and the party API on two host names and free ports', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await Promise.all([buildAdminWeb(), buildPartyWeb()]);
    server = await startTestServer({ hostNames: { party: '127.0.0.1', cms: 'localhost' }, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    page.on('request', (r) => requested.push(r.url()));
    // A CORS refusal fails as net::ERR_FAILED; a frame's request cut short by leaving the screen is only aborted.
    page.on('requestfailed', (r) => {
      const error = r.failure()?.errorText ?? '';
      if (error !== 'net::ERR_ABORTED') failed.push(`${r.url()}: ${error}`);
    });
    await signInToBackOffice(page, server.cmsUrl);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('runs on two host names and neither default port', () => {
    const [party, cms] = [new URL(server.partyUrl), new URL(server.cmsUrl)];
    expect([party.hostname, cms.hostname]).toEqual(['127.0.0.1', 'localhost']);
    expect([party.port, cms.port]).not.toContain('8080');
    expect([party.port, cms.port]).not.toContain('1337');
  });

  it('the party list loads from the party API the page names', async () => {
    await page.getByRole('link', { name: 'Parties' }).click();
    await page.getByRole('heading', { name: 'Parties', level: 1 }).waitFor();
    await page.getByRole('region', { name: /parties$/ }).first().getByText(DEMO_PARTY_ID).first().waitFor();
    expect(await page.getByText('Something went wrong').count()).toBe(0);
    expect(requested.some((u) => u.startsWith(`${server.partyUrl}/api/parties`))).toBe(true);
  });

  it('the party editor shows the party app in its preview frame and saves to the party API', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/parties/${DEMO_PARTY_ID}`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    // The frame is the party app on its own origin; it answers the editor over postMessage.
    const status = page.getByTestId('preview-status');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(RENAMED);
    await waitFor(async () => (await status.textContent()) === 'Shows your unsaved changes' || undefined, 'the preview frame to answer', 30_000);
    const frame = page.frames().find((f) => f.url().startsWith(`${server.partyUrl}/p/${DEMO_PARTY_ID}/`));
    expect(frame).toBeDefined();
    await waitFor(async () => (await frame!.evaluate(() => document.querySelector('.hero__name')?.textContent ?? null)) === RENAMED || undefined, 'the new name in the preview');
    await page.getByRole('textbox', { name: 'Name', exact: true }).press('Control+s');
    const cms = new PartyClient({ baseUrl: server.partyUrl, cmsToken: TEST_CMS_TOKEN });
    await waitFor(async () => (await cms.call('getParty', { params: { id: DEMO_PARTY_ID } })).name === RENAMED || undefined, 'the saved name');
  });

  it('the live dashboard connects to the party socket on the other origin', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/parties/${DEMO_PARTY_ID}/dashboard`);
    await page.getByRole('heading', { name: 'Live dashboard' }).waitFor();
    await waitFor(async () => (await page.getByTestId('connection').textContent())?.trim() === 'live' || undefined, 'the dashboard socket', 20_000);
  });

  it('nothing was asked of a guessed address, and no request failed', () => {
    const origins = new Set(requested.filter((u) => /^(https?|wss?):/.test(u)).map((u) => new URL(u).origin.replace(/^ws/, 'http')));
    expect([...origins].sort()).toEqual([new URL(server.cmsUrl).origin, new URL(server.partyUrl).origin].sort());
    expect(failed).toEqual([]);
  });
});
