/**
 * The live party in Chromium against the real server: a host made by a grant link starts the demo party;
 * two fans listen. A fan's network drops for 10 s and the player heals by itself; the offset
 * indicator, the listener count and reactions, the mobile player, the legal pages and the
 * finished album. Steps run in order and share the pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REACTION_BURST } from '@fanfare/protocol';
import { IN_SYNC_TOLERANCE_MS } from '../../apps/party-web/src/rules/sync.ts';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb, launchChromium, screenshotBoth, waitFor } from './browser.ts';

/** Within this long after the network returns, the fan plays in sync again. */
const HEAL_WITHIN_MS = 3_000;
/** The drop of the scenario. */
const DROP_MS = 10_000;
/** How close to the timeline "plays in sync" means here: the app's own seekable drift tolerance. */
const SYNC_TOLERANCE_MS = 250;
/** How far the offset-indicator test pulls the audio behind the timeline. */
const PULL_BEHIND_S = 1.5;

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
let host: Page;
let fan: Page;
let lena: Page;
let fanContext: BrowserContext;
let grantLink = '';

async function cms(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.partyUrl}${path}`, {
    method,
    headers: { 'x-cms-token': TEST_CMS_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function newContext(width = 1280, height = 800): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'de-DE' });
  context.setDefaultTimeout(30_000);
  contexts.push(context);
  return context;
}

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  if (process.env.E2E_CONSOLE) page.on('console', (m) => console.log(`[console] ${m.text()}`));
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

/** The player's audio position and the server timeline's position, sampled at one instant. */
async function offsetFromServer(page: Page): Promise<{ offsetMs: number; paused: boolean }> {
  const token = await page.evaluate(() => (window as unknown as { __fanfare: { store: { getState(): { token: string } } } }).__fanfare.store.getState().token);
  const res = await fetch(`${server.partyUrl}/api/parties/demo/player/status`, { headers: { authorization: `Bearer ${token}` } });
  const { status } = (await res.json()) as { status: { progress_ms: number; timestamp_ms: number; is_paused: boolean } };
  const sample = await page.evaluate(() => {
    const audio = document.querySelector('audio');
    return { audioMs: (audio?.currentTime ?? 0) * 1000, paused: audio?.paused ?? true, at: Date.now() };
  });
  // Server and browser share this machine's clock: the timeline at the sample's instant.
  const timelineMs = status.progress_ms + (status.is_paused ? 0 : sample.at - status.timestamp_ms);
  return { offsetMs: timelineMs - sample.audioMs, paused: sample.paused };
}

/** The sample when `page` plays within SYNC_TOLERANCE_MS of the timeline; otherwise throws what it saw, which waitFor reports on timeout. */
async function inSync(page: Page): Promise<{ offsetMs: number; at: number }> {
  const o = await offsetFromServer(page);
  if (o.paused || Math.abs(o.offsetMs) > SYNC_TOLERANCE_MS) throw new Error(`paused=${o.paused} offset=${Math.round(o.offsetMs)} ms`);
  return { offsetMs: o.offsetMs, at: Date.now() };
}

describe('in Chromium: the party heals itself, shows presence, and finishes', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    server = await startTestServer({ env: { DEMO_START_DELAY_SECONDS: '1200' } });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('host onboarding: a grant link makes its opener the host, who starts the party', async () => {
    const res = await cms('POST', '/api/parties/demo/grants', { role: 'host', display_name: 'Gast-Host' });
    expect(res.status).toBe(201);
    const grant = (await res.json()) as { token: string; link: string };
    expect(grant.link).toBe(`${server.partyUrl}/#/grant/${grant.token}`);
    grantLink = grant.link;
    host = await newPage(await newContext());
    await host.goto(grantLink);
    await host.waitForURL(/#\/$/);
    await joinAs(host, 'Continue as Sam', 'Gast-Host', host.url());
    await expect.poll(() => host.getByRole('button', { name: 'Party starten' }).isVisible()).toBe(true);

    fanContext = await newContext();
    fan = await newPage(fanContext);
    await joinAs(fan, 'Continue as Demo Fan', 'demofan');
    await host.getByRole('button', { name: 'Party starten' }).click();
    await host.waitForURL(/#\/player/);
    await fan.waitForURL(/#\/player/, { timeout: 30_000 });
    // The first start loads the player chunk, hls.js and the first segments: on a busy machine that
    // takes longer than a later heal, so the bound is wider.
    await waitFor(() => inSync(fan), 'the fan to play in sync', 40_000);
    await screenshotBoth(host, 'live-host-player');
  });

  it('healing: a 10 s network drop mid-track; within 3 s of reconnecting the fan plays in sync again, with no click', async () => {
    await fanContext.setOffline(true);
    // The status tells the truth while the network is gone.
    await waitFor(() => fan.getByTestId('connection-status').getAttribute('data-phase').then((p) => p === 'offline' || p === 'reconnecting'), 'the status to say offline');
    const label = await fan.getByTestId('connection-status').textContent();
    expect(label).not.toContain('Live');
    await fan.waitForTimeout(DROP_MS);
    await fanContext.setOffline(false);
    const back = Date.now();
    const healed = await waitFor(() => inSync(fan), 'the fan to play in sync after the drop', 10_000, 100);
    expect(healed.at - back).toBeLessThanOrEqual(HEAL_WITHIN_MS);
    await waitFor(() => fan.getByTestId('connection-status').getAttribute('data-phase').then((p) => p === 'live'), 'the status to say live again');
  });

  it('offset indicator: the fan sees "Synchron" or how far behind, measured from the clock sync; a tap resyncs', async () => {
    const indicator = fan.getByTestId('sync-indicator');
    await waitFor(() => indicator.textContent().then((t) => t?.includes('Synchron')), 'the indicator to say in sync', 30_000);
    const shown = Number(await indicator.getAttribute('data-offset-ms'));
    expect(Math.abs(shown)).toBeLessThanOrEqual(IN_SYNC_TOLERANCE_MS);
    // Pull the audio 1.5 s behind: the indicator names the gap, a tap closes it. The player closes
    // the gap by itself after DRIFT_CONFIRM_STEPS (2 s), so every text the indicator shows is
    // recorded in the page: on a busy machine a poll from here can fall after the gap is closed.
    await fan.evaluate(() => {
      const texts: string[] = [];
      (window as unknown as { syncTexts: string[] }).syncTexts = texts;
      const button = document.querySelector('[data-testid="sync-indicator"]')!;
      new MutationObserver(() => texts.push(button.textContent ?? '')).observe(button, { subtree: true, childList: true, characterData: true });
    });
    // The seek must land in audio already buffered: after the heal above the stream may hold less
    // than 1.5 s behind the play head, and a seek that waits for data is a stall, which the player
    // heals (back in sync) before the indicator can name a gap. So wait for that much buffer.
    const behindBufferedS = () =>
      fan.evaluate(() => {
        const audio = document.querySelector('audio')!;
        for (let i = 0; i < audio.buffered.length; i++) {
          if (audio.buffered.start(i) <= audio.currentTime && audio.currentTime <= audio.buffered.end(i)) return audio.currentTime - audio.buffered.start(i);
        }
        return 0;
      });
    await waitFor(() => behindBufferedS().then((s) => s >= PULL_BEHIND_S + 0.3), `the stream to hold ${PULL_BEHIND_S + 0.3} s behind the play head`, 20_000);
    const saidBehind = () => fan.evaluate(() => (window as unknown as { syncTexts: string[] }).syncTexts.some((t) => /\d+ ms hinterher/.test(t)));
    // Bounded retries: a stall on a busy machine can still heal a pull before it is shown.
    for (let attempt = 1; attempt <= 3; attempt++) {
      await fan.evaluate((s) => {
        const audio = document.querySelector('audio')!;
        audio.currentTime = Math.max(0, audio.currentTime - s);
      }, PULL_BEHIND_S);
      const shown = await waitFor(saidBehind, 'the indicator to say behind', 8_000).catch((err: unknown) => {
        if (attempt === 3) throw err;
        return false;
      });
      if (shown) break;
    }
    await screenshotBoth(fan, 'live-offset-behind');
    await indicator.click();
    // The tap closes the 1.5 s gap; whether the last few ms land inside the 50 ms "Synchron" band
    // depends on how busy the machine is, so the check is the wider alignment tolerance.
    await waitFor(
      () => indicator.getAttribute('data-offset-ms').then((v) => v !== null && v !== '' && Math.abs(Number(v)) <= SYNC_TOLERANCE_MS),
      'the tap to resync',
      30_000,
    );
    const o = await offsetFromServer(fan);
    expect(Math.abs(o.offsetMs)).toBeLessThanOrEqual(SYNC_TOLERANCE_MS);
  });

  it('presence and reactions: a second fan sees the live listener count and the first fan\'s reaction as a burst', async () => {
    lena = await newPage(await newContext());
    await joinAs(lena, 'Continue as Lena', 'lena');
    await lena.waitForURL(/#\/player/, { timeout: 30_000 });
    // Host, fan and Lena: three listeners, counted by the server.
    await waitFor(() => lena.getByTestId('listener-count').textContent().then((t) => t?.includes('3 hören zu')), 'Lena to see three listeners');
    await waitFor(() => fan.getByTestId('listener-count').textContent().then((t) => t?.includes('3 hören zu')), 'the fan to see three listeners');
    await fan.getByRole('button', { name: 'Feuer senden' }).click();
    await waitFor(() => lena.locator('[data-testid="reaction-burst"][data-reaction="fire"]').count(), 'Lena to see the fire burst');
    // Two reactions within the interval: the second says how long to wait, and the words go by
    // themselves when the wait is over, so every text the wait line shows is recorded in the page.
    await fan.evaluate(() => {
      const texts: string[] = [];
      (window as unknown as { waitTexts: string[] }).waitTexts = texts;
      const line = document.querySelector('[data-testid="reaction-wait"]')!;
      new MutationObserver(() => texts.push(line.textContent ?? '')).observe(line, { subtree: true, childList: true, characterData: true });
    });
    const saidWait = () => fan.evaluate(() => (window as unknown as { waitTexts: string[] }).waitTexts.some((t) => /in \d+ s wieder/.test(t)));
    // Taps are free up to the abuse limit (a burst of REACTION_BURST, then a steady rate): a burst
    // of taps well beyond it, in one turn of the page, gets the wait.
    for (let round = 0; round < 3 && !(await saidWait()); round++) {
      await fan.getByRole('button', { name: 'Herz senden' }).evaluate((heart, taps) => {
        for (let i = 0; i < taps; i++) (heart as HTMLButtonElement).click();
      }, 3 * REACTION_BURST);
      await fan.waitForTimeout(500);
    }
    await waitFor(saidWait, 'the rate-limit wait to show');
    await screenshotBoth(lena, 'live-reactions');
    // The bursts of these taps fly for 2.4 s: the next step's axe check reads a settled page.
    await fan.waitForTimeout(3_000);
  });

  it('accessibility: the player (with reactions and the offset indicator) passes axe-core', async () => {
    // While the party runs: once the album has finished, the player and its indicator are gone.
    await fan.setViewportSize({ width: 1280, height: 800 });
    expect(await fan.getByTestId('sync-indicator').isVisible()).toBe(true);
    expect(await fan.getByRole('button', { name: 'Feuer senden' }).isVisible()).toBe(true);
    await expectNoSeriousAxeViolations(fan);
    // The track list can mark the current track played a moment before the status moves on (seen
    // at a start and a track change): its row must not fade, or its badge drops to 3.1:1.
    const currentRowOpacity = await fan.evaluate(() => {
      const row = document.querySelector('.track.is-current')!;
      row.classList.add('is-played');
      const opacity = getComputedStyle(row).opacity;
      row.classList.remove('is-played');
      return opacity;
    });
    expect(currentRowOpacity).toBe('1');
  });

  it('mobile: at 390 px the player keeps the chat input in view, pinned to the newest message', async () => {
    await lena.setViewportSize({ width: 390, height: 844 });
    const input = lena.getByLabel('Nachricht', { exact: true });
    await input.fill('Hallo vom Handy');
    await lena.getByRole('button', { name: 'Senden', exact: true }).click();
    const mine = lena.getByTestId('chat-message').filter({ hasText: 'Hallo vom Handy' });
    await waitFor(() => mine.count(), 'the message to arrive');
    const inView = async (el: ReturnType<Page['locator']>) => {
      const box = await el.boundingBox();
      return !!box && box.y >= 0 && box.y + box.height <= 844 && box.x >= 0 && box.x + box.width <= 390;
    };
    await waitFor(() => inView(input), 'the chat input in view');
    await waitFor(() => inView(mine), 'the newest message in view');
    // The party name and the menu stay reachable on the player.
    await expect.poll(() => lena.getByRole('button', { name: 'Menü' }).isVisible()).toBe(true);
    await lena.screenshot({ path: 'test-results/screenshots/live-player-mobile-390.png' });
    await lena.getByRole('button', { name: 'Menü' }).click();
    await expect.poll(() => lena.getByRole('link', { name: 'Impressum' }).isVisible()).toBe(true);
    await lena.screenshot({ path: 'test-results/screenshots/live-player-mobile-menu-390.png' });
    await lena.keyboard.press('Escape');
  });

  it('legal pages: imprint, privacy and terms are served as pages from the footer, not a JSON 404', async () => {
    const page = await newPage(await newContext());
    await page.goto(`${server.partyUrl}/`);
    await page.getByRole('link', { name: 'Impressum' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Impressum' }).isVisible()).toBe(true);
    await screenshotBoth(page, 'legal-imprint');
    await page.goBack();
    await page.getByRole('link', { name: 'Datenschutz' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Datenschutz' }).isVisible()).toBe(true);
    const terms = await fetch(`${server.partyUrl}/legal/terms`);
    expect(terms.headers.get('content-type')).toContain('text/html');
    await page.close();
  });

  it('finished album: "Das war das Album" instead of a paused player; the host\'s Start explains why it cannot', async () => {
    const ctx = server.server.ctx;
    const realNow = ctx.now.bind(ctx);
    // Jump the party clock past the last track: the timeline advances through the album and stops.
    ctx.now = () => realNow() + 10 * 60_000;
    await waitFor(() => fan.getByTestId('album-finished').isVisible(), 'the fan to see the finished album', 20_000);
    await expect.poll(() => fan.getByRole('heading', { name: 'Das war das Album. Danke fürs Zuhören!' }).isVisible()).toBe(true);
    await waitFor(() => host.getByTestId('host-finished').isVisible(), 'the host to see why Start is not offered');
    expect(await host.getByRole('button', { name: 'Party starten' }).count()).toBe(0);
    await screenshotBoth(fan, 'live-finished');
    await screenshotBoth(host, 'live-finished-host');
  });

  it('clear states: an unknown party is a page inside the shell; a confirmed newsletter lands on a success message', async () => {
    const page = await newPage(await newContext());
    await page.goto(`${server.partyUrl}/p/no-such-party/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Diese Party gibt es nicht' }).isVisible()).toBe(true);
    expect(await page.locator('footer').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Zur aktuellen Party' }).getAttribute('href')).toBe('/');
    await expectNoSeriousAxeViolations(page);
    await screenshotBoth(page, 'party-not-found');
    await page.goto(`${server.partyUrl}/?newsletter_state=success&newsletter_ids=1`);
    await expect.poll(() => page.getByTestId('newsletter-banner').textContent()).toContain('bestätigt');
    await screenshotBoth(page, 'newsletter-confirmed');
    await page.close();
  });
});

/** axe-core in the page: no serious or critical violations. */
async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  expect(violations).toEqual([]);
}
