/**
 * Nobody sits it out, in Chromium against the real server: a Spotify Free fan joins the `spotify`
 * demo party and hears the label stream with the reason shown; the hosts' dashboard counts them by
 * source; with the party's label-stream fallback switched off, an Apple Music fan without a
 * subscription hears 30 s previews, told why. Each screen passes axe-core at 390 and 1280 px.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { PartyStatsEvent } from '@fanfare/protocol';
import { startTestServer, TEST_CMS_TOKEN, type TestServer } from '../../apps/server/src/test/harness.ts';
import { TestSocket } from '../../apps/server/src/test/liveParty.ts';
import { buildPartyWeb, expectNoSeriousAxeViolations, launchChromium, screenshotBoth, waitFor } from './browser.ts';

let server: TestServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

async function cms(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.partyUrl}${path}`, {
    method,
    headers: { 'x-cms-token': TEST_CMS_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function newPage(width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'de-DE' });
  context.setDefaultTimeout(30_000);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

/** Join → Service → the provider emulator's consent → Register → the player (the party runs). */
async function joinAs(page: Page, service: 'Spotify' | 'Apple Music', consentLabel: string, displayName: string): Promise<void> {
  await page.goto(`${server.partyUrl}/`);
  await page.getByRole('link', { name: 'Jetzt teilnehmen' }).click();
  await page.getByRole('button', { name: `Weiter mit ${service}` }).click();
  await page.getByRole('link', { name: consentLabel }).click();
  await page.waitForURL(/#\/register/);
  await page.getByLabel('Name im Chat').fill(displayName);
  await page.getByRole('button', { name: 'Zur Party' }).click();
  await page.waitForURL(/#\/player/);
}

/** True once the party's audio element plays: not paused and past its start. */
function audioPlays(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="party-audio"]');
    return !!audio && !audio.paused && audio.currentTime > 0;
  });
}

describe('in Chromium: fans whose provider cannot play hear the label stream or previews, told why', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildPartyWeb();
    server = await startTestServer({ env: { DEMO_START_DELAY_SECONDS: '1200' } });
    browser = await launchChromium();
    expect((await cms('POST', '/api/parties/demo/start')).ok).toBe(true);
  }, 120_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
  });

  it('a Spotify Free fan joins the spotify party and hears the label stream, with the reason shown', async () => {
    const party = (await (await fetch(`${server.partyUrl}/api/parties/demo`)).json()) as { music: { service: string } };
    expect(party.music.service).toBe('spotify');
    const dash = new TestSocket(`${server.partyUrl.replace(/^http/, 'ws')}/api/parties/demo?access_token=${encodeURIComponent(TEST_CMS_TOKEN)}&view=dashboard`);
    await dash.next('party_stats');

    const lena = await newPage();
    await joinAs(lena, 'Spotify', 'Continue as Lena (Free)', 'lena-free');
    await waitFor(() => audioPlays(lena), 'the label stream to play for the free-tier fan', 40_000);
    const notice = lena.getByTestId('source-notice');
    expect(await notice.getAttribute('data-source')).toBe('label_stream');
    expect(await notice.getAttribute('data-reason')).toBe('free_tier');
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('Stream des Labels');
    expect(text).toContain('Spotify Free');
    expect(text).toContain('Premium');
    await expectNoSeriousAxeViolations(lena, 'the player of a free-tier fan');
    await screenshotBoth(lena, 'free-tier-label-stream');

    // The server knows what this fan hears: the dashboard counts them on the label stream.
    const latest = () => dash.events.filter((e): e is PartyStatsEvent => e.type === 'party_stats').at(-1);
    await waitFor(() => latest()?.sources.label_stream === 1, 'the dashboard to count one fan on the label stream');
    expect(latest()!.sources.preview).toBe(0);
    dash.close();
  });

  it('with the fallback off, an Apple Music fan without a subscription hears 30 s previews, told why', async () => {
    const current = (await (await fetch(`${server.partyUrl}/api/parties/demo`)).json()) as { frontend: Record<string, unknown> };
    expect((await cms('PUT', '/api/parties/demo', { frontend: { ...current.frontend, labelStreamFallback: false } })).ok).toBe(true);
    const apple = await newPage(390, 844);
    await joinAs(apple, 'Apple Music', 'Allow as Lena (no subscription)', 'lena-apple');
    await waitFor(() => audioPlays(apple), 'the preview to play for the fan without a subscription', 40_000);
    const notice = apple.getByTestId('source-notice');
    expect(await notice.getAttribute('data-source')).toBe('preview');
    expect(await notice.getAttribute('data-reason')).toBe('no_subscription');
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('30-Sekunden-Vorschauen');
    expect(text).toContain('Apple-Music-Abo');
    // On a phone the why is one tap away, so the chat stays in view.
    const why = apple.getByText('Dein Apple-Music-Konto hat kein aktives Abo.');
    expect(await why.isVisible()).toBe(false);
    await apple.getByText('Warum?').click();
    expect(await why.isVisible()).toBe(true);
    await expectNoSeriousAxeViolations(apple, 'the player of a fan on previews');
    await screenshotBoth(apple, 'no-subscription-previews');
  });
});
