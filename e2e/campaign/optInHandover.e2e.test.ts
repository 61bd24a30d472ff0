/**
 * The campaign page after the visit, in Debian's Chromium against the real server: a double
 * opt-in that an e-mail scanner's GET cannot confirm, and the handover from the in-app browsers
 * of Instagram, Facebook, TikTok, Snapchat and X to the system browser.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CampaignPageInput, NewsletterEntry } from '@fanfare/protocol';
import { IN_APP_USER_AGENTS } from '../../apps/campaign-web/src/rules/inAppUserAgents.fixture.ts';
import { readOutbox } from '../../apps/server/src/platform/mail.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildCampaignWeb, launchChromium, screenshotBoth, seriousViolations, waitFor } from './browser.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-0123' };

let server: TestServer;
let browser: Browser;
let adminToken: string;
let appId: string;
const TRACK_IDS: string[] = [];

async function api<T = unknown>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.cmsUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text) as T };
}

const newsletters: NewsletterEntry[] = [
  {
    id: 'label-news',
    enabled: true,
    signup_mode: 'optional',
    locales: { de: { addressbook_id: 'ab-de-77', form_id: 'form-de-88', consent_text: 'Ja, ich möchte Label-News.' }, en: { addressbook_id: 'ab-en-77', form_id: 'form-en-88', consent_text: 'Yes, I want label news.' } },
  },
];

async function createCampaign(slug: string): Promise<{ id: string; url: string }> {
  const page: CampaignPageInput = {
    modules: [
      { type: 'hero', id: 'hero', title: { de: 'Gezeitenlichter', en: 'Tidal Lights' } },
      { type: 'player', id: 'player', spotify_track_ids: TRACK_IDS },
      { type: 'newsletter', id: 'newsletter' },
    ],
  };
  const r = await api<{ id: string; url: string }>('POST', '/api/campaigns', { app_id: appId, name: `E2E ${slug}`, slug, enabled_services: ['spotify', 'apple'], newsletters, data: { page } });
  if (r.status !== 201) throw new Error(`create campaign ${slug}: ${r.status} ${JSON.stringify(r.body)}`);
  const published = await api('POST', `/api/campaigns/${r.body.id}/publish`, {});
  if (published.status !== 200) throw new Error(`publish ${slug}: ${published.status}`);
  return r.body;
}

async function expectAccessible(p: Page, what: string): Promise<void> {
  const violations = await seriousViolations(p);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

describe('campaign page: scanner-proof opt-in and in-app browser handover in Chromium', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    await buildCampaignWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LABEL_NAME: 'Harbour Records' } });
    const login = await fetch(`${server.cmsUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    appId = (await api<{ id: string }>('POST', '/api/apps', { name: 'e2e-optin', title: 'E2E opt-in' })).body.id;
    const album = await api<{ tracks: { items: { id: string }[] } }>('GET', '/api/spotify/albums/6iz0r2rAVeYBGcpxZOyXHX');
    TRACK_IDS.push(...album.body.tracks.items.map((t) => t.id));
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("scanner-proof double opt-in: the link's GET (no script, like a scanner) changes nothing; the page's POST confirms", async () => {
    const c = await createCampaign('scanner');
    const fan = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    const scanner = await browser.newContext({ javaScriptEnabled: false, userAgent: 'Mozilla/5.0 (compatible; SafeLinks-Scanner/1.0)' });
    try {
      const p = await fan.newPage();
      await p.goto(c.url);
      await p.getByLabel('E-Mail-Adresse').fill('scanned@example.com');
      await p.getByLabel('Ja, ich möchte Label-News.').check();
      await p.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await p.getByTestId('newsletter-sent').waitFor();
      const mail = await waitFor(async () => (await readOutbox(path.join(server.dataDir, 'outbox'))).find((m) => m.to === 'scanned@example.com'), 'the confirmation mail');
      // Multipart, in German, from the label.
      expect(mail.from).toContain('Harbour Records');
      expect(mail.html).toContain('Anmeldung bestätigen');
      const link = /(https?:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;

      const db = server.server.ctx.db;
      const state = async () => (await db.selectFrom('cms_newsletter_subscribers').select('state').where('email', '=', 'scanned@example.com').executeTakeFirstOrThrow()).state;
      // The scanner: a browser without script opens the link, and a plain GET follows it.
      const sp = await scanner.newPage();
      const res = await sp.goto(link);
      expect(res!.status()).toBe(200);
      await sp.getByRole('button', { name: 'Anmeldung bestätigen' }).waitFor();
      expect((await fetch(link)).status).toBe(200);
      expect(await state()).toBe('pending');

      // The fan: the same page, one click.
      await p.goto(link);
      await screenshotBoth(p, 'confirm-page');
      await expectAccessible(p, 'confirmation page');
      await p.getByRole('button', { name: 'Anmeldung bestätigen' }).click();
      await p.waitForURL(/newsletter_state=success/);
      // The banner reads what it needs; the e-mail tool's ids never reach the address.
      expect(p.url()).not.toMatch(/address_book_id|form_id|ab-de-77|form-de-88/);
      await p.getByTestId('newsletter-banner').waitFor();
      expect(await state()).toBe('confirmed');
    } finally {
      await scanner.close();
      await fan.close();
    }
  });

  const cases = [
    ['Instagram', 'instagramIos', 'ios'],
    ['Facebook', 'facebookAndroid', 'android'],
    ['TikTok', 'tiktokAndroid', 'android'],
    ['Snapchat', 'snapchatIos', 'ios'],
    ['X', 'xAndroid', 'android'],
  ] as const;

  for (const [app, key, os] of cases) {
    it(`in-app browser of ${app} (${os}): the login offers the system browser instead of a provider redirect`, async () => {
      const c = await createCampaign(`inapp-${key.toLowerCase()}`);
      const ctx = await browser.newContext({ userAgent: IN_APP_USER_AGENTS[key], viewport: { width: 390, height: 844 }, locale: 'de-DE', isMobile: true, hasTouch: true });
      try {
        const p = await ctx.newPage();
        await p.goto(c.url);
        await p.getByRole('button', { name: 'Mit Spotify anmelden' }).click();
        const dialog = p.getByRole('dialog', { name: 'Im Browser öffnen' });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(`im Browser von ${app}`);
        const linkValue = await waitFor(async () => {
          const v = await p.getByTestId('handover-link').inputValue().catch(() => '');
          return v.includes('handover=') ? v : null;
        }, 'the handover link');
        expect(new URL(linkValue).pathname).toBe(new URL(c.url).pathname);
        if (os === 'android') {
          const href = await p.getByTestId('handover-intent').getAttribute('href');
          expect(href).toMatch(/^intent:\/\/127\.0\.0\.1:\d+\/c\/e2e-optin\/[\w-]+\?handover=[\w-]+#Intent;scheme=http;S\.browser_fallback_url=/);
        } else {
          expect(await dialog.textContent()).toContain('„In Safari öffnen“');
          expect(await p.getByTestId('handover-intent').count()).toBe(0);
        }
        // No provider redirect happened: still on the campaign page.
        expect(new URL(p.url()).pathname).toBe(new URL(c.url).pathname);
        if (key === 'instagramIos' || key === 'facebookAndroid') {
          await screenshotBoth(p, `handover-${os}`);
          await expectAccessible(p, `handover dialog (${os})`);
        }
        await p.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
      } finally {
        await ctx.close();
      }
    });
  }

  it('the handover carries locale, UTM parameters and unsent consents to the system browser, once, and continues the login', async () => {
    const c = await createCampaign('handover-flow');
    const insta = await browser.newContext({ userAgent: IN_APP_USER_AGENTS.instagramIos, viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    const system = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    try {
      const p = await insta.newPage();
      await p.goto(`${c.url}?utm_source=instagram&utm_medium=story&utm_campaign=tidal`);
      await p.getByRole('button', { name: 'English' }).click();
      await p.getByLabel('Yes, I want label news.').check();
      await p.getByRole('button', { name: 'Log in with Spotify' }).click();
      const link = await waitFor(async () => {
        const v = await p.getByTestId('handover-link').inputValue().catch(() => '');
        return v.includes('handover=') ? v : null;
      }, 'the handover link');
      // Only the token travels in the URL.
      expect([...new URL(link).searchParams.keys()]).toEqual(['handover']);

      // The system browser (an ordinary user agent, no shared storage) opens the link.
      const s = await system.newPage();
      await s.goto(link);
      // The login asked for in the app continues: the emulator's consent page stands in for Spotify's.
      await s.getByRole('link', { name: 'Continue as Demo Fan' }).click();
      await s.waitForURL((u) => u.pathname === new URL(c.url).pathname);
      await s.getByRole('button', { name: 'Log out' }).waitFor();
      expect(await s.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(await s.getByLabel('Yes, I want label news.').isChecked()).toBe(true);
      // The newsletter form with its restored consent, at phone and desktop width.
      await s.getByLabel('Yes, I want label news.').scrollIntoViewIfNeeded();
      await expectAccessible(s, 'the system browser after the handover');
      await screenshotBoth(s, 'handover-restored-consents');
      const utm = await s.evaluate(() => Object.entries(localStorage).find(([k]) => k.endsWith(':tracking-params'))?.[1] ?? null);
      expect(JSON.parse(utm!)).toMatchObject({ utm_source: 'instagram', utm_medium: 'story', utm_campaign: 'tidal' });
      expect(s.url()).not.toContain('handover=');

      // Single use: the same link in another browser is an ordinary visit.
      const fresh = await browser.newContext({ locale: 'de-DE' });
      try {
        const f = await fresh.newPage();
        await f.goto(link);
        await f.getByRole('button', { name: 'Mit Spotify anmelden' }).waitFor();
        expect(await f.evaluate(() => document.documentElement.lang)).toBe('de');
        expect(await f.getByLabel('Ja, ich möchte Label-News.').isChecked()).toBe(false);
      } finally {
        await fresh.close();
      }
    } finally {
      await insta.close();
      await system.close();
    }
  });
});
