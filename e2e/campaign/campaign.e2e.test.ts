/**
 * The campaign page end to end, in Debian's Chromium against the real server: newsletter double
 * opt-in through the outbox, token gate, de/en with plural forms, the countdown crossing
 * `starts_at` without a reload, an audible preview, accessibility and the first-chunk budget.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PAGE_MODULE_TYPES, type CampaignPageInput, type NewsletterEntry } from '@fanfare/protocol';
import { readOutbox } from '../../apps/server/src/platform/mail.ts';
import { signPayload } from '../../apps/server/src/platform/tokens.ts';
import { EMULATOR_SIGNING_KEY } from '../../apps/server/src/providers/emulators/demoFans.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildCampaignWeb, initialJsGzipBytes, launchChromium, screenshotBoth, seriousViolations, waitFor } from './browser.ts';

const ADMIN = { email: 'admin@example.com', password: 'admin-password-0123' };
/** The first chunk a phone loads stays under 90 KB gzipped. */
const INITIAL_JS_BUDGET_BYTES = 90 * 1024;
const APP = 'e2e-pages';
const CATALOG_TRACK_IDS: string[] = [];

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminToken: string;
let appId: string;

async function api<T = unknown>(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.cmsUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text) as T };
}

async function createCampaign(slug: string, fields: Record<string, unknown>, page: CampaignPageInput): Promise<{ id: string; url: string }> {
  const r = await api<{ id: string; url: string }>('POST', '/api/campaigns', { app_id: appId, name: `E2E ${slug}`, slug, enabled_services: ['spotify', 'apple'], ...fields, data: { page } });
  if (r.status !== 201) throw new Error(`create campaign ${slug}: ${r.status} ${JSON.stringify(r.body)}`);
  // A new campaign is a draft: publish it so visitors see its page.
  const published = await api<{ id: string; url: string }>('POST', `/api/campaigns/${r.body.id}/publish`, {});
  if (published.status !== 200) throw new Error(`publish campaign ${slug}: ${published.status} ${JSON.stringify(published.body)}`);
  return r.body;
}

const newsletters: NewsletterEntry[] = [
  {
    id: 'label-news',
    enabled: true,
    signup_mode: 'optional',
    locales: { de: { addressbook_id: '11', form_id: '21', consent_text: 'Ja, ich möchte Label-News.' }, en: { addressbook_id: '12', form_id: '22', consent_text: 'Yes, I want label news.' } },
  },
  {
    id: 'artist-updates',
    enabled: true,
    signup_mode: 'required',
    locales: { de: { addressbook_id: '31', form_id: '41', consent_text: 'Ich stimme den Artist-Updates zu.' }, en: { addressbook_id: '32', form_id: '42', consent_text: 'I agree to the artist updates.' } },
  },
];

function fullPage(): CampaignPageInput {
  return {
    look: { font: 'rubik', primary_color: '#ff5a36', background_color: '#14142b' },
    modules: [
      { type: 'hero', id: 'hero', title: { de: 'Gezeitenlichter', en: 'Tidal Lights' }, subtitle: { de: 'Das neue Album', en: 'The new album' }, cover_image: `${server.partyUrl}/media/catalog/covers/tidal-lights.png` },
      { type: 'countdown', id: 'countdown' },
      { type: 'player', id: 'player', spotify_track_ids: CATALOG_TRACK_IDS },
      { type: 'newsletter', id: 'newsletter' },
      { type: 'card', id: 'card', title: { de: 'Karte', en: 'Card' }, text: { de: 'Text', en: 'Text' }, button_label: { de: 'Los', en: 'Go' }, url: 'https://example.com/' },
      { type: 'text', id: 'text', title: { de: 'Über', en: 'About' }, body: { de: 'Absatz eins.\n\nAbsatz zwei.', en: 'Paragraph one.\n\nParagraph two.' } },
      { type: 'links', id: 'links', ticket_url: 'https://tickets.example.com/', socials: [{ network: 'instagram', url: 'https://instagram.com/x' }] },
    ],
    legal: { imprint_url: 'https://example.com/imprint', privacy_url: 'https://example.com/privacy' },
  };
}

async function expectAccessible(p: Page, what: string): Promise<void> {
  const violations = await seriousViolations(p);
  expect(violations, `${what}: ${JSON.stringify(violations)}`).toEqual([]);
}

