/**
 * Fans' data rights for operators (issue 43), in Chromium against the real server: an admin finds
 * a fan by e-mail in the back office's "Data rights" section, downloads what is stored, erases it
 * after a confirmation, and the data-rights audit lists both. By keyboard, at 1280 and 390 px,
 * checked by axe; the loading, empty, error and finished states are each reached. No fixed waits.
 */
import fs from 'node:fs';
import { PartyClient } from '@fanfare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { ADMIN, cmsApi, login, userWithRoles } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { loginWithSpotify } from '../../apps/server/src/test/logins.ts';
import { buildAdminWeb, expectAccessibleAtBothWidths, launchChromium, screenshot, signInToBackOffice } from './browser.ts';

const EMAIL = 'rights.fan@example.com';
let server: TestServer;
let browser: Browser;
let page: Page;

describe('data rights in the back office: find by e-mail, export, erase, audited', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    // A fan signed up for the demo party with the address, who posted in its chat.
    const token = (await loginWithSpotify(server.partyUrl, 'demo-fan')).accessToken;
    const fan = new PartyClient({ baseUrl: server.partyUrl, accessToken: token });
    await fan.call('signup', { params: { id: 'demo' }, body: { real_name: 'Rita Rights', display_name: 'Rita', email: EMAIL } });
    await fan.call('postChatMessage', { params: { id: 'demo' }, body: { text: 'Hello from Rita' } });

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

  it('the calls are under their own permission: an editor is refused with 403', async () => {
    const admin = await login(server, ADMIN.email, ADMIN.password);
    const editor = await userWithRoles(server, admin, 'editor.rights@example.com', ['editor']);
    const refused = await cmsApi(server, editor.token)
      .call('dataRightsExport', { body: { email: EMAIL } })
      .then(
        () => 0,
        (e: { status: number }) => e.status,
      );
    expect(refused).toBe(403);
  });

  it('loading, then an empty audit; a look-up by keyboard finds the fan and downloads the export', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/api/data-rights/audit', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Data rights' }).click();
    await page.getByRole('heading', { name: 'Data rights', level: 2 }).waitFor();
    await page.getByRole('status').getByText('Loading the data-rights audit…').waitFor();
    release();
    await page.getByTestId('empty-state').getByText('No request yet').waitFor();
    await page.unroute('**/api/data-rights/audit');
    await expectAccessibleAtBothWidths(page, 'the Data rights section, empty');

    await page.getByLabel('E-mail address').focus();
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Enter');
    const found = page.getByTestId('data-subject');
    await found.getByText(/\(spotify\): 1 party signups, 1 chat messages, 0 uploads/).waitFor();
    const download = page.waitForEvent('download');
    await found.getByRole('button', { name: 'Download export (JSON)' }).click();
    const exported = JSON.parse(fs.readFileSync((await (await download).path())!, 'utf8')) as { email: string; fans: { chat_messages: { text: string | null }[] }[] };
    expect(exported.email).toBe(EMAIL);
    expect(exported.fans[0]!.chat_messages.map((m) => m.text)).toEqual(['Hello from Rita']);
    // The look-up itself is audited.
    await page.getByTestId('data-rights-audit').getByRole('cell', { name: 'export', exact: true }).first().waitFor();
    await expectAccessibleAtBothWidths(page, 'the Data rights section, a fan found');
    await screenshot(page, 'data-rights-found', [1280, 390], { noSidewaysScroll: true });
  });

  it('a failed erasure shows the error in the confirmation; the retry erases, reports what went and is audited', async () => {
    await page.route('**/api/data-rights/erase', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is busy' }) }));
    await page.getByRole('button', { name: 'Erase…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase this person’s data?' });
    await dialog.getByRole('button', { name: 'Erase everything' }).click();
    await dialog.getByRole('alert').getByText('The database is busy').waitFor();
    await expectAccessibleAtBothWidths(page, 'the erasure confirmation with an error');
    await page.unroute('**/api/data-rights/erase');
    await dialog.getByRole('button', { name: 'Erase everything' }).click();
    const report = page.getByTestId('erasure-report');
    await report.getByText('Fans erased: 1').waitFor();
    await report.getByText('Chat messages removed: 1').waitFor();
    await page.getByTestId('data-rights-audit').getByRole('cell', { name: 'erase', exact: true }).waitFor();
    await expectAccessibleAtBothWidths(page, 'the Data rights section, erased');

    // Erased: the same look-up finds nothing now, and the party's chat no longer has the message.
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByTestId('empty-state').getByText('Nothing stored for this address').waitFor();
    expect(await server.server.ctx.db.selectFrom('chat_messages').select('id').where('text', '=', 'Hello from Rita').execute()).toEqual([]);
  });
});
