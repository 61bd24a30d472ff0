/**
 * A media picker that picks, in Chromium against the real server: in the editor's live preview
 * the editor presses the page's own "Choose image" button on the hero (openMediaLibrary:v2),
 * uploads a cover and picks it (mediaPicked). The editor's cover field takes it, the preview shows
 * it at once, and Save stores it with the draft. Then the same from the editor's own image field.
 * Checked by axe at 1280 and 390 px. Every wait is for a condition, never a fixed time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { ADMIN, cmsApi, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, buildCampaignWebForPreview, expectAccessibleAtBothWidths, openBackOffice, screenshot, waitFor } from './browser.ts';
import { noisePng } from './png.ts';

let server: TestServer;
let browser: Browser;
let page: Page;
let token: string;
let campaignId: string;

const heroOf = (data: unknown) => ((data as { page: { modules: Record<string, unknown>[] } }).page.modules[0] ?? {}) as { cover_image?: string | null; image?: string | null };

describe('the media picker picks: from the preview and from the editor\'s image fields', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    await buildCampaignWebForPreview();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    token = await login(server, ADMIN.email, ADMIN.password);
    const appId = await createApp(server, token, 'media-app');
    const data = { page: { modules: [{ id: 'hero-1', type: 'hero', title: { de: 'Neues Album', en: 'New album' } }, { id: 'card-1', type: 'card', title: { de: 'Vinyl', en: 'Vinyl' } }] } };
    campaignId = (await createCampaign(server, token, { app_id: appId, name: 'Media pick', slug: 'media-pick', data } as Parameters<typeof createCampaign>[2])).id;
    ({ browser, page } = await openBackOffice(server.cmsUrl));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the page\'s "Choose image" opens the library; the picked cover is set, previewed at once and saved with the draft', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/campaigns/${campaignId}`);
    const frame: Frame = await waitFor(() => page.frames().find((f) => f.url().includes('/c/')), 'the preview frame');
    await frame.getByRole('button', { name: /Bild wählen|Choose image/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Pick an image for the page' });
    await dialog.getByTestId('upload-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: noisePng(600, 600) });
    await dialog.getByRole('button', { name: 'Pick cover.png' }).click({ timeout: 30_000 });
    await dialog.waitFor({ state: 'detached' });

    // The editor's form took it: the Page modules tab shows the field and its thumbnail.
    await page.getByRole('tab', { name: 'Page modules' }).click();
    const field = page.getByLabel('Cover image', { exact: true });
    await waitFor(async () => /\/uploads\/.+\.png$/.test(await field.inputValue()) || undefined, 'the cover field set');
    const picked = await field.inputValue();
    await page.getByTestId('image-preview-0-cover_image').waitFor();
    // The preview shows it at once, before any save.
    await waitFor(async () => (await frame.locator('img.hero__cover').getAttribute('src').catch(() => null))?.endsWith(picked.split('/').pop()!) || undefined, 'the cover in the preview');
    await page.getByTestId('unsaved').waitFor();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => heroOf((await cmsApi(server, token).call('getCampaign', { params: { id: campaignId } })).data).cover_image === picked || undefined, 'the cover stored');
    await expectAccessibleAtBothWidths(page, 'the editor after a media pick');
    await screenshot(page, 'media-picked');
  });

  it('an image field of the editor has its own picker: the card image is set from the library', async () => {
    await page.getByRole('button', { name: 'Pick image of module 2 from the media library' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pick an image' });
    await dialog.getByRole('button', { name: 'Pick cover.png' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('image-preview-1-image').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const stored = await waitFor(async () => {
      const data = (await cmsApi(server, token).call('getCampaign', { params: { id: campaignId } })).data as { page: { modules: { image?: string }[] } };
      return data.page.modules[1]?.image?.endsWith('.png') ? data : undefined;
    }, 'the card image stored');
    expect(stored.page.modules[1]!.image).toMatch(/\/uploads\/.+\.png$/);
  });

  it('an incomplete draft does not freeze the preview: a player with no tracks is marked inline and the rest still shows', async () => {
    const frame: Frame = await waitFor(() => page.frames().find((f) => f.url().includes('/c/')), 'the preview frame');
    await page.getByRole('combobox', { name: 'Add a module' }).click();
    await page.getByRole('option', { name: 'Player' }).click();
    await page.getByTestId('preview-incomplete').waitFor();
    await page.getByRole('region', { name: 'Module 3: player' }).getByRole('alert').getByText(/missing/).waitFor();
    // The preview goes on: a title edited now still reaches it.
    await page.getByLabel('Title (en)').first().fill('New album, still previewed');
    await frame.getByRole('heading', { name: 'New album, still previewed' }).waitFor();
    // The catalog search fills the player; the preview then takes it and the notice goes.
    await page.getByRole('combobox', { name: 'Add music to module 3 from the catalog' }).fill('Tidal');
    await page.getByRole('option', { name: /Album · Tidal Lights/ }).click();
    await page.getByTestId('player-tracks-2').waitFor();
    await page.getByTestId('preview-incomplete').waitFor({ state: 'detached' });
    await expectAccessibleAtBothWidths(page, 'the editor with a player picked from the catalog');
    await screenshot(page, 'preview-incomplete-fixed');
  });
});
