/**
 * The editorial workflow in Chromium against the real server: a new campaign is a draft (its page
 * answers 404), a publish scheduled a few seconds ahead makes it public at its time, an unpublish
 * takes it down, a version is restored from the History tab, and the audit log shows the writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, cmsApi, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, buildCampaignWebForPreview, expectAccessibleAtBothWidths as expectAccessible, launchChromium, screenshotChecked as screenshot, signInToBackOffice, waitFor } from './browser.ts';

const ZONE = 'Europe/Berlin';

let server: TestServer;
let browser: Browser;
let page: Page;
let token: string;
let campaign: { id: string; url: string };

/** The wall-clock time `ms` in `timeZone`, as a `datetime-local` field takes it. */
function wallTime(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    .format(new Date(ms))
    .replace(' ', 'T');
}

/** The page's status as a visitor gets it (raw: a visitor's plain request, no token). */
const publicStatus = async () => (await fetch(campaign.url)).status;

describe('editorial workflow in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    await buildCampaignWebForPreview();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    token = await login(server, ADMIN.email, ADMIN.password);
    const appId = await createApp(server, token, 'fan-pages');
    const created = await createCampaign(server, token, { app_id: appId, name: 'Spring release', slug: 'spring' }, { publish: false });
    campaign = { id: created.id, url: created.url };
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    await signInToBackOffice(page, server.cmsUrl);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a new campaign is a draft: the list and the editor say so, its page answers 404, the preview still shows it', async () => {
    const row = page.getByRole('row').filter({ hasText: 'Spring release' });
    await row.getByTestId('workflow-status').filter({ hasText: 'Draft' }).waitFor();
    expect(await publicStatus()).toBe(404);
    await page.goto(`${server.cmsUrl}/admin/#/campaigns/${campaign.id}`);
    await page.getByTestId('workflow-status').filter({ hasText: 'Draft' }).waitFor();
    const frame = await waitFor(() => page.frames().find((f) => f.url().includes('/c/fan-pages/spring')), 'the preview frame');
    await frame.waitForLoadState('domcontentloaded');
    expect(await frame.title()).not.toBe('Not found');
    await expectAccessible(page, 'campaign editor (draft)');
    await screenshot(page, 'editorial-draft');
  });

  it('schedule a publish a few seconds ahead and an unpublish after it: the page goes public, then away, at the times', async () => {
    await page.getByRole('button', { name: 'Schedule' }).click();
    const form = page.getByRole('group', { name: 'Schedule publishing' });
    await form.waitFor();
    await screenshot(page, 'editorial-schedule');
    const publishAt = Date.now() + 4_000;
    await form.getByLabel('Publish at', { exact: true }).fill(wallTime(publishAt, ZONE));
    await form.getByLabel('Unpublish at', { exact: true }).fill(wallTime(publishAt + 4_000, ZONE));
    const zone = form.getByLabel('Time zone', { exact: true });
    await zone.fill(ZONE);
    await page.getByRole('option', { name: ZONE, exact: true }).click();
    await form.getByRole('button', { name: 'Save schedule' }).click();
    await page.getByTestId('workflow-status').filter({ hasText: 'Scheduled' }).waitFor();
    await page.getByTestId('schedule-summary').filter({ hasText: ZONE }).waitFor();
    expect(await publicStatus()).toBe(404);

    // Poll the public page (bounded): published at its time, then unpublished at its time.
    await waitFor(async () => (await publicStatus()) === 200, 'the scheduled publish', 15_000, 100);
    const stored = await cmsApi(server, token).call('getCampaign', { params: { id: campaign.id } });
    expect(stored.published_by).toContain('scheduler');
    expect(Date.parse(stored.published_at!) - Date.parse(stored.scheduled_publish_at ?? stored.published_at!)).toBeLessThanOrEqual(5_000);
    await waitFor(async () => (await publicStatus()) === 404, 'the scheduled unpublish', 15_000, 100);
  });

  it('publish now with inline confirmation; Cancel leaves it as it was', async () => {
    await page.reload();
    await page.getByTestId('workflow-status').filter({ hasText: 'Draft' }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const confirm = page.getByRole('group', { name: 'Confirm publishing' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await publicStatus()).toBe(404);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    // By keyboard: the confirmation has the focus.
    await page.keyboard.press('Enter');
    await page.getByTestId('workflow-status').filter({ hasText: 'Published' }).waitFor();
    expect(await publicStatus()).toBe(200);
  });

  it('an edit shows "Changes not published"; the History tab diffs two versions and restores one as a new draft', async () => {
    await page.getByRole('textbox', { name: 'Name', exact: true }).first().fill('Spring release (new cut)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('workflow-status').filter({ hasText: 'Changes not published' }).waitFor();
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByTestId('version-2').waitFor();
    const diff = page.getByTestId('version-diff');
    await diff.getByText('Spring release (new cut)').waitFor();
    await expectAccessible(page, 'history');
    await screenshot(page, 'editorial-history');
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('button', { name: 'Restore as new draft' }).click();
    await page.getByTestId('version-3').waitFor();
    await page.getByRole('heading', { name: 'Spring release', exact: true, level: 2 }).waitFor();
    const versions = await cmsApi(server, token).call('campaignVersions', { params: { id: campaign.id } });
    expect(versions.items.map((v) => v.action)).toEqual(['restore', 'edit', 'create']);
  });

  it('the audit log shows the writes, filters by entity, pages and exports CSV', async () => {
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor();
    await page.getByLabel('Entity id').fill(campaign.id);
    const table = page.getByTestId('audit-table');
    for (const action of ['restoreCampaignVersion', 'patchCampaign', 'publishCampaign', 'scheduledUnpublish', 'scheduledPublish', 'scheduleCampaign']) await table.getByText(action, { exact: true }).first().waitFor();
    await page.getByRole('button', { name: /^Before \/ after: patchCampaign/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Spring release (new cut)').first().waitFor();
    await expectAccessible(page, 'audit entry');
    await page.keyboard.press('Escape');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('audit-log.csv');
    await page.getByLabel('Entity id').fill('no-such-entity');
    await page.getByTestId('empty-state').waitFor();
    await page.getByLabel('Entity id').fill('');
    await table.waitFor();
    await expectAccessible(page, 'audit log');
    await screenshot(page, 'editorial-audit');
  });
});
