/**
 * Sign-in edges of the back office in Chromium (first-admin set-up, session expiry handled
 * gracefully): a fresh install without ADMIN_PASSWORD, so the first admin
 * has a generated password and must set up the account first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_ADMIN_EMAIL } from '../../apps/server/src/cms/users/bootstrap.ts';
import { hashPassword } from '../../apps/server/src/cms/users/passwords.ts';
import { startTestServer, type TestServer } from '../../apps/server/src/test/harness.ts';
import { buildAdminWeb, expectAccessible, launchChromium, screenshotChecked as screenshot, waitFor } from './browser.ts';

const INITIAL = 'printed-initial-password-0';
const OWN = { name: 'Ada Admin', email: 'ada@label.example', password: 'my-own-long-password-42' };
const SESSION_KEY = 'fanfare.admin.session';

let server: TestServer;
let browser: Browser;
let page: Page;

/** The session the tab keeps (token and end). */
const stored = () => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? 'null') as { token: string; expiresAt: string } | null, SESSION_KEY);
/** Makes the tab believe its session ends in `ms` (the server's session is untouched), then reloads. */
async function sessionEndsIn(ms: number): Promise<void> {
  await page.evaluate(
    ([key, at]) => {
      const s = JSON.parse(sessionStorage.getItem(key)!) as { expiresAt: string };
      sessionStorage.setItem(key, JSON.stringify({ ...s, expiresAt: new Date(Date.now() + at).toISOString() }));
    },
    [SESSION_KEY, ms] as const,
  );
  await page.reload();
}

async function signIn(email: string, password: string): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in to the back office' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.locator('input[type="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('back office sign-in: first-admin set-up and session expiry', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    await buildAdminWeb();
    // No ADMIN_PASSWORD: npm start prints a generated one. The test cannot read the print (silent
    // logs), so it puts a known password in place of the generated one.
    server = await startTestServer();
    await server.server.ctx.db.updateTable('cms_users').set({ password_hash: await hashPassword(INITIAL) }).where('email', '=', DEFAULT_ADMIN_EMAIL).execute();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('first-admin set-up: signing in with the printed password leads to the set-up screen, then back to the page asked for', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/media`);
    await signIn(DEFAULT_ADMIN_EMAIL, INITIAL);
    await page.getByRole('heading', { name: 'Set up your account' }).waitFor();
    await expectAccessible(page, 'account set-up');
    await screenshot(page, 'setup');
    await screenshot(page, 'setup', 390);
    // Any other screen leads back here; the server refuses the calls anyway.
    await page.goto(`${server.cmsUrl}/admin/#/campaigns`);
    await page.getByRole('heading', { name: 'Set up your account' }).waitFor();
    const refused = await page.evaluate(async (key) => {
      const token = (JSON.parse(sessionStorage.getItem(key)!) as { token: string }).token;
      const res = await fetch('/api/apps', { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as { detail: { type?: string } } };
    }, SESSION_KEY);
    expect(refused.status).toBe(403);
    expect(refused.body.detail.type).toBe('AccountSetupRequired');

    // The browser refuses what the server would (the protocol's schema), and the printed password.
    await page.getByLabel('Your name').fill(OWN.name);
    await page.getByLabel('E-mail').fill(OWN.email);
    await page.getByLabel(/^New password/).fill('short');
    await page.getByLabel('Repeat the new password').fill('short');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByText('Too small').or(page.getByText(/at least 12/i)).first().waitFor();
    await page.getByLabel(/^New password/).fill(INITIAL);
    await page.getByLabel('Repeat the new password').fill(INITIAL);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByText('Choose a new password, not the initial one').waitFor();
    await page.getByLabel(/^New password/).fill(OWN.password);
    await page.getByLabel('Repeat the new password').fill(OWN.password);
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
    await expect(page.getByTestId('signed-in-as').textContent()).resolves.toContain(OWN.email);
  });

  it('the set-up sticks: signing out and in with the own password opens the back office directly', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(OWN.email, OWN.password);
    await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
  });

  it('a couple of minutes before the session ends, a notice offers "Stay signed in", which extends the session', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/media`);
    await page.getByRole('heading', { name: 'Media', level: 2 }).waitFor();
    const token = (await stored())!.token;
    await sessionEndsIn(90_000);
    const notice = page.locator('.mantine-Notification-root', { hasText: 'Your session ends soon' });
    await notice.waitFor();
    await screenshot(page, 'session-ending');
    await notice.getByRole('button', { name: 'Stay signed in' }).click();
    await notice.waitFor({ state: 'detached' });
    const after = (await stored())!;
    // The same token, valid for the server's full session lifetime again (hours, not seconds).
    expect(after.token).toBe(token);
    expect(Date.parse(after.expiresAt) - Date.now()).toBeGreaterThan(60 * 60_000);
  });

  it('when the session ends the editor returns to sign in, is told why, and comes back to the same page', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/media`);
    await page.getByRole('heading', { name: 'Media', level: 2 }).waitFor();
    await sessionEndsIn(3_000);
    await page.getByText('Your session has ended').waitFor();
    await expectAccessible(page, 'sign in after expiry');
    await screenshot(page, 'session-ended');
    await screenshot(page, 'session-ended', 390);
    await signIn(OWN.email, OWN.password);
    await page.getByRole('heading', { name: 'Media', level: 2 }).waitFor();
    expect(page.url()).toContain('#/media');
  });

  it('a session the server ended (401 on any call) also returns to sign in and back', async () => {
    await page.goto(`${server.cmsUrl}/admin/#/people`);
    await page.getByRole('heading', { name: 'People', level: 2 }).waitFor();
    await server.server.ctx.db.updateTable('cms_sessions').set({ expires_at: Date.now() - 1 }).execute();
    await page.reload();
    await page.getByText('Your session has ended').waitFor();
    await signIn(OWN.email, OWN.password);
    await waitFor(async () => page.url().includes('#/people'), 'back on People');
    await page.getByRole('cell', { name: `${OWN.email} (you)`, exact: true }).waitFor();
  });
});
