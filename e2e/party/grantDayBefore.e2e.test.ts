/**
 * A grant link the day before, in Debian's Chromium against the real server: the party starts in
 * 24 hours (its waiting room opens 30 minutes before). The host opens the grant link, is told it
 * is a host invitation, logs in, has the role confirmed and reaches the waiting room to prepare;
 * a fan without the link at the same moment lands on Pre. Both screens pass axe at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, screenshotBoth } from './browser.ts';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

async function atBothWidths(page: Page, what: string): Promise<void> {
  await expectNoSeriousAxeViolations(page, `${what} at 1280 px`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousAxeViolations(page, `${what} at 390 px`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('host flows: a grant link works the day before the party', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    server = await startTestServer({ env: { DEMO_START_DELAY_SECONDS: String(24 * 3600) } });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('the host logs in through the link, sees the role confirmed and prepares in the waiting room; a fan still sees Pre', async () => {
    // Raw: the grant link's answer carries the one-time link, read as the admin tool reads it.
    const res = await fetch(`${server.partyUrl}/api/parties/demo/grants`, {
      method: 'POST',
      headers: { 'x-cms-token': TEST_CMS_TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'host', display_name: 'Day-before Host' }),
    });
    expect(res.status).toBe(201);
    const { link } = (await res.json()) as { link: string };

    const host = await newPage();
    await host.goto(link);
    await host.waitForURL(/#\/$/);
    await host.getByTestId('grant-invite').waitFor();
    await atBothWidths(host, 'the entry page with a host invitation');
    await host.getByRole('link', { name: 'Join now' }).click();
    await host.getByRole('button', { name: 'Continue with Spotify' }).click();
    await host.getByRole('link', { name: 'Continue as Sam' }).click();
    await host.waitForURL(/#\/register/);
    await host.getByLabel('Chat name').fill('DayHost');
    await host.getByRole('button', { name: 'Join the party' }).click();
    await host.waitForURL(/#\/waiting/);
    await host.getByTestId('role-confirmed').getByText('You are a host of this party').waitFor();
    await host.getByRole('button', { name: 'Start the party' }).waitFor();
    expect(host.url()).toMatch(/#\/waiting/);
    await atBothWidths(host, 'the host\'s waiting room the day before');
    await screenshotBoth(host, 'grant-day-before-waiting');

    const fan = await newPage();
    await fan.goto(`${server.partyUrl}/`);
    await fan.waitForURL(/#\/pre/);
    await fan.getByRole('heading', { name: 'Almost time' }).waitFor();
  });
});
