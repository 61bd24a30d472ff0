/**
 * The waiting room is already a party, in Debian's Chromium against the real server: the demo
 * party starts in 20 minutes (its waiting room, 30 minutes, is open). Two fans wait; one posts in
 * the chat and the other sees it live, while the countdown to the first track stays above the
 * fold on a phone. Then the host makes the waiting room read-only: the fans read the chat, and
 * the composer says when it opens. Screenshots and axe at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, screenshotBoth } from './browser.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE' });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

/** Join → Service → Spotify emulator consent → Register → waiting room. */
async function joinAs(page: Page, consentLabel: string, displayName: string): Promise<void> {
  await page.goto(`${server.partyUrl}/`);
  await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
  await page.getByRole('button', { name: 'Weiter mit Spotify' }).click();
  await page.getByRole('link', { name: consentLabel }).click();
  await page.waitForURL(/#\/register/);
  await page.getByLabel('Name im Chat').fill(displayName);
  await page.getByRole('button', { name: 'Zur Party' }).click();
  await page.waitForURL(/#\/waiting/);
}

async function atBothWidths(page: Page, what: string): Promise<void> {
  await expectNoSeriousAxeViolations(page, `${what} at 1280 px`);
  await page.setViewportSize(PHONE);
  await expectNoSeriousAxeViolations(page, `${what} at 390 px`);
  await page.setViewportSize(DESKTOP);
}

/** The countdown's bottom edge on a phone, scrolled to the top (px from the top of the screen). */
async function countdownBottomOnPhone(page: Page): Promise<number> {
  await page.setViewportSize(PHONE);
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await page.getByRole('region', { name: 'Die Party startet in' }).boundingBox();
  await page.setViewportSize(DESKTOP);
  if (!box) throw new Error('the countdown is not shown');
  return box.y + box.height;
}

describe('the waiting room is already a party: chat before the start', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    server = await startTestServer({ env: { DEMO_START_DELAY_SECONDS: String(20 * 60) } });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('two fans wait; one posts and the other sees it live, under a countdown that stays above the fold on a phone', async () => {
    const fan = await newPage();
    const lena = await newPage();
    await joinAs(fan, 'Continue as Demo Fan', 'wartefan');
    await joinAs(lena, 'Continue as Lena', 'lena-wartet');
    for (const page of [fan, lena]) await page.getByRole('region', { name: 'Chat' }).getByLabel('Nachricht', { exact: true }).waitFor();

    await fan.getByLabel('Nachricht', { exact: true }).fill('Schon jemand da?');
    await fan.getByRole('button', { name: 'Senden', exact: true }).click();
    await expect.poll(() => lena.getByTestId('chat-message').filter({ hasText: 'Schon jemand da?' }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => fan.getByTestId('chat-message').filter({ hasText: 'Schon jemand da?' }).count()).toBe(1);

    expect(await countdownBottomOnPhone(lena)).toBeLessThanOrEqual(PHONE.height);
    await atBothWidths(lena, 'the waiting room with its chat');
    await screenshotBoth(lena, 'waiting-room-chat');
  });

  it('a read-only waiting room shows the chat and says when it opens', async () => {
    const current = (await (await fetch(`${server.partyUrl}/api/parties/demo`)).json()) as { frontend: Record<string, unknown> };
    const put = await fetch(`${server.partyUrl}/api/parties/demo`, {
      method: 'PUT',
      headers: { 'x-cms-token': TEST_CMS_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ frontend: { ...current.frontend, waitingRoomReadOnly: true } }),
    });
    expect(put.ok).toBe(true);
    const fan = await newPage();
    await joinAs(fan, 'Continue as Sam', 'sam-liest');
    await fan.getByTestId('chat-read-only').getByText('Der Chat öffnet, wenn die Party beginnt.').waitFor();
    await fan.getByTestId('chat-message').filter({ hasText: 'Schon jemand da?' }).waitFor();
    expect(await fan.getByLabel('Nachricht', { exact: true }).count()).toBe(0);
    expect(await countdownBottomOnPhone(fan)).toBeLessThanOrEqual(PHONE.height);
    await atBothWidths(fan, 'the read-only waiting room');
    await screenshotBoth(fan, 'waiting-room-read-only');
  });
});
