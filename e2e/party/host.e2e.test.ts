/**
 * The host's flows in Debian's Chromium against the real server: a host (made by a grant link) and
 * a fan in two browser contexts. The host's own popup stays out of the way of the controls, the
 * host follows an open poll live, the fan reads why the music paused, reaction taps are free and a
 * 429's wait clears itself, and End asks inline: Cancel ends nothing, confirming ends the party.
 * The host panel is checked by axe and by keyboard, and saved at 390 and 1280 px. Steps run in
 * order and share the pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REACTION_BURST } from '@fanfare/protocol';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, screenshotBoth, waitFor } from './browser.ts';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let host: Page;
let fan: Page;

async function cms(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.partyUrl}${path}`, {
    method,
    headers: { 'x-cms-token': TEST_CMS_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function newPage(width = 1280, height = 900): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'de-DE' });
  context.setDefaultTimeout(20_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

/** Join → Service → Spotify emulator consent → Register → waiting room (or the player once the party runs). */
async function joinAs(page: Page, consentLabel: string, displayName: string, entry = `${server.partyUrl}/`): Promise<void> {
  await page.goto(entry);
  await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
  await page.getByRole('button', { name: 'Weiter mit Spotify' }).click();
  await page.getByRole('link', { name: consentLabel }).click();
  await page.waitForURL(/#\/register/);
  await page.getByLabel('Name im Chat').fill(displayName);
  await page.getByRole('button', { name: 'Zur Party' }).click();
  await page.waitForURL(/#\/(waiting|player)/);
}

/** The element on top at the centre of `locator`: what a tap there would hit. */
async function isOnTop(page: Page, locator: ReturnType<Page['locator']>): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded();
  const box = await locator.boundingBox();
  if (!box) return false;
  const handle = await locator.elementHandle();
  return page.evaluate(
    ([el, x, y]) => {
      const top = document.elementFromPoint(x as number, y as number);
      return !!top && (el as Element).contains(top);
    },
    [handle, box.x + box.width / 2, box.y + box.height / 2] as const,
  );
}

describe('host flows in Chromium: popup, live poll, pause reason, reactions and an End that can be cancelled', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    // The host starts the party; auto start (20 min) is after the suite, the waiting room (30 min) is open.
    server = await startTestServer({ env: { DEMO_START_DELAY_SECONDS: '1200' } });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('a host made by a grant link starts the party; the fan enters the player', async () => {
    const res = await cms('POST', '/api/parties/demo/grants', { role: 'host', display_name: 'Gast-Host' });
    expect(res.status).toBe(201);
    const grant = (await res.json()) as { link: string };
    host = await newPage();
    await host.goto(grant.link);
    await host.waitForURL(/#\/$/);
    await joinAs(host, 'Continue as Sam', 'Gast-Host', host.url());
    fan = await newPage();
    await joinAs(fan, 'Continue as Demo Fan', 'demofan');
    await host.getByRole('button', { name: 'Party starten' }).click();
    await host.waitForURL(/#\/player/);
    await fan.waitForURL(/#\/player/, { timeout: 30_000 });
    await host.getByTestId('host-panel').waitFor();
  });

  it('the host panel passes axe at 390 and 1280 px with its forms open, and is saved at both widths', async () => {
    const panel = host.getByTestId('host-panel');
    for (const title of ['Popup', 'Umfrage']) await panel.locator('summary', { hasText: new RegExp(`^${title}$`) }).click();
    for (const width of [390, 1280]) {
      await host.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await expectNoSeriousAxeViolations(host, `the host player at ${width} px`);
    }
    await screenshotBoth(host, 'host-panel');
  });

  it('a host\'s own popup shows inside the panel and leaves every control reachable; the fan gets the dialog', async () => {
    const panel = host.getByTestId('host-panel');
    const popupForm = panel.locator('details', { hasText: 'Popup' }).first();
    await popupForm.getByLabel('Text').fill('Gleich kommt die Bonus-Spur!');
    // A popup fans cannot close: on a host's screen that used to lock the controls.
    await popupForm.getByLabel('Kann geschlossen werden').uncheck();
    await popupForm.getByRole('button', { name: 'Senden' }).click();
    const notice = panel.getByTestId('sent-popups');
    await waitFor(() => notice.getByText('Gleich kommt die Bonus-Spur!').isVisible(), 'the host to see the popup in the panel');
    expect(await host.getByRole('dialog').count()).toBe(0);
    expect(await isOnTop(host, panel.getByRole('button', { name: 'Party beenden' }))).toBe(true);
    expect(await isOnTop(host, panel.getByRole('button', { name: 'Anhalten' }))).toBe(true);
    const dialog = fan.getByRole('dialog', { name: 'Hinweis' });
    await waitFor(() => dialog.getByText('Gleich kommt die Bonus-Spur!').isVisible(), 'the fan to see the popup dialog');
    await screenshotBoth(host, 'host-popup-in-panel');
    await screenshotBoth(fan, 'fan-popup-dialog');
    await expectNoSeriousAxeViolations(fan, 'the fan\'s popup dialog');
    // The host hides it from the panel; the fan's stays, as fans may not close this one.
    await notice.getByRole('button', { name: /hier ausblenden/ }).click();
    expect(await panel.getByTestId('sent-popups').count()).toBe(0);
    await fan.reload();
    await fan.waitForURL(/#\/player/);
  });

  it('the host follows an open poll live: the fan\'s answer shows in the host\'s counts before it closes', async () => {
    const pollForm = host.getByTestId('host-panel').locator('details', { hasText: 'Umfrage' }).first();
    await pollForm.getByLabel('Frage').fill('Lieblingssong?');
    await pollForm.getByLabel('Antwort 1', { exact: true }).fill('Der erste');
    await pollForm.getByLabel('Antwort 2', { exact: true }).fill('Der zweite');
    await pollForm.getByLabel('Dauer (Sekunden)').fill('600');
    await pollForm.getByRole('button', { name: 'Senden' }).click();
    const hostPoll = host.getByTestId('poll').filter({ hasText: 'Lieblingssong?' });
    await waitFor(() => hostPoll.getByTestId('poll-state').textContent().then((t) => t?.includes('Live-Ergebnis') && t.includes('0 Antworten')), 'the host to see the open poll with its counts');
    expect(await hostPoll.getByRole('button', { name: 'Der zweite' }).count()).toBe(0);
    await fan.getByTestId('poll').filter({ hasText: 'Lieblingssong?' }).getByRole('button', { name: 'Der zweite' }).click();
    await waitFor(() => hostPoll.getByTestId('poll-state').textContent().then((t) => t?.includes('1 Antwort')), 'the host to see the answer count');
    await waitFor(() => hostPoll.getByText('100%').isVisible(), 'the host to see the share');
    expect(await hostPoll.getByTestId('poll-state').textContent()).toContain('Live-Ergebnis');
    await screenshotBoth(host, 'host-live-poll');
  });

  it('reaction taps are free; the server\'s 429 wait shows and clears itself', async () => {
    // Every text the wait line shows is recorded in the page: the wait lasts at most a second.
    await fan.evaluate(() => {
      const texts: string[] = [];
      (window as unknown as { waitTexts: string[] }).waitTexts = texts;
      const line = document.querySelector('[data-testid="reaction-wait"]')!;
      new MutationObserver(() => texts.push(line.textContent ?? '')).observe(line, { subtree: true, childList: true, characterData: true });
    });
    const requests: number[] = [];
    fan.on('request', (r) => {
      if (r.url().endsWith('/reactions')) requests.push(Date.now());
    });
    // Taps are free up to the abuse limit (a burst of REACTION_BURST): four quick taps all go out,
    // then a burst beyond the limit in one turn of the page gets the wait.
    for (let i = 0; i < 4; i++) await fan.getByRole('button', { name: 'Feuer senden' }).click();
    await waitFor(() => requests.length >= 4, 'every tap to reach the server');
    await fan.getByRole('button', { name: 'Feuer senden' }).evaluate((fire, taps) => {
      for (let i = 0; i < taps; i++) (fire as HTMLButtonElement).click();
    }, 2 * REACTION_BURST);
    await waitFor(() => fan.evaluate(() => (window as unknown as { waitTexts: string[] }).waitTexts.some((t) => /in \d+ s wieder/.test(t))), 'the wait to show');
    await waitFor(() => fan.getByTestId('reaction-wait').textContent().then((t) => t === ''), 'the wait to clear itself', 5_000);
    // The bursts of these taps fly for 2.4 s on every page, then leave it: the next step's axe
    // check reads settled pages, not text caught mid-fade.
    for (const page of [fan, host]) {
      await waitFor(() => page.getByTestId('reaction-burst').count().then((n) => n === 0), 'every burst to fly off', 15_000);
    }
  });

  it('the fan reads why the music paused when the host stops the party', async () => {
    await host.getByTestId('host-panel').getByRole('button', { name: 'Anhalten' }).click();
    const reason = fan.getByTestId('paused-reason');
    await waitFor(() => reason.textContent().then((t) => t?.startsWith('Vom Host pausiert.')), 'the fan to read why it paused');
    await screenshotBoth(fan, 'fan-paused-by-host');
    await screenshotBoth(host, 'host-stopped');
    await expectNoSeriousAxeViolations(fan, 'the paused player');
    await host.getByTestId('host-panel').getByRole('button', { name: 'Party starten' }).click();
    await waitFor(() => reason.count().then((n) => n === 0), 'the reason to go once the party runs again');
  });

  it('End asks inline, by keyboard: Cancel sends nothing and says nothing; the music plays on', async () => {
    const panel = host.getByTestId('host-panel');
    const ends: string[] = [];
    host.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/end')) ends.push(r.url());
    });
    let dialogs = 0;
    host.on('dialog', (d) => {
      dialogs += 1;
      void d.dismiss();
    });
    await panel.getByRole('button', { name: 'Party beenden' }).focus();
    await host.keyboard.press('Enter');
    const question = panel.getByTestId('end-confirm');
    await question.waitFor();
    // Focus waits on Cancel: a second Enter cannot end the party by accident.
    expect(await host.evaluate(() => document.activeElement?.textContent)).toBe('Abbrechen');
    await screenshotBoth(host, 'host-end-confirm');
    // Reaction bursts still flying (they fade out) would fail the contrast check of what they cross.
    await waitFor(() => host.getByTestId('reaction-burst').count().then((n) => n === 0), 'every burst to fly off', 15_000);
    await expectNoSeriousAxeViolations(host, 'the end question');
    await host.keyboard.press('Enter');
    await waitFor(() => question.count().then((n) => n === 0), 'the question to close');
    expect(await host.evaluate(() => document.activeElement?.textContent)).toBe('Party beenden');
    await host.waitForTimeout(500);
    expect(ends).toEqual([]);
    expect(dialogs).toBe(0);
    expect(await host.getByText('Die Party ist beendet.').count()).toBe(0);
    expect(host.url()).toMatch(/#\/player/);
    expect(fan.url()).toMatch(/#\/player/);
    const party = (await (await fetch(`${server.partyUrl}/api/parties/demo`)).json()) as { ends_at: string };
    expect(Date.parse(party.ends_at)).toBeGreaterThan(Date.now());
  });

  it('confirming End ends the party: host and fan land on End', async () => {
    const panel = host.getByTestId('host-panel');
    await panel.getByRole('button', { name: 'Party beenden' }).click();
    await panel.getByRole('button', { name: 'Ja, für alle beenden' }).click();
    await host.waitForURL(/#\/end/, { timeout: 15_000 });
    await fan.waitForURL(/#\/end/, { timeout: 15_000 });
  });
});
