/**
 * The back office's Funnel tab against a known script, in Debian's Chromium against the real
 * server: visitors from two channels (utm_source instagram and tiktok) in two territories (DE and
 * GB, set by the geo header a CDN would send) open the campaign page, some log in with Spotify,
 * sign up for the newsletter and confirm; every figure of the tab must equal what the script did,
 * per channel, per territory and per A/B variant, at desktop and phone width, axe-clean.
 *
 * A visit is a page load: the return from the provider's login and from the confirmation page are
 * loads of the campaign page too, and count as visits of the same channel and territory.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CampaignPageInput, FunnelCounts, FunnelReport, NewsletterEntry } from '@fanfare/protocol';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { readOutbox } from '../../apps/server/src/platform/mail.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, buildCampaignWebForPreview, callCms, expectAccessibleAtBothWidths, launchChromium, screenshotChecked, signInToBackOffice, waitFor } from './browser.ts';

let server: TestServer;
let browser: Browser;
let adminToken: string;

const api = <T = unknown>(method: string, p: string, body?: unknown) => callCms<T>(server.cmsUrl, adminToken, method, p, body);

const newsletters: NewsletterEntry[] = [
  {
    id: 'label-news',
    enabled: true,
    signup_mode: 'optional',
    locales: { de: { addressbook_id: 'ab-de-1', form_id: 'form-de-1', consent_text: 'Ja, ich möchte Label-News.' }, en: { addressbook_id: 'ab-en-1', form_id: 'form-en-1', consent_text: 'Yes, I want label news.' } },
  },
];
const TITLE_A = 'Gezeitenlichter';
const TITLE_B = 'Jetzt: Gezeitenlichter';

type Step = 'visit' | 'login' | 'signup' | 'confirmed';
type Tally = Record<Step, number>;
const zero = (): Tally => ({ visit: 0, login: 0, signup: 0, confirmed: 0 });

/** One visitor of the script: a browser of their own, a channel, a territory and what they do. */
interface Visitor {
  source: 'instagram' | 'tiktok';
  country: 'DE' | 'GB';
  does: ('login' | 'signup' | 'confirm')[];
}
const SCRIPT: Visitor[] = [
  { source: 'instagram', country: 'DE', does: [] },
  { source: 'instagram', country: 'DE', does: ['login'] },
  { source: 'tiktok', country: 'DE', does: ['signup', 'confirm'] },
  { source: 'tiktok', country: 'GB', does: [] },
  { source: 'instagram', country: 'GB', does: ['signup'] },
  { source: 'tiktok', country: 'GB', does: ['login'] },
  { source: 'tiktok', country: 'DE', does: [] },
];

/**
 * Waits until the page has sent a funnel batch carrying `kind` (and the server answered it); the
 * variant its visit carries (what the server counts), if the batch has a visit.
 */
async function sentFunnelEvent(page: Page, kind: 'visit' | 'login'): Promise<'a' | 'b' | null> {
  const r = await page.waitForResponse((r) => r.url().endsWith('/funnel/events') && r.request().method() === 'POST' && (r.request().postData() ?? '').includes(`"kind":"${kind}"`), { timeout: 20_000 });
  const visit = /"kind":"visit"[^}]*"variant":"(a|b)"/.exec(r.request().postData() ?? '');
  return (visit?.[1] as 'a' | 'b' | undefined) ?? null;
}

