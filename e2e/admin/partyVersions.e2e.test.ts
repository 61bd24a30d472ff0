/**
 * A party's settings history in Chromium against the real server: the party editor lists the
 * saved versions, shows what changed between two of them, and restores an old one (inline
 * confirmation, Cancel first) as a new version, which the editor then shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, cmsApi, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, expectAccessibleAtBothWidths as expectAccessible, openBackOffice, screenshotChecked as screenshot } from './browser.ts';

const PARTY_ID = 'history-night';

let server: TestServer;
let browser: Browser;
let page: Page;
let token: string;

/** Saves the party's settings through the party API, as the admin tool does. */
async function putParty(body: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${server.partyUrl}/api/parties/${PARTY_ID}`, { method: 'PUT', headers: { 'content-type': 'application/json', 'x-cms-token': TEST_CMS_TOKEN }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
}

describe('party settings history in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    token = await login(server, ADMIN.email, ADMIN.password);
    await putParty({ name: 'History Night', voting_enabled: true });
    await putParty({ name: 'History Night (moved)', voting_enabled: false });
    ({ browser, page } = await openBackOffice(server.cmsUrl, 10_000));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the party editor lists the versions and shows what changed between the last two', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/parties/${PARTY_ID}`);
    await page.getByRole('heading', { name: 'History Night (moved)', level: 1 }).waitFor();
    const history = page.getByRole('region', { name: 'Settings history' });
    await history.getByTestId('version-2').waitFor();
    const diff = history.getByTestId('version-diff');
    await diff.getByRole('row').filter({ hasText: 'voting_enabled' }).filter({ hasText: 'true' }).filter({ hasText: 'false' }).waitFor();
    await diff.getByText('"History Night (moved)"').waitFor();
    await history.scrollIntoViewIfNeeded();
    await expectAccessible(page, 'party settings history');
    await screenshot(page, 'party-history');
  });

  it('restore asks inline first (Cancel keeps everything), then saves version 1 as version 3 and the editor shows it', async () => {
    const history = page.getByRole('region', { name: 'Settings history' });
    expect(await history.getByRole('button', { name: 'Restore version 2' }).count()).toBe(0);
    await history.getByRole('button', { name: 'Restore version 1' }).click();
    const confirm = history.getByRole('group', { name: 'Confirm restoring version 1' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect((await cmsApi(server, token).call('partyVersions', { params: { id: PARTY_ID } })).items).toHaveLength(2);

    await history.getByRole('button', { name: 'Restore version 1' }).click();
    // By keyboard: the confirmation has the focus.
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'History Night', exact: true, level: 1 }).waitFor();
    await page.getByRole('region', { name: 'Settings history' }).getByTestId('version-3').waitFor();
    const versions = await cmsApi(server, token).call('partyVersions', { params: { id: PARTY_ID } });
    expect(versions.items.map((v) => v.action)).toEqual(['restore', 'edit', 'create']);
    const audit = await cmsApi(server, token).call('listAuditLog', { query: { entity_type: 'parties', entity_id: PARTY_ID } });
    expect(audit.items[0]?.action).toBe('restorePartyVersion');
    await expectAccessible(page, 'party settings history after a restore');
  });
});
