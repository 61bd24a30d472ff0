/**
 * Fans' data rights in Chromium against the real server: a fan downloads their data from the
 * menu, deletes their account after a confirmation, and another fan's open party page no longer
 * shows the deleted fan's messages.
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { FanDataExport } from '@fanfare/protocol';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, screenshotBoth } from './browser.ts';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE', acceptDownloads: true });
  context.setDefaultTimeout(30_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

/** Join → Service → Spotify emulator consent → Register. */
async function joinAs(page: Page, consentLabel: string, displayName: string): Promise<void> {
  await page.goto(`${server.partyUrl}/`);
  await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
  await page.getByRole('button', { name: 'Weiter mit Spotify' }).click();
  await page.getByRole('link', { name: consentLabel }).click();
  await page.waitForURL(/#\/register/);
  await page.getByLabel('Name im Chat').fill(displayName);
  await page.getByRole('button', { name: 'Zur Party' }).click();
  await page.waitForURL(/#\/(waiting|player)/);
}

describe('fans’ data rights in the party app', () => {
  let fan: Page;
  let other: Page;

  beforeAll(async () => {
    await buildPartyWeb();
    server = await startTestServer();
    browser = await launchChromium();
    fan = await newPage();
    other = await newPage();
    await joinAs(fan, 'Continue as Demo Fan', 'Leaver');
    await joinAs(other, 'Continue as Lena', 'Stayer');
    // Raw: the admin tool's start call with the CMS token (not a fan's action).
    const res = await fetch(`${server.partyUrl}/api/parties/demo/start`, { method: 'POST', headers: { 'x-cms-token': TEST_CMS_TOKEN } });
    expect(res.status).toBeLessThan(300);
    await fan.waitForURL(/#\/player/, { timeout: 20_000 });
    await other.waitForURL(/#\/player/, { timeout: 20_000 });
  }, 240_000);
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  it('a fan downloads their data, deletes their account, and the other fan’s page drops their messages', async () => {
    await fan.getByLabel('Nachricht', { exact: true }).fill('Bald bin ich weg');
    await fan.getByRole('button', { name: 'Senden', exact: true }).click();
    await expect.poll(() => other.getByTestId('chat-message').filter({ hasText: 'Bald bin ich weg' }).count(), { timeout: 15_000 }).toBe(1);

    await fan.getByRole('button', { name: 'Menü' }).click();
    const [download] = await Promise.all([fan.waitForEvent('download'), fan.getByRole('button', { name: 'Meine Daten' }).click()]);
    expect(download.suggestedFilename()).toBe('my-fanfare-data.json');
    const data = FanDataExport.parse(JSON.parse(await fs.readFile((await download.path())!, 'utf8')));
    expect(data.chat_messages.map((m) => m.text)).toContain('Bald bin ich weg');
    expect(data.party_signups.map((s) => s.display_name)).toEqual(['Leaver']);

    await fan.getByRole('button', { name: 'Mein Konto löschen' }).click();
    await fan.getByRole('alertdialog').waitFor();
    await expectNoSeriousAxeViolations(fan, 'the delete confirmation');
    await screenshotBoth(fan, 'delete-account-confirm');
    await fan.getByRole('button', { name: 'Ja, Konto löschen' }).click();

    await expect.poll(() => other.getByTestId('chat-message').filter({ hasText: 'Bald bin ich weg' }).count(), { timeout: 15_000 }).toBe(0);
    await screenshotBoth(other, 'after-erasure-other-fan');
    await expect.poll(() => fan.evaluate(() => localStorage.length === 0 || !JSON.stringify(localStorage).includes('token'))).toBe(true);
  });
});
