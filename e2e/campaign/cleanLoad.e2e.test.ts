/**
 * The demo pages as a visitor meets them, in Debian's Chromium against the real server: the
 * campaign page and the party page (also for a fan logged in but not signed up yet) load with a
 * clean console (no failed request, no error); the campaign page's dark theme passes axe with the
 * newsletter's e-mail field filled in, and its preview player shows the clip's own length.
 * No fixed waits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, createApp, createCampaign, login } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { formatClock } from '../../apps/campaign-web/src/rules/format.ts';
import { DEMO_AB_TEST, DEMO_RELEASE_SLUG } from '../../apps/server/src/cms/demoCampaign.ts';
import { funnelVisitorKey } from '../../packages/campaign-sdk/src/funnel.ts';
import { funnelVariantOf } from '@fanfare/protocol';
import { buildCampaignWeb, launchChromium, seriousViolations, waitFor } from './browser.ts';
import { buildPartyWeb } from '../party/browser.ts';

let server: TestServer;
let browser: Browser;
/** A running campaign in the demo's dark look, with the demo album's player and a newsletter. */
let pageUrl: string;

/** Opens `url` in a fresh visitor context, collecting console errors and failed requests from the start. */
async function visit(url: string, width = 1280, storage: Record<string, string> = {}): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB' });
  // What the visitor's browser already holds (a visitor id pins the A/B variant).
  await context.addInitScript((entries) => {
    for (const [k, v] of Object.entries(entries)) if (localStorage.getItem(k) === null) localStorage.setItem(k, v);
  }, storage);
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()} (${m.location().url})`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

describe('the demo pages load clean', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildCampaignWeb();
    await buildPartyWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const token = await login(server, ADMIN.email, ADMIN.password);
    const appId = await createApp(server, token, 'clean-load');
    const album = (await (await fetch(`${server.cmsUrl}/api/spotify/albums/6iz0r2rAVeYBGcpxZOyXHX`)).json()) as { tracks: { items: { id: string }[] } };
    const data = {
      page: {
        look: { font: 'rubik', primary_color: '#ff5a36', background_color: '#14142b' },
        modules: [
          { type: 'hero', id: 'hero', title: { de: 'Gezeitenlichter', en: 'Tidal Lights' } },
          { type: 'player', id: 'player', spotify_track_ids: album.tracks.items.map((t) => t.id) },
          { type: 'newsletter', id: 'newsletter' },
        ],
      },
    };
    const newsletters = [{ id: 'news', enabled: true, signup_mode: 'optional', locales: { en: { addressbook_id: '1', form_id: '2', consent_text: 'Yes, send me news.' } } }];
    pageUrl = (await createCampaign(server, token, { app_id: appId, name: 'Clean load', slug: 'clean-load', newsletters, data } as Parameters<typeof createCampaign>[2])).url;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the demo campaign page (before its start) loads with no console error and no failed request, in both variants of its A/B test', async () => {
    const { id } = await server.server.ctx.db.selectFrom('cms_campaigns').select('id').where('slug', '=', DEMO_RELEASE_SLUG).executeTakeFirstOrThrow();
    for (const variant of ['a', 'b'] as const) {
      // A visitor id of that variant, as the page would have stored it on an earlier visit.
      let n = 0;
      while (funnelVariantOf(id, `pinned${n}`, true) !== variant) n++;
      const v = await visit(`${server.cmsUrl}/c/fanfare-demo/${DEMO_RELEASE_SLUG}`, 1280, { [funnelVisitorKey(id)]: `pinned${n}:${Date.now()}` });
      try {
        await v.page.locator('.countdown, [data-player-kind]').first().waitFor();
        const subtitle = DEMO_AB_TEST.variant_b[0]!.subtitle!.en!;
        await v.page.getByText(subtitle).waitFor({ state: variant === 'b' ? 'visible' : 'detached' });
        await v.page.waitForLoadState('networkidle');
        expect(v.problems, `variant ${variant}`).toEqual([]);
      } finally {
        await v.close();
      }
    }
  });

  it('a running campaign page loads with no console error and no failed request, at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const v = await visit(pageUrl, width);
      try {
        // Loaded: the SDK has answered (translations known) and the player shows its tracks.
        await v.page.locator('[data-player-kind="preview"]').waitFor();
        await v.page.locator('.tracklist__button').first().waitFor();
        await v.page.waitForLoadState('networkidle');
        expect(v.problems, `at ${width} px`).toEqual([]);
      } finally {
        await v.close();
      }
    }
  });

  it('the e-mail field of the newsletter reads clearly on the dark theme (axe, with an address typed)', async () => {
    const v = await visit(pageUrl);
    try {
      const email = v.page.locator('input[type="email"]').first();
      await email.fill('fan@example.com');
      const look = await email.evaluate((el) => ({ page: getComputedStyle(document.body).backgroundColor, field: getComputedStyle(el).backgroundColor }));
      // The demo page is dark; the check is about a field on it.
      expect(look.page).not.toBe('rgb(255, 255, 255)');
      const violations = await seriousViolations(v.page);
      expect(violations).toEqual([]);
    } finally {
      await v.close();
    }
  });

  it('campaign spec §4 preview player: a 30 s preview shows its own length, not the full track\'s', async () => {
    const v = await visit(pageUrl, 390);
    try {
      await v.page.locator('[data-player-kind="preview"]').waitFor();
      const listed = (await v.page.locator('.tracklist__duration').first().textContent())?.trim();
      await v.page.locator('.tracklist__button').first().click();
      const seconds = await waitFor(async () => {
        const d = await v.page.getByTestId('preview-audio').evaluate((a: HTMLAudioElement) => a.duration);
        return Number.isFinite(d) && d > 0 ? d : undefined;
      }, 'the preview stream to know its length');
      const clip = formatClock(Math.round(seconds * 1000));
      await waitFor(async () => ((await v.page.locator('.progress__time').last().textContent())?.trim() === clip ? true : undefined), `the player to show ${clip}`);
      // The demo's first track is longer than its preview: the list still tells the full length.
      expect(clip).not.toBe(listed);
    } finally {
      await v.close();
    }
  });

  it('the party page loads with no console error and no failed request for a visitor', async () => {
    const v = await visit(`${server.partyUrl}/`);
    try {
      await v.page.getByRole('heading').first().waitFor();
      await v.page.waitForLoadState('networkidle');
      expect(v.problems).toEqual([]);
    } finally {
      await v.close();
    }
  });

  it('the party page of a fan logged in but not signed up yet loads with no 403 and no console error, also after a reload', async () => {
    const v = await visit(`${server.partyUrl}/`);
    try {
      await v.page.getByRole('link', { name: 'Join now' }).click();
      await v.page.getByRole('button', { name: 'Continue with Spotify' }).click();
      await v.page.getByRole('link', { name: 'Continue as Lena' }).click();
      await v.page.waitForURL(/#\/register/);
      await v.page.getByLabel('Chat name').waitFor();
      await v.page.waitForLoadState('networkidle');
      await v.page.reload();
      await v.page.getByLabel('Chat name').waitFor();
      await v.page.waitForLoadState('networkidle');
      expect(v.problems).toEqual([]);
    } finally {
      await v.close();
    }
  });
});
