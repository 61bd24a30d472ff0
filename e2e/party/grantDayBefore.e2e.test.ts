/**
 * A grant link the day before, in Debian's Chromium against the real server: the party starts in
 * 24 hours (its waiting room opens 30 minutes before). The host opens the grant link, is told it
 * is a host invitation, logs in, has the role confirmed and reaches the waiting room to prepare
 * (a poll saved for later, kept on the server); a fan without the link at the same moment lands on Pre. Once the host
 * starts the party, the prepared poll starts from the host panel with one press. The screens pass
 * axe at 390 and 1280 px.
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

  it('the host logs in through the link, sees the role confirmed and prepares a poll in the waiting room; a fan still sees Pre; the poll starts once the party runs', async () => {
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

    // The host prepares a poll for later: kept until the party runs, nothing sent yet.
    const prepare = host.getByTestId('host-prepare');
    await prepare.getByText('Poll', { exact: true }).click();
    const pollForm = prepare.locator('details').filter({ hasText: 'Poll' }).first();
    await pollForm.getByLabel('Question').fill('Which song first?');
    await pollForm.getByLabel('Answer 1').fill('Tide');
    await pollForm.getByLabel('Answer 2').fill('Lights');
    await pollForm.getByRole('button', { name: 'Save for later' }).click();
    await prepare.getByText('Poll: Which song first?').waitFor();
    await atBothWidths(host, 'the waiting room with a prepared poll');
    // Kept on the server for the party, not in this page: a fresh load shows it again.
    await host.reload();
    await host.getByTestId('host-prepare').getByText('Poll: Which song first?').waitFor();

    const fan = await newPage();
    await fan.goto(`${server.partyUrl}/`);
    await fan.waitForURL(/#\/pre/);
    await fan.getByRole('heading', { name: 'Almost time' }).waitFor();

    // Then the host starts the party early; once it runs, the host panel starts the poll with one press.
    await host.getByRole('button', { name: 'Start the party' }).click();
    const panel = host.getByTestId('host-panel');
    await panel.getByText('Prepared (1)').click();
    await panel.getByRole('button', { name: 'Start now: Which song first?' }).click();
    await panel.getByText('Poll started.').waitFor();
    await panel.getByText('Prepared (0)').waitFor();
  });
});
