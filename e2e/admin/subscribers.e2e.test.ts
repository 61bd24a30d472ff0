/**
 * Subscribers where people look for them, in Chromium against the real server: the back office's
 * "Subscribers" section lists every campaign's signups (filter by campaign, search, paging, CSV
 * export), and the campaign editor's "Subscribers" tab lists that campaign's. Loading, error,
 * empty and done states are each reached on purpose (the loading one by holding the answer back
 * until it shows), and axe checks the screens at 1280 and 390 px. No fixed waits.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import type { NewsletterEntry } from '@fanfare/protocol';
import { ADMIN, cmsApi, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, expectAccessibleAtBothWidths, launchChromium, screenshot, signInToBackOffice } from './browser.ts';

let server: TestServer;
let browser: Browser;
let page: Page;
const ids = { alpha: '', beta: '', gamma: '' };
/** Alpha gets more signups than one page (50) holds. */
const ALPHA_SIGNUPS = 53;

const newsletters = (text: string): NewsletterEntry[] => [
  { id: 'label-news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab-1', form_id: 'form-1', consent_text: text } } },
];

/** Seeds Alpha's signups straight into the table (the signup call is rate limited per address). */
async function seedAlpha(): Promise<void> {
  const now = Date.now();
  const rows = Array.from({ length: ALPHA_SIGNUPS }, (_, i) => ({
    id: `alpha-sub-${String(i).padStart(3, '0')}`,
    newsletter_id: 'label-news',
    email: `alpha-${i}@example.com`,
    campaign_id: ids.alpha,
    locale: 'de',
    address_book_id: 'ab-1',
    form_id: 'form-1',
    name: null,
    country: null,
    state: i % 2 ? 'confirmed' : 'pending',
    created_at: now - i * 1_000,
    updated_at: now - i * 1_000,
    confirmed_at: i % 2 ? now : null,
  }));
  await server.server.ctx.db.insertInto('cms_newsletter_subscribers').values(rows).execute();
}

/** Beta's signups go through the public signup call, as a campaign page sends them. */
async function signUpToBeta(email: string): Promise<void> {
  const url = `${server.cmsUrl}/c/beta`;
  await cmsApi(server).call('newsletterSignup', {
    params: { id: ids.beta },
    body: { email, consents: [{ id: 'label-news', accepted: true }], locale: 'de', newsletter_ids: ['label-news'], redirect_url: url, error_redirect_url: url, host_url: url },
  });
}

const total = (noun: string, n: number, pages: number) => page.getByText(`${n} ${noun} · page 1 of ${pages}`);