describe('campaign page in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildCampaignWeb();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    const login = await fetch(`${server.cmsUrl}/api/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    adminToken = ((await login.json()) as { access_token: string }).access_token;
    appId = (await api<{ id: string }>('POST', '/api/apps', { name: APP, title: 'E2E pages' })).body.id;
    const album = await api<{ tracks: { items: { id: string }[] } }>('GET', '/api/spotify/albums/6iz0r2rAVeYBGcpxZOyXHX');
    CATALOG_TRACK_IDS.push(...album.body.tracks.items.map((t) => t.id));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it(`size budget: the initial JS of the built page is under ${INITIAL_JS_BUDGET_BYTES / 1024} KB gzipped`, () => {
    const { files, bytes } = initialJsGzipBytes();
    expect(files.length).toBeGreaterThan(0);
    // hls.js and the SDK's validators are never in the first chunk.
    expect(files.some((f) => /hls/i.test(f))).toBe(false);
    expect(bytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
  });

  it('campaign spec §2/§5 newsletter double opt-in: required consent enforced, mail from the outbox, banner once per session', async () => {
    const c = await createCampaign('newsletter', { newsletters }, fullPage());
    await page.goto(c.url);
    await page.getByLabel('E-Mail-Adresse').fill('fan@example.com');
    await page.getByLabel('Ja, ich möchte Label-News.').check();
    await screenshotBoth(page, 'newsletter-form');
    await expectAccessible(page, 'newsletter form');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Um mitzumachen, setze bitte das Häkchen für den Newsletter.');
    await page.getByLabel(/Ich stimme den Artist-Updates zu\./).check();
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.getByTestId('newsletter-sent').waitFor();
    await screenshotBoth(page, 'newsletter-sent');

    const mail = await waitFor(async () => (await readOutbox(path.join(server.dataDir, 'outbox'))).find((m) => m.to === 'fan@example.com'), 'the confirmation mail');
    const link = /(https?:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    // The link opens a page that confirms only with its button's POST (scanner-proof).
    await page.goto(link!);
    await page.getByRole('button', { name: 'Anmeldung bestätigen' }).click();
    await page.waitForURL(/newsletter_state=success/);
    const banner = page.getByTestId('newsletter-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Deine Newsletter-Anmeldung war erfolgreich.');
    await screenshotBoth(page, 'newsletter-banner');
    await expectAccessible(page, 'banner');
    await page.getByRole('button', { name: 'Hinweis schließen' }).click();
    // React removes the banner on its next render, not within the click.
    await banner.waitFor({ state: 'detached' });
    expect(await banner.count()).toBe(0);
    // Spec 2: once per browser session, even with the same address.
    await page.reload();
    await page.getByRole('heading', { name: 'Gezeitenlichter' }).waitFor();
    await page.waitForFunction(() => document.querySelector('[data-player-kind]') !== null || document.readyState === 'complete');
    expect(await page.getByTestId('newsletter-banner').count()).toBe(0);
  });

  it('campaign spec §9 locales de/en: the switch changes every text, plural forms follow the count, the choice is kept', async () => {
    // 1 day, 2 hours and a bit: "1 Tag" (one) and "2 Stunden" (other).
    const startsAt = new Date(Date.now() + 26 * 3600_000 + 30 * 60_000).toISOString();
    const c = await createCampaign('locales', { starts_at: startsAt, newsletters }, fullPage());
    await page.goto(c.url);
    const days = page.locator('[data-part="days"]');
    const hours = page.locator('[data-part="hours"]');
    await page.getByRole('heading', { name: 'Los geht’s in' }).waitFor();
    expect(await days.innerText()).toMatch(/^1\s+Tag$/);
    expect(await hours.innerText()).toMatch(/^2\s+Stunden$/);
    await screenshotBoth(page, 'countdown-de');
    await expectAccessible(page, 'countdown');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Starting in' }).waitFor();
    expect(await days.innerText()).toMatch(/^1\s+day$/);
    expect(await hours.innerText()).toMatch(/^2\s+hours$/);
    expect(await page.getByRole('heading', { name: 'Tidal Lights' }).count()).toBe(1);
    expect(await page.getByLabel('I agree to the artist updates.', { exact: false }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    await screenshotBoth(page, 'countdown-en');
    await page.reload();
    await page.getByRole('heading', { name: 'Starting in' }).waitFor();
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { name: 'Los geht’s in' }).waitFor();
  });

  it('campaign spec §4 campaign timing: the countdown crosses starts_at and the page switches without a reload', async () => {
    const c = await createCampaign('countdown', { starts_at: new Date(Date.now() + 5000).toISOString() }, fullPage());
    await page.goto(c.url);
    await page.getByTestId('countdown').waitFor();
    expect(await page.getByRole('heading', { name: 'Jetzt reinhören' }).count()).toBe(0);
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await page.getByRole('heading', { name: 'Jetzt reinhören' }).waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('countdown').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    expect(await page.locator('[data-phase="running"]').count()).toBe(1);
  });

  it('campaign spec §4 ended state after ends_at', async () => {
    const c = await createCampaign('ended', { starts_at: new Date(Date.now() - 7200_000).toISOString(), ends_at: new Date(Date.now() - 3600_000).toISOString() }, fullPage());
    await page.goto(c.url);
    await page.getByTestId('campaign-ended').waitFor();
    expect(await page.getByRole('heading', { name: 'Jetzt reinhören' }).count()).toBe(0);
    await screenshotBoth(page, 'ended');
    await expectAccessible(page, 'ended');
  });

  it('every module of the page renders, in the campaign look, at 390 and 1280 px', async () => {
    const c = await createCampaign('modules', { newsletters }, fullPage());
    await page.goto(c.url);
    await page.getByRole('heading', { name: 'Jetzt reinhören' }).waitFor();
    await page.getByRole('button', { name: /^Abspielen: / }).first().waitFor();
    // Every module type but the countdown (which a running campaign no longer shows) and the
    // pre-save (shown only with a release, e2e/campaign/presave.e2e.test.ts) is on the page.
    for (const type of PAGE_MODULE_TYPES.filter((t) => t !== 'countdown' && t !== 'presave')) {
      const selector = { hero: '.hero', player: '.player', newsletter: '.newsletter', text: '.text', card: '.ffui-card', links: '.links' }[type]!;
      expect(await page.locator(selector).count(), type).toBe(1);
    }
    expect(await page.getByRole('link', { name: 'Impressum' }).getAttribute('href')).toBe('https://example.com/imprint');
    expect(await page.getByRole('link', { name: 'Datenschutz' }).getAttribute('href')).toBe('https://example.com/privacy');
    expect(await page.getByRole('link', { name: 'Instagram' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: /Tickets/ }).count()).toBe(1);
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.page')!).fontFamily)).toMatch(/^Rubik/);
    // Keyboard: Tab reaches the language switch first, then the form fields in order.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('lang'))).toBe('de');
    await screenshotBoth(page, 'running');
    await expectAccessible(page, 'running page');
  });

  it('campaign spec §4 token gate: a wrong code is refused, a right one redirects to the gated campaign, a reload keeps access', async () => {
    const product = 'e2e-vinyl';
    const codes = await api('POST', `/api/token_gate/products/${product}/codes?max_uses=5`, 'E2E-CODE-1\nE2E-CODE-2', { 'content-type': 'text/csv' });
    expect(codes.status).toBe(200);
    const gatedUrl = `${server.cmsUrl}/c/${APP}/vip`;
    const gateUrl = `${server.cmsUrl}/c/${APP}/gate`;
    await createCampaign('vip', { token_gate: { enabled: true, product_id: product }, token_gate_url: gateUrl }, {
      modules: [{ type: 'hero', id: 'hero', title: { de: 'VIP-Bereich', en: 'VIP area' } }],
    });
    await createCampaign('gate', { is_token_gate: true, token_gate: { enabled: true, product_id: product }, token_gated_campaign_url: gatedUrl }, {
      modules: [{ type: 'hero', id: 'hero', title: { de: 'Zugang', en: 'Access' } }],
    });
    const gated = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    const p = await gated.newPage();
    try {
      // Without a key the gated campaign sends the visitor to its gate.
      await p.goto(gatedUrl);
      await p.waitForURL(gateUrl);
      await p.getByLabel('Code', { exact: true }).fill('WRONG-CODE');
      await p.getByRole('button', { name: 'Freischalten' }).click();
      expect(await p.getByTestId('gate-message').textContent()).toBe('Dieser Code ist leider nicht gültig.');
      await screenshotBoth(p, 'gate-denied');
      await expectAccessible(p, 'gate');
      await p.getByLabel('Code', { exact: true }).fill(' e2e-code-1 ');
      await p.getByRole('button', { name: 'Freischalten' }).click();
      await p.waitForURL((u) => u.pathname === `/c/${APP}/vip`);
      await p.getByRole('heading', { name: 'VIP-Bereich' }).waitFor();
      // The key left the address once stored.
      await waitFor(() => !p.url().includes('token_gate_access_key'), 'the key to leave the address');
      await screenshotBoth(p, 'gate-granted');
      await p.reload();
      await p.getByRole('heading', { name: 'VIP-Bereich' }).waitFor();
      expect(new URL(p.url()).pathname).toBe(`/c/${APP}/vip`);
    } finally {
      await gated.close();
    }
  });

  it('campaign spec §7 editor messaging: inside the editor frame the page re-renders at once on campaignInfo:v2 and asks for media with openMediaLibrary:v2', async () => {
    const c = await createCampaign('editor', {}, { modules: [{ type: 'hero', id: 'hero', title: { de: 'Vorher', en: 'Before' } }] });
    const editor = await context.newPage();
    try {
      // The back office lives on the CMS origin: an allowed parent (spec 5).
      await editor.goto(`${server.cmsUrl}/c/${APP}/no-such-page`);
      await editor.evaluate((url) => {
        const w = window as unknown as { __frames: unknown[] };
        w.__frames = [];
        window.addEventListener('message', (e) => w.__frames.push(e.data));
        document.body.innerHTML = `<iframe title="preview" src="${url}" style="width:390px;height:800px"></iframe>`;
      }, c.url);
      await waitFor(() => editor.evaluate(() => (window as unknown as { __frames: { type: string }[] }).__frames.some((f) => f.type === 'ready:v2')), 'ready:v2 from the page');
      const frame = editor.frameLocator('iframe');
      await frame.getByRole('heading', { name: 'Vorher' }).waitFor();

      const stored = (await api<Record<string, unknown> & { data: { page: { modules: { title: Record<string, string> }[] } } }>('GET', `/api/campaigns/${c.id}`)).body;
      stored.data.page.modules[0]!.title = { de: 'Nachher, noch nicht gespeichert', en: 'After' };
      await editor.evaluate((campaign) => {
        document.querySelector('iframe')!.contentWindow!.postMessage({ channel: 'fanfare-campaign', type: 'campaignInfo:v2', campaign }, location.origin);
      }, stored);
      await frame.getByRole('heading', { name: 'Nachher, noch nicht gespeichert' }).waitFor();

      await frame.getByRole('button', { name: 'Bild wählen' }).click();
      const ask = await waitFor(
        () => editor.evaluate(() => (window as unknown as { __frames: { type: string }[] }).__frames.find((f) => f.type === 'openMediaLibrary:v2') ?? null),
        'openMediaLibrary:v2 from the page',
      );
      expect(ask).toMatchObject({ channel: 'fanfare-campaign', fieldId: 'data.page.modules.0.cover_image', currentFileUrl: null, targetWidth: 640, targetHeight: 640 });
      expect(typeof (ask as { requestId?: unknown }).requestId).toBe('string');
      // The stored campaign is untouched: the edit lived only in the preview.
      expect((await api<{ data: { page: { modules: { title: Record<string, string> }[] } } }>('GET', `/api/campaigns/${c.id}`)).body.data.page.modules[0]!.title.de).toBe('Vorher');
    } finally {
      await editor.close();
    }
  });

  it('campaign spec §4 login: Spotify through the emulator, the token refreshed on load survives a reload, logout clears it', async () => {
    const c = await createCampaign('login', {}, fullPage());
    const fan = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    const p = await fan.newPage();
    const storedToken = () => p.evaluate(() => Object.entries(localStorage).find(([k]) => k.endsWith(':account-token'))?.[1] ?? null);
    try {
      await p.goto(c.url);
      await p.getByRole('button', { name: 'Mit Spotify anmelden' }).click();
      // The emulator's consent page stands in for Spotify's.
      await p.getByRole('link', { name: 'Continue as Demo Fan' }).click();
      await p.waitForURL((u) => u.pathname === new URL(c.url).pathname);
      await p.getByRole('button', { name: 'Abmelden' }).waitFor();
      // Spec 2: the callback parameters are taken and cleared from the address.
      await waitFor(() => !p.url().includes('access_token'), 'the callback parameters to be cleared');
      expect(new URL(p.url()).searchParams.get('state')).toBeNull();
      const first = JSON.parse((await storedToken())!) as { service: string; refresh_token: string };
      expect(first.service).toBe('spotify');
      await screenshotBoth(p, 'logged-in');
      await expectAccessible(p, 'logged in');

      // Spec 4: the token is refreshed on load (refresh tokens rotate), and the fan stays logged in.
      await p.reload();
      await p.getByRole('button', { name: 'Abmelden' }).waitFor();
      const second = await waitFor(async () => {
        const t = JSON.parse((await storedToken()) ?? 'null') as { refresh_token: string } | null;
        return t && t.refresh_token !== first.refresh_token ? t : null;
      }, 'the rotated refresh token');
      expect(second.refresh_token).not.toBe(first.refresh_token);

      // Spec 4: logout calls the server with the refresh token and clears the token.
      await p.getByRole('button', { name: 'Abmelden' }).click();
      await p.getByRole('button', { name: 'Mit Spotify anmelden' }).waitFor();
      expect(await storedToken()).toBeNull();
      const reuse = await fetch(`${server.cmsUrl}/api/accounts/session/refresh`, { method: 'POST', headers: { authorization: `Bearer ${second.refresh_token}` } });
      expect(reuse.status).toBe(401);
      await p.reload();
      await p.getByRole('button', { name: 'Mit Spotify anmelden' }).waitFor();
    } finally {
      await fan.close();
    }
  });
  it('campaign spec §4/§7 playback: logged in with Spotify (emulator), the campaign tracks play and progress, the device picker switches devices, a reload keeps the state', async () => {
    const c = await createCampaign('playback', {}, fullPage());
    const hint = 'campaign-e2e-player'; // a generated premium fan of the emulator: a player of its own
    const emulatorPlayer = async () => {
      const token = signPayload({ kind: 'access', fan: hint, exp: Date.now() + 3_600_000 }, EMULATOR_SIGNING_KEY);
      const res = await fetch(`${server.partyUrl}/emulator/spotify/api/v1/me/player`, { headers: { authorization: `Bearer ${token}` } });
      return res.status === 200 ? ((await res.json()) as { is_playing: boolean; device: { id: string }; item: { id: string } }) : null;
    };
    const fan = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    const p = await fan.newPage();
    p.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    const progress = async () => Number(await p.getByRole('progressbar', { name: 'Fortschritt' }).getAttribute('aria-valuenow'));
    const picker = () => p.getByRole('combobox', { name: 'Wiedergabegerät' });
    try {
      await p.goto(c.url);
      await p.getByRole('button', { name: 'Mit Spotify anmelden' }).click();
      // On the emulator's consent page, approve this fan with login_hint (as its own links do).
      await p.waitForURL((u) => u.pathname === '/emulator/spotify/accounts/authorize');
      const consent = new URL(p.url());
      consent.searchParams.set('login_hint', hint);
      await p.goto(consent.toString());
      await p.getByRole('button', { name: 'Abmelden' }).waitFor();
      await p.locator('[data-player-kind="provider"]').waitFor();

      // Play the campaign's second track: the emulator plays it, the page shows it, progress grows.
      const tracks = p.locator('.tracklist__button');
      const secondName = (await tracks.nth(1).locator('strong').textContent())!;
      await tracks.nth(1).click();
      await waitFor(async () => (await emulatorPlayer())?.item.id === CATALOG_TRACK_IDS[1], 'the emulator to play the second campaign track');
      await p.getByTestId('now-playing').getByText(secondName).waitFor();
      await p.getByRole('button', { name: 'Pause' }).waitFor();
      const before = await waitFor(async () => ((await progress()) >= 1 ? progress() : null), 'progress to start');
      await waitFor(async () => (await progress()) > before, 'progress to grow');
      await screenshotBoth(p, 'spotify-playing');

      // The device picker lists the account's devices and moves playback to the chosen one.
      await picker().focus();
      await picker().selectOption('emulator-phone');
      await waitFor(async () => (await emulatorPlayer())?.device.id === 'emulator-phone', 'playback on the phone');
      expect(await picker().inputValue()).toBe('emulator-phone');
      await expectAccessible(p, 'Spotify player');

      // After a reload the page reads the account's playback back: same track, same device, still running.
      await p.reload();
      await p.getByRole('button', { name: 'Abmelden' }).waitFor();
      await p.getByTestId('now-playing').getByText(secondName).waitFor();
      await waitFor(async () => (await picker().inputValue()) === 'emulator-phone', 'the picker to show the phone after the reload');
      const afterReload = await waitFor(async () => ((await progress()) > 0 ? progress() : null), 'progress after the reload');
      expect(afterReload).toBeGreaterThanOrEqual(before);
      await waitFor(async () => (await progress()) > afterReload, 'progress to keep growing after the reload');
      expect(await emulatorPlayer()).toMatchObject({ is_playing: true, device: { id: 'emulator-phone' }, item: { id: CATALOG_TRACK_IDS[1] } });
      await screenshotBoth(p, 'spotify-after-reload');
    } finally {
      await fan.close();
    }
  });

  it('campaign spec §4/§7 HLS preview: a visitor not logged in plays a preview from the manifest (id and callback) and it is audible', async () => {
    const c = await createCampaign('preview', {}, fullPage());
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' });
    const p = await visitor.newPage();
    p.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    try {
      await p.goto(c.url);
      await p.locator('[data-player-kind="preview"]').waitFor();
      const manifest = p.waitForRequest((r) => r.url().includes('/api/previews/manifest.m3u8'));
      await p.locator('.tracklist__button').first().click();
      const url = new URL((await manifest).url());
      expect(url.origin).toBe(new URL(server.cmsUrl).origin);
      expect(url.searchParams.get('id')).toBe(CATALOG_TRACK_IDS[0]);
      expect(url.searchParams.get('callback')).toBe(c.id);
      // Audible: the audio element plays (not paused, not muted, volume up) and its time advances.
      const audio = p.getByTestId('preview-audio');
      const media = () => audio.evaluate((a: HTMLAudioElement) => ({ t: a.currentTime, paused: a.paused, muted: a.muted, volume: a.volume }));
      const first = await waitFor(async () => ((await media()).t > 0.2 ? media() : null), 'the preview to start');
      expect(first).toMatchObject({ paused: false, muted: false });
      expect(first.volume).toBeGreaterThan(0);
      await waitFor(async () => (await media()).t > first.t + 0.5, 'the preview to advance');
      await p.getByRole('button', { name: 'Pause' }).waitFor();
      await screenshotBoth(p, 'preview-playing');
      await expectAccessible(p, 'preview player');
    } finally {
      await visitor.close();
    }
  });
  it('campaign spec §4 login: Apple through the emulator (MusicKit stand-in), the campaign tracks play, a reload keeps the login, logout clears it', async () => {
    const c = await createCampaign('apple', {}, fullPage());
    const fan = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'de-DE' });
    const p = await fan.newPage();
    p.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
    const storedToken = () => p.evaluate(() => Object.entries(localStorage).find(([k]) => k.endsWith(':account-token'))?.[1] ?? null);
    const progress = async () => Number(await p.getByRole('progressbar', { name: 'Fortschritt' }).getAttribute('aria-valuenow'));
    try {
      await p.goto(c.url);
      await p.getByRole('button', { name: 'Mit Apple Music anmelden' }).click();
      // The Apple emulator's consent page stands in for MusicKit's; approve with login_hint.
      await p.waitForURL((u) => u.pathname === '/emulator/apple/authorize');
      const consent = new URL(p.url());
      consent.searchParams.set('login_hint', 'campaign-e2e-apple');
      await p.goto(consent.toString());
      await p.waitForURL((u) => u.pathname === new URL(c.url).pathname);
      await p.getByRole('button', { name: 'Abmelden' }).waitFor();
      await waitFor(() => !p.url().includes('music_user_token'), 'the music user token to be cleared from the address');
      expect(JSON.parse((await storedToken())!)).toMatchObject({ service: 'apple' });
      await p.locator('[data-player-kind="provider"]').waitFor();

      const tracks = p.locator('.tracklist__button');
      const firstName = (await tracks.first().locator('strong').textContent())!;
      await tracks.first().click();
      await p.getByTestId('now-playing').getByText(firstName).waitFor();
      await p.getByRole('button', { name: 'Pause' }).waitFor();
      const before = await waitFor(async () => ((await progress()) >= 1 ? progress() : null), 'progress to start');
      await waitFor(async () => (await progress()) > before, 'progress to grow');
      await screenshotBoth(p, 'apple-playing');
      await expectAccessible(p, 'Apple player');

      await p.reload();
      await p.getByRole('button', { name: 'Abmelden' }).waitFor();
      expect(JSON.parse((await storedToken())!)).toMatchObject({ service: 'apple' });
      await p.getByRole('button', { name: 'Abmelden' }).click();
      await p.getByRole('button', { name: 'Mit Apple Music anmelden' }).waitFor();
      expect(await storedToken()).toBeNull();
      await p.reload();
      await p.getByRole('button', { name: 'Mit Apple Music anmelden' }).waitFor();
    } finally {
      await fan.close();
    }
  });
});
