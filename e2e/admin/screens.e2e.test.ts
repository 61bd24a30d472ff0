/**
 * Every screen of the back office at 1280 and 390 px, each checked by axe-core (no serious or
 * critical violations) at both widths and saved as a screenshot, including the empty, error and
 * not-found states; and the back office used by keyboard alone.
 * The Parties section has its own suite.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, cmsApi, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, expectAccessibleAtBothWidths, launchChromium, screenshotChecked as screenshot, waitFor } from './browser.ts';

let server: TestServer;
let browser: Browser;
let page: Page;
let campaignId = '';
let emptyCampaignId = '';

const go = (hash: string) => page.goto(`${server.cmsUrl}/admin/#${hash}`);
const heading = (name: string | RegExp) => page.getByRole('heading', { name, level: 2 }).waitFor();
/** The screen passes axe at both widths and is saved at both widths. */
async function check(name: string): Promise<void> {
  await expectAccessibleAtBothWidths(page, name);
  await screenshot(page, name);
}

describe('every back-office screen at 1280 and 390 px, axe-checked, and by keyboard', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const token = await login(server, ADMIN.email, ADMIN.password);
    const appId = await createApp(server, token, 'screens-app');
    const newsletters = [{ id: 'news', enabled: true, signup_mode: 'optional' as const, locales: { de: { addressbook_id: 'ab', form_id: 'f', consent_text: 'Ja, schickt mir Neuigkeiten über die Tour und neue Platten.' } } }];
    const campaign = await createCampaign(server, token, { app_id: appId, name: 'Screens: a campaign with a rather long name for narrow phones', slug: 'screens', newsletters, token_gate: { enabled: true, product_id: 'vinyl' } });
    campaignId = campaign.id;
    emptyCampaignId = (await createCampaign(server, token, { app_id: appId, name: 'Nothing yet', slug: 'nothing-yet' })).id;
    for (const email of ['fan.one@example.com', 'a.fan.with.a.very.long.address@some-label-domain.example']) {
      await cmsApi(server).call('newsletterSignup', {
        params: { id: campaignId },
        body: { email, consents: [{ id: 'news', accepted: true }], locale: 'de', newsletter_ids: ['news'], redirect_url: campaign.url, error_redirect_url: campaign.url, host_url: campaign.url },
      });
    }
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('signed-out screens: forgot password, and a reset link without its token (error state)', async () => {
    await go('/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await check('forgot-password');
    await go('/reset-password');
    await page.getByText('This link has no token').waitFor();
    await check('reset-password-no-token');
  });

  it('by keyboard alone: sign in, move through the sections, open and close a dialog; focus is always visible', async () => {
    await go('/sign-in');
    await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await heading('Campaigns');
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return { text: '', visible: true, onBody: true };
        const style = getComputedStyle(el);
        return { text: (el.textContent ?? '').trim().slice(0, 80), visible: style.outlineStyle !== 'none' || style.boxShadow !== 'none', onBody: false };
      });
    // Tab until the navigation link, each focus ring visible on the way.
    for (const [label, title] of [
      ['Media', 'Media'],
      ['Apps & translations', 'Apps & translations'],
      ['People', 'People'],
      ['Campaigns', 'Campaigns'],
    ] as const) {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      let found = false;
      for (let i = 0; i < 40 && !found; i++) {
        await page.keyboard.press('Tab');
        const f = await focused();
        expect(f.visible, `focus ring on "${f.text}"`).toBe(true);
        found = f.text === label;
      }
      expect(found, `reached ${label} by Tab`).toBe(true);
      await page.keyboard.press('Enter');
      await heading(title);
    }
    // A dialog opens with Enter, traps focus and closes with Escape.
    await page.getByRole('button', { name: 'New campaign' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.waitFor();
    await waitFor(async () => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')), 'focus inside the dialog');
    await check('new-campaign-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('campaigns list, and the editor with every tab', async () => {
    await go('/campaigns');
    await page.getByRole('table', { name: 'Campaigns' }).waitFor();
    await check('campaigns-list');
    await page.getByRole('textbox', { name: 'Search' }).fill('zzz-nothing-matches');
    await page.getByTestId('empty-state').waitFor();
    await check('campaigns-list-empty');
    await go(`/campaigns/${campaignId}`);
    await heading(/^Screens: a campaign/);
    for (const tab of ['General', 'Page modules', 'Newsletters', 'Token gate', 'Translations', 'Meta & tracking']) {
      await page.getByRole('tab', { name: tab }).click();
      await check(`campaign-editor-${tab.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    }
  });

  it('subscribers and consent ledger with data, and a campaign without signups (empty state)', async () => {
    await go(`/campaigns/${campaignId}/subscribers`);
    await page.getByRole('cell', { name: 'fan.one@example.com' }).waitFor();
    await check('subscribers-list');
    await page.getByRole('tab', { name: 'Consent ledger' }).click();
    await page.getByRole('cell', { name: 'fan.one@example.com' }).waitFor();
    await check('consent-ledger-list');
    await go(`/campaigns/${emptyCampaignId}/subscribers`);
    await page.getByTestId('empty-state').waitFor();
    await check('subscribers-empty');
  });

  it('token gate, media (empty folder), apps, people', async () => {
    await go(`/campaigns/${campaignId}/token-gate`);
    await page.getByText('No codes for this product yet').waitFor();
    await check('token-gate-empty');
    await go('/media');
    await heading('Media');
    await page.getByText('This folder is empty').waitFor();
    await check('media-empty');
    await go('/apps');
    await heading('Apps & translations');
    await page.getByRole('cell', { name: 'screens-app', exact: true }).first().waitFor();
    await check('apps-list');
    await go('/people');
    await page.getByRole('cell', { name: `${ADMIN.email} (you)`, exact: true }).waitFor();
    await check('people-list');
  });

  it('error and not-found states: an unknown campaign, an unknown page', async () => {
    await go('/campaigns/no-such-campaign');
    await page.getByRole('alert').filter({ hasText: /not found/i }).first().waitFor();
    await check('campaign-not-found');
    await go('/no-such-page');
    await page.getByText('Page not found').waitFor();
    await check('page-not-found');
  });
});