describe('subscribers where people look for them: a section and a campaign tab', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const token = await login(server, ADMIN.email, ADMIN.password);
    const appId = await createApp(server, token, 'ledger-e2e');
    ids.alpha = (await createCampaign(server, token, { app_id: appId, name: 'Alpha release', slug: 'alpha', newsletters: newsletters('Alpha news, please.') })).id;
    ids.beta = (await createCampaign(server, token, { app_id: appId, name: 'Beta tour', slug: 'beta', newsletters: newsletters('Beta news, please.') })).id;
    ids.gamma = (await createCampaign(server, token, { app_id: appId, name: 'Gamma single', slug: 'gamma', newsletters: newsletters('Gamma news.') })).id;
    await seedAlpha();
    await signUpToBeta('beta-1@example.com');
    await signUpToBeta('beta-2@example.com');

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    await signInToBackOffice(page, server.cmsUrl);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the navigation\'s Subscribers section: loading, then every campaign\'s signups, paged and searched', async () => {
    // Hold the first answer back until the loading state has shown.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/newsletter/ledger/subscribers?**', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Subscribers' }).click();
    await page.getByRole('heading', { name: 'Subscribers', level: 2 }).waitFor();
    await page.getByRole('status').getByText('Loading subscribers…').waitFor();
    release();
    await total('subscribers', ALPHA_SIGNUPS + 2, 2).waitFor();
    await page.unroute('**/api/newsletter/ledger/subscribers?**');
    // Both campaigns show, named.
    await page.getByRole('cell', { name: 'beta-1@example.com' }).waitFor();
    await page.getByRole('cell', { name: 'Beta tour' }).first().waitFor();
    await page.getByRole('cell', { name: 'Alpha release' }).first().waitFor();
    await expectAccessibleAtBothWidths(page, 'the Subscribers section');
    await screenshot(page, 'subscribers-section', [1280, 390], { noSidewaysScroll: true });

    await page.getByRole('button', { name: 'next page' }).click();
    await page.getByText(`${ALPHA_SIGNUPS + 2} subscribers · page 2 of 2`).waitFor();
    expect(await page.getByRole('table', { name: 'Subscribers' }).locator('tbody tr').count()).toBe(ALPHA_SIGNUPS + 2 - 50);

    await page.getByLabel('E-mail contains').fill('alpha-17@');
    await total('subscribers', 1, 1).waitFor();
    await page.getByRole('cell', { name: 'alpha-17@example.com' }).waitFor();
    await page.getByLabel('E-mail contains').fill('');
    await total('subscribers', ALPHA_SIGNUPS + 2, 2).waitFor();
  });

  it('the section narrows to one campaign and exports exactly its rows; the consent ledger shows its words', async () => {
    await page.getByRole('combobox', { name: 'Campaign' }).click();
    await page.getByRole('option', { name: 'Beta tour' }).click();
    await total('subscribers', 2, 1).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = fs.readFileSync((await (await download).path())!, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toContain('"email"');
    expect(lines.slice(1).map((l) => l.split(',')[0]).sort()).toEqual(['"beta-1@example.com"', '"beta-2@example.com"']);

    await page.getByRole('tab', { name: 'Consent ledger' }).click();
    await total('consents', 2, 1).waitFor();
    await page.getByText('Beta news, please.').first().waitFor();

    // A campaign with no signups: the empty state names the filters as the cause.
    await page.getByRole('combobox', { name: 'Campaign' }).fill('Gamma');
    await page.getByRole('option', { name: 'Gamma single' }).click();
    await page.getByTestId('empty-state').getByText('Nobody matches').waitFor();
    await expectAccessibleAtBothWidths(page, 'the Subscribers section, empty');
  });

  it('an answer that fails shows the error with a retry that recovers', async () => {
    await page.route('**/api/newsletter/ledger/subscribers?**', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is busy' }) }));
    await page.goto(`${server.cmsUrl}/admin/#/subscribers?campaign=${ids.beta}`);
    await page.reload();
    const alert = page.getByRole('alert').filter({ hasText: 'Something went wrong' });
    await alert.waitFor();
    await page.unroute('**/api/newsletter/ledger/subscribers?**');
    await alert.getByRole('button', { name: 'Try again' }).click();
    // The link's ?campaign= narrowed the section to Beta.
    await total('subscribers', 2, 1).waitFor();
  });

  it('the campaign editor\'s Subscribers tab lists that campaign\'s signups, searched; a campaign without any says so', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/campaigns/${ids.alpha}`);
    await page.getByRole('tab', { name: 'Subscribers' }).click();
    await total('subscribers', ALPHA_SIGNUPS, 2).waitFor();
    expect(await page.getByRole('cell', { name: /^beta-/ }).count()).toBe(0);
    await page.getByLabel('E-mail contains').fill('alpha-4');
    await page.getByLabel('E-mail contains').press('Enter');
    // alpha-4, alpha-40 … alpha-49.
    await total('subscribers', 11, 1).waitFor();
    await expectAccessibleAtBothWidths(page, 'the campaign\'s Subscribers tab');
    await screenshot(page, 'subscribers-campaign-tab', [1280, 390], { noSidewaysScroll: true });

    await page.goto(`${server.cmsUrl}/admin/#/campaigns/${ids.gamma}`);
    await page.getByRole('tab', { name: 'Subscribers' }).click();
    await page.getByTestId('empty-state').getByText('No signups yet').waitFor();
  });
});
