/**
 * The back office end to end, in Debian's Chromium against the real server. Steps run in order and share the pages: an admin and an editor in two contexts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { BRIDGE_CHANNEL } from '@fanfare/protocol';
import { ADMIN, EDITOR_PASSWORD, cmsApi, failure, login, userWithRoles, withResponse } from '../../apps/server/src/cms/testing.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, buildCampaignWebForPreview, expectAccessibleAtBothWidths as expectAccessible, launchChromium, screenshotChecked as screenshot, waitFor } from './browser.ts';
import { noisePng } from './png.ts';

const EDITOR_EMAIL = 'editor@example.com';

/** The campaign as stored, read through the typed CMS client with the admin's token. */
const storedCampaign = (id: string) => cmsApi(server, adminToken).call('getCampaign', { params: { id } });

let server: TestServer;
let browser: Browser;
let adminCtx: BrowserContext;
let editorCtx: BrowserContext;
let admin: Page;
let editor: Page;
let adminToken: string;
let campaignId = '';

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  return page;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${server.cmsUrl}/admin/`);
  await page.getByLabel('E-mail').fill(email);
  await page.locator('input[type="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
}

/** The preview frame, with a recorder of every bridge frame the editor sends it. */
async function previewFrame(page: Page): Promise<Frame> {
  const frame = await waitFor(() => page.frames().find((f) => f.url().includes('/c/')), 'the preview frame');
  await frame.waitForLoadState('domcontentloaded');
  await frame.evaluate((channel) => {
    const w = window as unknown as { __got?: unknown[] };
    if (w.__got) return;
    w.__got = [];
    window.addEventListener('message', (e) => w.__got!.push(e.data));
    // The page's hello (what the campaign SDK sends on load), so the test does not depend on its timing.
    window.parent.postMessage({ channel, type: 'ready:v2', version: 2, requestId: 'hello-1' }, window.location.origin);
  }, BRIDGE_CHANNEL);
  return frame;
}

type Got = { type: string; campaign?: { name: string }; simulation?: Record<string, unknown>; token?: string | null; url?: string | null; replyTo?: string };
const received = (frame: Frame) => frame.evaluate(() => (window as unknown as { __got: Got[] }).__got);

describe('back office in Chromium', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    // The preview frames the real campaign page app (without its build the CMS serves a no-script page).
    await buildCampaignWebForPreview();
    server = await startTestServer({ env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password } });
    adminToken = await login(server, ADMIN.email, ADMIN.password);
    await userWithRoles(server, adminToken, EDITOR_EMAIL, ['editor']);
    browser = await launchChromium();
    adminCtx = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    editorCtx = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', acceptDownloads: true });
    adminCtx.setDefaultTimeout(10_000);
    editorCtx.setDefaultTimeout(10_000);
    admin = await newPage(adminCtx);
    editor = await newPage(editorCtx);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('serves the back office at /admin/ and refuses to be framed', async () => {
    const res = await fetch(`${server.cmsUrl}/admin/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(await res.text()).toContain('/admin/assets/');
  });

  it('sign in: a wrong password is refused with the server message, the right one opens the campaigns list', async () => {
    await admin.goto(`${server.cmsUrl}/admin/`);
    await admin.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
    await expectAccessible(admin, 'sign in');
    await screenshot(admin, 'sign-in');
    await admin.getByLabel('E-mail').fill(ADMIN.email);
    await admin.locator('input[type="password"]').fill('wrong-password-000');
    await admin.getByRole('button', { name: 'Sign in' }).click();
    await admin.getByText('Invalid e-mail or password').waitFor();
    await signIn(admin, ADMIN.email, ADMIN.password);
    // A fresh install holds the demo campaign.
    await admin.getByRole('table', { name: 'Campaigns' }).waitFor();
    await expectAccessible(admin, 'campaigns');
  });

  it('create an app and a campaign', async () => {
    await admin.getByRole('link', { name: 'Apps & translations' }).click();
    await admin.getByRole('button', { name: 'New app' }).click();
    const appDialog = admin.getByRole('dialog', { name: 'New app' });
    await appDialog.getByLabel('Name').fill('fan-pages');
    await appDialog.getByLabel('Title').fill('Fan pages');
    // The browser refuses a plural form for the same reason the server would (spec 5).
    await appDialog.getByLabel('Plural form').first().fill('rm -rf');
    await appDialog.getByRole('button', { name: 'Create app' }).click();
    await appDialog.getByText('Expected a numeric plural rule').waitFor();
    await appDialog.getByLabel('Plural form').first().fill('nplurals=2; plural=(n != 1);');
    await appDialog.getByRole('button', { name: 'Create app' }).click();
    await admin.getByRole('cell', { name: 'fan-pages', exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Translations of fan-pages' }).click();
    await admin.getByTestId('missing-de').waitFor();
    await expectAccessible(admin, 'apps');
    await screenshot(admin, 'apps');
    await admin.getByRole('link', { name: 'Campaigns' }).click();
    await admin.getByRole('button', { name: 'New campaign' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByLabel('App').click();
    await admin.getByRole('option', { name: 'Fan pages' }).click();
    await dialog.getByLabel('Name').fill('Summer Tour 2027');
    expect(await dialog.getByLabel('Slug').inputValue()).toBe('summer-tour-2027');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await admin.waitForURL(/#\/campaigns\/[^/]+$/);
    campaignId = decodeURIComponent(admin.url().split('/').pop()!);
    const stored = await storedCampaign(campaignId);
    expect(stored.slug).toBe('summer-tour-2027');
    // The editor holds the lock while open.
    await waitFor(async () => (await storedCampaign(campaignId)).lock?.user_email === ADMIN.email, 'the lock');
  });

  it('edit a field and see the preview change before saving (campaignInfo:v2 on every change)', async () => {
    const frame = await previewFrame(admin);
    await waitFor(async () => (await received(frame)).some((m) => m.type === 'token' && m.replyTo === 'hello-1'), 'the token answer');
    const first = await received(frame);
    expect(first.find((m) => m.type === 'token')!.token).toMatch(/.+/);
    expect(first.some((m) => m.type === 'theme')).toBe(true);
    // What the page renders inside the frame, not only the bridge frames: the campaign name in its header.
    const brand = frame.locator('.header__brand');
    await waitFor(async () => (await brand.textContent()) === 'Summer Tour 2027', 'the stored name rendered in the preview');
    await admin.getByRole('textbox', { name: /^Name/ }).fill('Summer Tour 2027 – Live');
    await waitFor(async () => (await received(frame)).some((m) => m.type === 'campaignInfo:v2' && m.campaign?.name === 'Summer Tour 2027 – Live'), 'the unsaved name in the preview');
    await waitFor(async () => (await brand.textContent()) === 'Summer Tour 2027 – Live', 'the unsaved name rendered in the preview');
    // A countdown module with its own ended text (shown by the "ended" simulation below).
    await admin.getByRole('tab', { name: 'Page modules' }).click();
    await admin.getByRole('textbox', { name: 'Add a module' }).or(admin.getByPlaceholder('Choose a type')).first().click();
    await admin.getByRole('option', { name: 'Countdown' }).click();
    for (const input of await admin.getByRole('textbox', { name: /^Ended text/ }).all()) await input.fill('Vorbei – danke fürs Mitfeiern!');
    await admin.getByRole('tab', { name: 'General' }).click();
    // An end date, so "ended" can be previewed (without one nothing ends and the option is off).
    await admin.getByLabel('Ends', { exact: true }).fill('2027-08-01T20:00');
    await admin.getByTestId('unsaved').waitFor();
    expect((await storedCampaign(campaignId)).name).toBe('Summer Tour 2027');
  });

  it('save stores the draft and tells the preview (campaignSaved)', async () => {
    const frame = await previewFrame(admin);
    await admin.getByTestId('unsaved').waitFor();
    await screenshot(admin, 'before-save');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => (await storedCampaign(campaignId)).name === 'Summer Tour 2027 – Live', 'the saved name');
    await waitFor(async () => (await received(frame)).some((m) => m.type === 'campaignSaved' && m.campaign?.name === 'Summer Tour 2027 – Live'), 'campaignSaved');
    await expect(admin.getByTestId('unsaved').count()).resolves.toBe(0);
    await expectAccessible(admin, 'campaign editor');
    await screenshot(admin, 'campaign-editor');
  });

  it('simulate "ended" and "gate closed" in the preview, without touching the stored campaign', async () => {
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    const before = await storedCampaign(campaignId);
    const frame = await previewFrame(admin);
    await admin.getByText('Ended', { exact: true }).click();
    await admin.getByText('Gate closed', { exact: true }).click();
    const sim = await waitFor(
      async () => (await received(frame)).filter((m) => m.type === 'campaignInfo:v2' && m.simulation?.token_gate === 'blocked' && m.simulation?.now).at(-1)?.simulation,
      'a simulation with ended and gate closed',
    );
    expect(Date.parse(String(sim.now))).toBeGreaterThan(Date.now());
    expect(ends).toBeTruthy();
    // What the frame renders: with the gate closed the page holds its content back (a visitor
    // without access is on the way to the gate page) ...
    await frame.locator('.page__status[role="status"]').waitFor();
    await expect(frame.getByTestId('campaign-ended').count()).resolves.toBe(0);
    await screenshot(admin, 'preview-gate-closed', 1280);
    // ... and with the gate open, the ended page shows the countdown's ended text.
    await admin.getByText('Gate open', { exact: true }).click();
    await frame.getByTestId('campaign-ended').getByText('Vorbei – danke fürs Mitfeiern!').waitFor();
    await expect(frame.locator('.page').getAttribute('data-phase')).resolves.toBe('ended');
    await expect(frame.locator('.page__status').count()).resolves.toBe(0);
    await screenshot(admin, 'preview-ended', 1280);
    // Back to "now": the countdown shows nothing while the campaign runs.
    await admin.getByText('Now', { exact: true }).click();
    await waitFor(async () => (await frame.getByTestId('campaign-ended').count()) === 0, 'the ended text gone with the simulation');
    await admin.getByText('Ended', { exact: true }).click();
    await admin.getByText('Gate closed', { exact: true }).click();
    const after = await storedCampaign(campaignId);
    expect(after.updated_at).toBe(before.updated_at);
    await admin.getByText('Phone 390 px').click();
    await expect(admin.getByTestId('preview-frame').getAttribute('data-width')).resolves.toBe('390');
    await screenshot(admin, 'preview-phone', 1280);
    await screenshot(admin, 'campaign-editor', 390);
    await admin.getByText('Desktop 1280 px').click();
  });

  it('a second editor is refused the lock, takes it over, and the first editor is told at once', async () => {
    await signIn(editor, EDITOR_EMAIL, EDITOR_PASSWORD);
    await editor.goto(`${server.cmsUrl}/admin/#/campaigns/${campaignId}`);
    await editor.getByText(`${ADMIN.email} is editing this campaign`).waitFor();
    await expect(editor.getByRole('textbox', { name: /^Name/ }).getAttribute('readonly')).resolves.not.toBeNull();
    await expectAccessible(editor, 'campaign editor, read-only');
    await screenshot(editor, 'campaign-locked');
    await editor.getByRole('button', { name: 'Take over' }).click();
    await admin.getByText(`${EDITOR_EMAIL} took over this campaign`).first().waitFor();
    await expect(admin.getByRole('textbox', { name: /^Name/ }).getAttribute('readonly')).resolves.not.toBeNull();
    const refused = await failure(cmsApi(server, adminToken).call('patchCampaign', { params: { id: campaignId }, body: { name: 'x' } }));
    expect(refused.status).toBe(409);
  });

  it('upload an image with its progress shown, and pick it from the preview media request (openMediaLibrary:v2 → mediaPicked)', async () => {
    const frame = await previewFrame(admin);
    await frame.evaluate((channel) => {
      window.parent.postMessage(
        { channel, type: 'openMediaLibrary:v2', requestId: 'media-1', fieldId: 'data.page.modules.0.cover_image', currentFileUrl: null, targetWidth: 600, targetHeight: 400 },
        window.location.origin,
      );
    }, BRIDGE_CHANNEL);
    const dialog = admin.getByRole('dialog', { name: 'Pick an image for the page' });
    await dialog.getByText('The page shows it at 600 × 400 px.').waitFor();
    // A slow uplink (150 kB/s) so the 360 kB upload shows its progress for a while.
    const cdp = await adminCtx.newCDPSession(admin);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 150 * 1024 });
    await dialog.getByTestId('upload-input').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: noisePng(400, 300) });
    const bar = dialog.getByRole('progressbar', { name: 'Upload of cover.png' });
    await bar.waitFor();
    await screenshot(admin, 'media-upload-progress');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await dialog.getByRole('button', { name: 'Pick cover.png' }).waitFor({ timeout: 20_000 });
    await dialog.getByText('400 × 300 px').first().waitFor();
    await dialog.getByRole('button', { name: 'Pick cover.png' }).click();
    const picked = await waitFor(async () => (await received(frame)).find((m) => m.type === 'mediaPicked' && m.replyTo === 'media-1'), 'mediaPicked');
    expect(picked.url).toMatch(new RegExp(`^${server.cmsUrl}/uploads/cms/.+\\.png$`));
    expect((await fetch(picked.url!)).status).toBe(200);
  });

  it('a newsletter signup from the campaign page appears in the subscribers list and in the CSV export', async () => {
    const cms = cmsApi(server, adminToken);
    const appId = (await cms.call('listApps')).items.find((a) => a.name === 'fan-pages')!.id;
    const news = await withResponse((opts) => cms.call('createCampaign', {
      body: {
        app_id: appId,
        name: 'Newsletter page',
        slug: 'newsletter-page',
        token_gate: { enabled: true, product_id: 'vinyl-2027' },
        newsletters: [{ id: 'label-news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab-1', form_id: 'form-1', consent_text: 'Ja, schickt mir Neuigkeiten.' } } }],
      },
    }, opts));
    expect(news.status).toBe(201);
    // A new campaign is a draft: publish it so its page answers visitors.
    await cms.call('publishCampaign', { params: { id: news.data.id } });
    const page = await newPage(adminCtx);
    await page.goto(news.data.url);
    // The page's own signup call (what its newsletter form sends), from the page's origin.
    const status = await page.evaluate(async (id) => {
      const res = await fetch(`/api/campaigns/${id}/newsletter/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'fan@example.com', consents: [{ id: 'label-news', accepted: true }], locale: 'de', redirect_url: location.href, error_redirect_url: location.href, host_url: location.href, newsletter_ids: ['label-news'] }),
      });
      return res.status;
    }, news.data.id);
    expect(status).toBe(202);
    await page.close();
    await admin.goto(`${server.cmsUrl}/admin/#/campaigns/${news.data.id}/subscribers`);
    await admin.getByRole('cell', { name: 'fan@example.com' }).waitFor();
    await admin.getByRole('cell', { name: 'pending' }).waitFor();
    await expectAccessible(admin, 'subscribers');
    await screenshot(admin, 'subscribers');
    const download = admin.waitForEvent('download');
    await admin.getByRole('button', { name: 'Export CSV' }).click();
    const file = await (await download).path();
    const csv = (await import('node:fs')).readFileSync(file, 'utf8');
    expect(csv.split('\r\n')[0]).toContain('"email"');
    expect(csv).toContain('"fan@example.com","label-news","pending","de","ab-1","form-1"');
    await admin.getByRole('tab', { name: 'Consent ledger' }).click();
    await admin.getByRole('cell', { name: 'Ja, schickt mir Neuigkeiten.' }).waitFor();
    await expectAccessible(admin, 'consent ledger');
    await screenshot(admin, 'consent-ledger');
    // The campaign's consent text changes: the ledger still shows the words this fan agreed to.
    const newsletters = structuredClone(news.data.newsletters);
    newsletters[0]!.locales.de!.consent_text = 'Ja, und auch Angebote von Partnern.';
    await cmsApi(server, adminToken).call('patchCampaign', { params: { id: news.data.id }, body: { newsletters } });
    await admin.reload();
    await admin.getByRole('tab', { name: 'Consent ledger' }).click();
    await admin.getByRole('cell', { name: 'Ja, schickt mir Neuigkeiten.' }).waitFor();
    const consents = await admin.evaluate(async (id) => {
      const session = JSON.parse(sessionStorage.getItem('fanfare.admin.session') ?? '{}') as { token?: string };
      return (await fetch(`/api/campaigns/${id}/newsletter/consents.csv`, { headers: { authorization: `Bearer ${session.token}` } })).text();
    }, news.data.id);
    expect(consents).toContain('"fan@example.com","label-news","true","optional","de","Ja, schickt mir Neuigkeiten."');
    // The token gate of the same campaign: codes uploaded with progress, then listed with their uses.
    await admin.goto(`${server.cmsUrl}/admin/#/campaigns/${news.data.id}/token-gate`);
    await admin.getByText('No codes for this product yet').waitFor();
    await admin.getByTestId('codes-input').setInputFiles({ name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from('CODE-1\nCODE-2,3\n') });
    await admin.getByText('2 new codes, 0 updated for vinyl-2027.').waitFor();
    await admin.getByRole('cell', { name: '0 of 3' }).waitFor();
    await expectAccessible(admin, 'token gate');
    await screenshot(admin, 'token-gate');
  });

  it('an editor without the admin role can neither see nor call user administration', async () => {
    await expect(editor.getByRole('link', { name: 'People' }).count()).resolves.toBe(0);
    await editor.goto(`${server.cmsUrl}/admin/#/people`);
    await editor.getByText('Not available to your role').waitFor();
    const status = await editor.evaluate(async () => {
      const session = JSON.parse(sessionStorage.getItem('fanfare.admin.session') ?? '{}') as { token?: string };
      return (await fetch('/api/users', { headers: { authorization: `Bearer ${session.token}` } })).status;
    });
    expect(status).toBe(403);
    // The admin sees and uses it.
    await admin.getByRole('link', { name: 'People' }).click();
    await admin.getByRole('cell', { name: EDITOR_EMAIL, exact: true }).waitFor();
    await admin.getByRole('button', { name: 'Invite someone' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Invite someone' });
    await dialog.getByLabel('E-mail').fill('new.editor@example.com');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await admin.getByRole('cell', { name: 'new.editor@example.com', exact: true }).waitFor();
    await expectAccessible(admin, 'people');
    await screenshot(admin, 'people');
  });

  it('the media search looks in every folder and names the folder of each file; media and campaigns pass axe at 1280 and 390 px', async () => {
    const form = new FormData();
    form.append('folder', '/tour/2027/posters');
    form.append('file', new Blob([new Uint8Array(noisePng(64, 48))], { type: 'image/png' }), 'far-away-poster.png');
    await cmsApi(server, adminToken).call('createUpload', { form });
    await admin.getByRole('link', { name: 'Media' }).click();
    await admin.getByText('cover.png').first().waitFor();
    await expectAccessible(admin, 'media');
    await screenshot(admin, 'media');
    // From the top folder, a file three folders down.
    await admin.getByRole('searchbox', { name: 'Search all media' }).fill('FAR-away');
    await admin.getByText('1 file named like “FAR-away” in all folders').waitFor();
    await expect(admin.getByText('cover.png').count()).resolves.toBe(0);
    await expectAccessible(admin, 'media search');
    await screenshot(admin, 'media-search');
    await admin.getByRole('button', { name: 'in /tour/2027/posters' }).click();
    await admin.getByRole('button', { name: 'posters' }).first().waitFor();
    await admin.getByText('far-away-poster.png').waitFor();
    await admin.getByRole('searchbox', { name: 'Search all media' }).fill('no-such-file');
    await admin.getByText('No file named like “no-such-file” in any folder').waitFor();
    await screenshot(admin, 'media-search-empty');
    await admin.getByRole('link', { name: 'Campaigns' }).click();
    await admin.getByRole('table', { name: 'Campaigns' }).waitFor();
    await screenshot(admin, 'campaigns');
  });

  it('campaign translations: a plural form is refused in the browser (spec 5), a message per locale is saved, missing keys are shown', async () => {
    const list = await cmsApi(server, adminToken).call('searchCampaigns', { query: { q: 'newsletter-page' } });
    const id = list.items[0]!.id;
    await admin.goto(`${server.cmsUrl}/admin/#/campaigns/${id}`);
    await admin.getByRole('heading', { name: 'Newsletter page', level: 2 }).waitFor();
    await admin.getByRole('tab', { name: 'Translations' }).click();
    await admin.getByRole('button', { name: 'Give it its own translations' }).click();
    await admin.getByRole('textbox', { name: 'Plural form' }).first().fill('plural=always');
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.getByText('Expected a numeric plural rule').waitFor();
    await admin.getByRole('textbox', { name: 'Plural form' }).first().fill('nplurals=2; plural=(n != 1);');
    await admin.getByLabel('New message key').fill('cta');
    await admin.getByRole('button', { name: 'Add key' }).click();
    await admin.getByLabel('cta in de').fill('Jetzt anmelden');
    await admin.getByText('en: missing cta').waitFor();
    await admin.getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => (await storedCampaign(id)).i18n?.translations?.[0]?.messages?.cta === 'Jetzt anmelden', 'the saved message');
    await expectAccessible(admin, 'campaign translations');
    await screenshot(admin, 'campaign-translations');
  });
});