describe('the Funnel tab counts a scripted mix of visits, logins, signups and confirmations per channel and territory', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    await Promise.all([buildAdminWeb(), buildCampaignWebForPreview()]);
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const login = await fetch(`${server.cmsUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('script: 7 visitors, 2 channels, 2 territories, 2 logins, 2 signups, 1 confirmation; every figure matches', async () => {
    const app = await api<{ id: string }>('POST', '/api/apps', { name: 'e2e-funnel', title: 'E2E funnel' });
    const catalog = server.server.ctx.catalog;
    const page: CampaignPageInput = {
      modules: [
        { type: 'hero', id: 'hero', title: { de: TITLE_A, en: 'Tidal Lights' } },
        { type: 'player', id: 'player', spotify_track_ids: catalog.albumTracks(catalog.albums[0]!).map((t) => t.spotify_id) },
        { type: 'newsletter', id: 'newsletter' },
      ],
    };
    const created = await api<{ id: string; url: string }>('POST', '/api/campaigns', {
      app_id: app.body.id,
      name: 'E2E funnel',
      slug: 'funnel',
      enabled_services: ['spotify'],
      newsletters,
      data: { page, ab_test: { enabled: true, variant_b: [{ module_id: 'hero', title: { de: TITLE_B, en: 'Now: Tidal Lights' } }] } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await api('POST', `/api/campaigns/${created.body.id}/publish`, {})).status).toBe(200);

    // What the script did, tallied as it goes: per channel, per territory and per variant (read
    // from the headline each visitor was shown).
    const byChannel: Record<string, Tally> = { instagram: zero(), tiktok: zero() };
    const byTerritory: Record<string, Tally> = { DE: zero(), GB: zero() };
    const byVariant: Record<string, Tally> = { a: zero(), b: zero() };
    const totals = zero();

    for (const [i, v] of SCRIPT.entries()) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE', extraHTTPHeaders: { 'cf-ipcountry': v.country } });
      context.setDefaultTimeout(15_000);
      try {
        const p = await context.newPage();
        let variant = 'a';
        const count = (step: Step) => {
          for (const t of [byChannel[v.source]!, byTerritory[v.country]!, byVariant[variant]!, totals]) t[step]++;
        };
        /**
         * A load of the campaign page: counted under the variant its visit event carried, and the
         * visitor is shown that variant's headline (read once the page has rendered it).
         */
        const loaded = async (sent: Promise<'a' | 'b' | null>) => {
          variant = (await sent) ?? variant;
          await expect
            .poll(async () => (await p.getByRole('heading', { level: 1 }).textContent())?.trim(), { timeout: 5_000 })
            .toBe(variant === 'b' ? TITLE_B : TITLE_A);
          count('visit');
        };
        let sent = sentFunnelEvent(p, 'visit');
        await p.goto(`${created.body.url}?utm_source=${v.source}&utm_medium=social`);
        await loaded(sent);
        const firstVariant = variant;
        const keepsVariant = () => expect(variant, `visitor ${i} keeps their variant`).toBe(firstVariant);

        if (v.does.includes('login')) {
          sent = sentFunnelEvent(p, 'login');
          await p.getByRole('button', { name: 'Mit Spotify anmelden' }).click();
          await p.getByRole('link', { name: /^Continue as / }).first().click();
          await p.waitForURL((u) => u.pathname === new URL(created.body.url).pathname);
          await loaded(sent);
          keepsVariant();
          count('login');
        }
        if (v.does.includes('signup')) {
          const email = `fan-${i}@example.com`;
          await p.getByLabel('E-Mail-Adresse').fill(email);
          await p.getByLabel('Ja, ich möchte Label-News.').check();
          await p.getByRole('button', { name: 'Anmelden', exact: true }).click();
          await p.getByTestId('newsletter-sent').waitFor();
          count('signup');
          if (v.does.includes('confirm')) {
            const mail = await waitFor(async () => (await readOutbox(path.join(server.dataDir, 'outbox'))).find((m) => m.to === email), 'the confirmation mail');
            const link = /(https?:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)![1]!;
            await p.goto(link);
            sent = sentFunnelEvent(p, 'visit');
            await p.getByRole('button', { name: 'Anmeldung bestätigen' }).click();
            await p.waitForURL(/newsletter_state=success/);
            await loaded(sent);
            keepsVariant();
            count('confirmed');
          }
        }
      } finally {
        await context.close();
      }
    }
    expect(totals).toEqual({ visit: 10, login: 2, signup: 2, confirmed: 1 });

    // The report reconciles with the script (server-side events are in before their calls answer).
    const pick = (c: FunnelCounts): Tally => ({ visit: c.visit, login: c.login, signup: c.signup, confirmed: c.confirmed });
    const report = await waitFor(async () => {
      const r = await api<FunnelReport>('GET', `/api/campaigns/${created.body.id}/funnel`);
      return JSON.stringify(pick(r.body.totals)) === JSON.stringify(totals) ? r.body : null;
    }, 'the funnel totals of the script', 20_000).catch(async () => (await api<FunnelReport>('GET', `/api/campaigns/${created.body.id}/funnel`)).body);
    expect(pick(report.totals)).toEqual(totals);

    // The back office shows the same figures.
    const admin = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    admin.setDefaultTimeout(15_000);
    try {
      const page = await admin.newPage();
      page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
      await signInToBackOffice(page, server.cmsUrl);
      await page.goto(`${server.cmsUrl}/admin/#/campaigns/${created.body.id}`);
      await page.getByRole('tab', { name: 'Funnel' }).click();
      await page.getByTestId('funnel-panel').waitFor();

      const cell = async (table: string, row: string, step: Step) => {
        const cells = page.getByTestId(table).locator(`tr[data-row="${row}"] td[data-step="${step}"]`);
        // A channel may be split by referrer host (the login provider's return): its rows add up.
        const values = await cells.allTextContents();
        expect(values.length, `${table} row ${row}`).toBeGreaterThan(0);
        return values.reduce((s, t) => s + Number(t.trim()), 0);
      };
      const readTable = async (table: string, rows: Record<string, string>) => {
        const out: Record<string, Tally> = {};
        for (const [key, label] of Object.entries(rows)) {
          out[key] = zero();
          for (const step of ['visit', 'login', 'signup', 'confirmed'] as const) out[key][step] = await cell(table, label, step);
        }
        return out;
      };
      const steps = zero();
      for (const step of ['visit', 'login', 'signup', 'confirmed'] as const) steps[step] = Number((await page.getByTestId(`step-${step}`).textContent())?.trim());
      expect(steps).toEqual(totals);
      expect(await readTable('funnel-channels', { instagram: 'instagram / social', tiktok: 'tiktok / social' })).toEqual(byChannel);
      expect(await readTable('funnel-territories', { DE: 'DE', GB: 'GB' })).toEqual(byTerritory);
      expect(await page.getByTestId('funnel-channels').locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
      expect(await page.getByTestId('funnel-territories').locator('tbody tr').count()).toBe(2);
      // Both variants as the visitors saw them.
      const variants = await page.getByTestId('funnel-variants').textContent();
      expect(variants).toContain(`Variant A: ${byVariant.a!.visit} visits · Variant B: ${byVariant.b!.visit} visits`);
      expect(variants).toContain('A/B test running');

      await screenshotChecked(page, 'funnel-script');
      await expectAccessibleAtBothWidths(page, 'the Funnel tab');
    } finally {
      await admin.close();
    }
  });
});
