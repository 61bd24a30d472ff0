/**
 * The listening party end to end, in Debian's Chromium against the real server: a fan and a host
 * in two browser contexts, from login to the End screen. Steps run in order and share the pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildPartyWeb, launchChromium, screenshotBoth, waitFor } from './browser.ts';

const HOST_SPOTIFY_ID = 'hanna0000000000000000004';

let server: TestServer;
let browser: Browser;
let fanContext: BrowserContext;
let hostContext: BrowserContext;
let fan: Page;
let host: Page;
const fanName = 'demofan';

async function cms(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.partyUrl}${path}`, {
    method,
    headers: { 'x-cms-token': TEST_CMS_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

/** Join → Service → Spotify emulator consent → Register, as a person would click through. */
async function loginWithSpotify(page: Page, consentLabel: string): Promise<void> {
  await page.goto(`${server.partyUrl}/`);
  await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
  await page.getByRole('button', { name: 'Weiter mit Spotify' }).click();
  await page.getByRole('link', { name: consentLabel }).click();
  await page.waitForURL(/#\/register/);
}

async function signUp(page: Page, displayName: string): Promise<void> {
  await page.getByLabel('Name im Chat').fill(displayName);
  await page.getByRole('button', { name: 'Zur Party' }).click();
}

/** Audio position (ms) and the party timeline's expected position (ms) on a page. */
async function positions(page: Page): Promise<{ audioMs: number; expectedMs: number; paused: boolean }> {
  return page.evaluate(() => {
    const audio = document.querySelector('audio');
    const state = (window as unknown as { __fanfare: { store: { getState(): { status: { progress_ms: number; timestamp_ms: number; is_paused: boolean } | null; clockOffsetMs: number } } } }).__fanfare.store.getState();
    const s = state.status;
    const expected = s ? s.progress_ms + (Date.now() + state.clockOffsetMs - s.timestamp_ms) : 0;
    return { audioMs: (audio?.currentTime ?? 0) * 1000, expectedMs: expected, paused: audio?.paused ?? true };
  });
}

describe('listening party in Chromium: fan and host from login to End', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    // The host starts the party; auto start (20 min) is after the suite, the waiting room (30 min) is open.
    server = await startTestServer({ env: { DEMO_START_DELAY_SECONDS: '1200' } });
    browser = await launchChromium();
    fanContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    hostContext = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    fanContext.setDefaultTimeout(10_000);
    hostContext.setDefaultTimeout(10_000);
    fan = await newPage(fanContext);
    host = await newPage(hostContext);
    // The demo seed makes the emulators' Hanna (Host) the demo party's host.
    const grants = (await (await cms('GET', '/api/parties/demo/grants')).json()) as { items: { service_id: string | null; role: string }[] };
    expect(grants.items).toContainEqual(expect.objectContaining({ service_id: HOST_SPOTIFY_ID, role: 'host' }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the app at / for the demo party and at /p/{partyId}/', async () => {
    const root = await fetch(`${server.partyUrl}/`);
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<meta name="fanfare-party-id" content="demo" />');
    const byId = await fetch(`${server.partyUrl}/p/demo/`);
    expect(await byId.text()).toContain('content="demo"');
  });

  it('shows Pre before the waiting room opens (redirect rule)', async () => {
    const startsAt = new Date(Date.now() + 3 * 3600_000).toISOString();
    const put = await cms('PUT', '/api/parties/later', { name: 'Später', starts_at: startsAt, ends_at: new Date(Date.parse(startsAt) + 3600_000).toISOString() });
    expect(put.ok).toBe(true);
    const page = await newPage(fanContext);
    await page.goto(`${server.partyUrl}/p/later/#/waiting`);
    await page.waitForURL(/#\/pre$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Gleich geht’s los' }).isVisible()).toBe(true);
    await screenshotBoth(page, 'pre');
    await page.close();
  });

  it('a fan logs in through the Spotify emulator and signs up', async () => {
    await fan.goto(`${server.partyUrl}/`);
    await fan.getByRole('link', { name: 'Jetzt teilnehmen' }).waitFor();
    await screenshotBoth(fan, 'home');
    await fan.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
    await fan.getByRole('button', { name: 'Weiter mit Spotify' }).waitFor();
    await screenshotBoth(fan, 'service');
    await fan.getByRole('button', { name: 'Weiter mit Spotify' }).click();
    await fan.getByRole('link', { name: 'Continue as Demo Fan' }).click();
    await fan.waitForURL(/#\/register/);
    // The login result was taken from the address.
    expect(new URL(fan.url()).search).toBe('');
    await fan.getByLabel('Name im Chat').waitFor();
    await screenshotBoth(fan, 'register');
    await signUp(fan, fanName);
    await fan.waitForURL(/#\/waiting/);
    await expect.poll(() => fan.getByRole('heading', { name: `Willkommen, ${fanName}!` }).isVisible()).toBe(true);
    await waitFor(() => fan.getByTestId('connection-status').textContent().then((t) => t?.includes('Live')), 'the fan socket to be live');
    await screenshotBoth(fan, 'waiting');
  });

  it('a fan logs in with Apple Music through the emulator (MusicKit cannot load offline) and signs up', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    context.setDefaultTimeout(10_000);
    try {
      const page = await newPage(context);
      await page.goto(`${server.partyUrl}/`);
      await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
      await page.getByRole('button', { name: 'Weiter mit Apple Music' }).click();
      await page.getByRole('link', { name: 'Allow as Sam' }).click();
      await page.waitForURL(/#\/register/);
      // The music user token was taken from the address and exchanged for our token.
      expect(new URL(page.url()).search).toBe('');
      await signUp(page, 'sam-apple');
      await page.waitForURL(/#\/waiting/);
      await expect.poll(() => page.getByRole('heading', { name: 'Willkommen, sam-apple!' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('opens the FAQ modal filtered by page, with sanitized HTML answers', async () => {
    const current = (await (await fetch(`${server.partyUrl}/api/parties/demo`)).json()) as { frontend: Record<string, unknown> };
    const faq = [
      { question: 'Wie höre ich mit?', answer: '<p>Einfach <strong>zuhören</strong>.<img src="x" onerror="window.__xss=1"></p><script>window.__xss=2</script>', locations: [{ page: 'All', service: 'All' }] },
      { question: 'Nur im Player', answer: '<p>x</p>', locations: [{ page: 'player', service: 'All' }] },
    ];
    const put = await cms('PUT', '/api/parties/demo', { frontend: { ...current.frontend, faq } });
    expect(put.ok).toBe(true);
    await fan.reload();
    await fan.getByRole('button', { name: 'Fragen & Antworten' }).click();
    const dialog = fan.getByRole('dialog', { name: 'Fragen & Antworten' });
    await dialog.getByRole('button', { name: /Wie höre ich mit\?/ }).click();
    await expect.poll(() => dialog.getByText('zuhören').isVisible()).toBe(true);
    expect(await dialog.getByText('Nur im Player').count()).toBe(0);
    const html = await dialog.innerHTML();
    expect(html).not.toContain('onerror');
    expect(html).not.toContain('<script');
    expect(await fan.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await screenshotBoth(fan, 'faq');
    await fan.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('shows both duplicate signup errors in place', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    ctx.setDefaultTimeout(10_000);
    const page = await newPage(ctx);
    await loginWithSpotify(page, 'Continue as Lena');
    await page.getByLabel('E-Mail (optional)').fill('demo.fan@example.com');
    await signUp(page, fanName);
    await expect.poll(() => page.getByText('Dieser Name ist schon vergeben.', { exact: false }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Diese E-Mail-Adresse ist für diese Party schon angemeldet.').isVisible()).toBe(true);
    await screenshotBoth(page, 'register-duplicates');
    await ctx.close();
  });

  it('the host starts the party and the fan enters the player and hears HLS audio', async () => {
    await loginWithSpotify(host, 'Continue as Hanna (Host)');
    await signUp(host, 'Hanna');
    await host.waitForURL(/#\/waiting/);
    await host.getByRole('button', { name: 'Party starten' }).click();
    await host.waitForURL(/#\/player/);
    await fan.waitForURL(/#\/player/, { timeout: 15_000 });
    const first = await waitFor(async () => {
      const p = await positions(fan);
      return p.audioMs > 0 && !p.paused ? p : null;
    }, 'audio to play on the fan page', 40_000); // the first start loads the player chunk, hls.js and segments
    await fan.waitForTimeout(2_000);
    const later = await positions(fan);
    expect(later.audioMs).toBeGreaterThan(first.audioMs + 1_000);
    expect(Math.abs(later.audioMs - later.expectedMs)).toBeLessThan(2_500);
    await screenshotBoth(fan, 'player');
    await screenshotBoth(host, 'player-host');
  });

  it('the fan chats and votes; the host sees the message', async () => {
    await fan.getByLabel('Nachricht', { exact: true }).fill('Hallo zusammen!');
    await fan.getByRole('button', { name: 'Senden', exact: true }).click();
    await expect.poll(() => fan.getByTestId('chat-message').filter({ hasText: 'Hallo zusammen!' }).count()).toBe(1);
    await expect.poll(() => host.getByTestId('chat-message').filter({ hasText: 'Hallo zusammen!' }).count(), { timeout: 10_000 }).toBe(1);
    const voteButton = fan.getByRole('button', { name: /^Für „.*“ abstimmen$/ }).last();
    await voteButton.click();
    await expect.poll(() => fan.getByRole('button', { name: /^Stimme für „.*“ zurückziehen$/ }).count()).toBe(1);
    await expect.poll(() => fan.getByText('1 Stimme', { exact: true }).count()).toBeGreaterThan(0);
  });

  it('the fan answers a poll and a quiz created by the host', async () => {
    await host.getByText('Umfrage', { exact: true }).click();
    const pollForm = host.locator('details', { hasText: 'Umfrage' }).first();
    await pollForm.getByLabel('Frage').fill('Lieblingssong?');
    await pollForm.getByLabel('Antwort 1', { exact: true }).fill('Der erste');
    await pollForm.getByLabel('Antwort 2', { exact: true }).fill('Der zweite');
    await pollForm.getByRole('button', { name: 'Senden' }).click();
    const poll = fan.getByTestId('poll').filter({ hasText: 'Lieblingssong?' });
    await poll.getByRole('button', { name: 'Der zweite' }).click({ timeout: 10_000 });
    await expect.poll(() => poll.getByText('Danke für deine Antwort!').isVisible()).toBe(true);
    await expect.poll(() => poll.getByText('100%').count()).toBe(1);

    await host.getByText('Quizfrage', { exact: true }).click();
    const quizForm = host.locator('details', { hasText: 'Quizfrage' }).first();
    await quizForm.getByLabel('Frage').fill('Wie heißt das Album?');
    await quizForm.getByLabel('Antwort 1', { exact: true }).fill('Tidal Lights');
    await quizForm.getByLabel('Antwort 2', { exact: true }).fill('Something else');
    await quizForm.getByLabel('Antwort 1 ist richtig').check();
    await quizForm.getByRole('button', { name: 'Senden' }).click();
    const quiz = fan.getByTestId('quiz').filter({ hasText: 'Wie heißt das Album?' });
    await quiz.getByRole('button', { name: 'Tidal Lights' }).click({ timeout: 10_000 });
    await expect.poll(() => quiz.getByText('Danke für deine Antwort!').isVisible()).toBe(true);
    await screenshotBoth(fan, 'player-poll-quiz');
  });

  it('the host deletes a message and blocks the fan; the fan page reflects both', async () => {
    const message = host.getByTestId('chat-message').filter({ hasText: 'Hallo zusammen!' });
    await message.getByRole('button', { name: `Nachricht von ${fanName} löschen` }).click();
    // Delete asks once more.
    await message.getByRole('button', { name: `Nachricht von ${fanName} wirklich löschen` }).click();
    await expect.poll(() => fan.getByTestId('chat-message').filter({ hasText: 'Hallo zusammen!' }).count(), { timeout: 10_000 }).toBe(0);
    await fan.getByLabel('Nachricht', { exact: true }).fill('Noch eine');
    await fan.getByRole('button', { name: 'Senden', exact: true }).click();
    const second = host.getByTestId('chat-message').filter({ hasText: 'Noch eine' });
    await second.getByRole('button', { name: `${fanName} für den Chat sperren` }).click({ timeout: 10_000 });
    await second.getByRole('button', { name: `${fanName} wirklich für den Chat sperren` }).click();
    await expect.poll(() => fan.getByTestId('chat-blocked').isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshotBoth(fan, 'player-blocked');
    await host.getByText(/^Gesperrte Fans/).click();
    await expect.poll(() => host.getByTestId('blocked-list').getByText(fanName).isVisible()).toBe(true);
  });

  it('the fan reloads mid-party and resumes at the right position', async () => {
    await fan.reload();
    await fan.waitForURL(/#\/player/);
    const resumed = await waitFor(async () => {
      const p = await positions(fan);
      return p.audioMs > 0 && !p.paused ? p : null;
    }, 'audio to resume after the reload', 40_000);
    expect(Math.abs(resumed.audioMs - resumed.expectedMs)).toBeLessThan(2_500);
    expect(resumed.expectedMs).toBeGreaterThan(3_000);
  });

  it('the party ends and both land on End', async () => {
    const res = await cms('POST', '/api/parties/demo/end');
    expect(res.ok).toBe(true);
    await fan.waitForURL(/#\/end/, { timeout: 15_000 });
    await host.waitForURL(/#\/end/, { timeout: 15_000 });
    await fan.waitForTimeout(500);
    await screenshotBoth(fan, 'end');
    await expect.poll(() => fan.getByRole('heading', { name: 'Danke fürs Mithören!' }).isVisible(), { timeout: 5_000 }).toBe(true);
  });
});
