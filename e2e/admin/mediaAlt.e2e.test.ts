/**
 * Media items with alt text and sizes, in Chromium against the real server: the Media screen shows
 * each image's pixels and bytes and a "Copy URL" button, the editor writes the alt text there, and
 * the campaign page shows it on the image (its first paint and the app). Checked by axe at 1280
 * and 390 px. No fixed waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, cmsApi, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, buildCampaignWebForPreview, expectAccessibleAtBothWidths, openBackOffice, screenshot, waitFor } from './browser.ts';
import { noisePng } from './png.ts';

let server: TestServer;
let browser: Browser;
let page: Page;
let token: string;

describe('media items have alt text and sizes, used on the campaign page', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    await buildCampaignWebForPreview();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    token = await login(server, ADMIN.email, ADMIN.password);
    ({ browser, page } = await openBackOffice(server.cmsUrl));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the Media screen shows pixels and bytes, and saves the alt text the campaign page then shows', async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Media' }).click();
    await page.getByTestId('upload-input').setInputFiles({ name: 'stage.png', mimeType: 'image/png', buffer: noisePng(320, 200) });
    await page.getByRole('button', { name: 'Copy URL of stage.png' }).waitFor({ timeout: 30_000 });
    await page.getByText(/320 × 200 px · [\d.]+ KB/).waitFor();

    const alt = page.getByRole('textbox', { name: 'Alt text of stage.png' });
    await alt.fill('The band on stage in blue light');
    await alt.press('Enter');
    await page.getByText('Alt text of stage.png saved').first().waitFor();
    const upload = await waitFor(async () => (await cmsApi(server, token).call('listUploads', { query: { folder: '/' } })).items.find((u) => u.alt === 'The band on stage in blue light'), 'the alt text stored');
    expect(upload).toMatchObject({ width: 320, height: 200 });
    await expectAccessibleAtBothWidths(page, 'the Media screen with an alt text');
    await screenshot(page, 'media-alt');

    const appId = await createApp(server, token, 'alt-e2e');
    const data = { page: { modules: [{ id: 'hero-1', type: 'hero', title: { de: 'Bühne', en: 'Stage' }, cover_image: upload.file }] } };
    const campaign = await createCampaign(server, token, { app_id: appId, name: 'Alt e2e', slug: 'alt-e2e', data } as Parameters<typeof createCampaign>[2]);
    // The first paint (no script yet) and the app that takes over both carry it.
    const html = await (await fetch(campaign.url)).text();
    expect(html).toContain('alt="The band on stage in blue light"');
    const visitor = await browser.newPage();
    try {
      await visitor.goto(campaign.url);
      await visitor.locator('[data-player-kind], .page:not(.page--skeleton)').first().waitFor();
      expect(await visitor.locator('img.hero__cover').getAttribute('alt')).toBe('The band on stage in blue light');
    } finally {
      await visitor.close();
    }
  });
});
