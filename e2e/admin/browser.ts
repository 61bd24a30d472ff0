import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { ROOT, SCREENSHOT_DIR } from '../party/browser.ts';

import { launchChromium } from '../party/browser.ts';

export { launchChromium, waitFor } from '../party/browser.ts';

/** Signs the first admin in on the back office's own form and waits for its first screen. */
export async function signInToBackOffice(page: Page, cmsUrl: string): Promise<void> {
  await page.goto(`${cmsUrl}/admin/`);
  await page.getByLabel('E-mail').fill(ADMIN.email);
  await page.locator('input[type="password"]').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Campaigns', level: 2 }).waitFor();
}

/** Chromium at 1280 × 900 with reduced motion, a page that logs its errors, signed in to the back office. */
export async function openBackOffice(cmsUrl: string, timeoutMs = 15_000): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(timeoutMs);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[pageerror] ${e.message}`));
  await signInToBackOffice(page, cmsUrl);
  return { browser, page };
}

/** Calls the CMS API with a bearer token; the status and the parsed body (null when empty). */
export async function callCms<T = unknown>(cmsUrl: string, token: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${cmsUrl}${p}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Newest modification time of the files under `dir` (node_modules and dist left out). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds a web app of the repository unless its build is newer than every source. Several e2e
 * files run in parallel processes: builds take turns (a lock directory per app), and the old
 * assets stay (no emptied dist) so a page another file has open never loses its scripts. The
 * production build, as `npm start` serves it (vitest's NODE_ENV=test would bundle React's dev build).
 */
async function buildFresh(app: string): Promise<void> {
  const lock = path.join(os.tmpdir(), `fanfare-${app}-build.lock`);
  for (let i = 0; ; i++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock left by a crashed run (older than 5 minutes) is taken over.
      if (Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      if (i > 1_200) throw new Error(`the ${app} build lock ${lock} stays taken`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const nodeEnv = process.env.NODE_ENV;
  try {
    const root = path.join(ROOT, 'apps', app);
    const builtAt = fs.statSync(path.join(root, 'dist/index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    const sources = [root, ...['protocol', 'client', 'ui', 'campaign-sdk'].map((p) => path.join(ROOT, 'packages', p, 'src'))].filter((d) => fs.existsSync(d));
    if (builtAt > Math.max(...sources.map(newestMtime))) return;
    const { build } = await import('vite');
    process.env.NODE_ENV = 'production';
    await build({ root, configFile: path.join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production', build: { emptyOutDir: false } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Builds the back office once per test run (when its sources changed since the last build). */
let built: Promise<void> | null = null;
export function buildAdminWeb(): Promise<void> {
  built ??= buildFresh('admin-web');
  return built;
}

/** Builds the campaign page app the live preview frames (else the CMS serves its no-script fallback). */
let builtCampaign: Promise<void> | null = null;
export function buildCampaignWebForPreview(): Promise<void> {
  builtCampaign ??= buildFresh('campaign-web');
  return builtCampaign;
}

/**
 * Saves the page at each width (desktop 1280 and phone 390 px by default) into
 * test-results/screenshots/admin-<name>-<width>.png, then restores the viewport. With
 * `noSidewaysScroll`, the page must not scroll sideways at phone width (a table may scroll in its
 * own box).
 */
export async function screenshot(page: Page, name: string, widths: number | number[] = [1280, 390], opts: { noSidewaysScroll?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  try {
    for (const width of Array.isArray(widths) ? widths : [widths]) {
      await page.setViewportSize({ width, height: width < 600 ? 844 : original.height });
      await page.waitForTimeout(200);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `admin-${name}-${width}.png`), fullPage: true });
      if (width < 600 && opts.noSidewaysScroll) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
      }
    }
  } finally {
    await page.setViewportSize(original);
  }
}

/** `screenshot`, and the page must not scroll sideways at phone width. */
export const screenshotChecked = (page: Page, name: string, widths: number | number[] = [1280, 390]) => screenshot(page, name, widths, { noSidewaysScroll: true });

/** Axe on the page at desktop and phone width (the layout changes: drawer navigation, stacked forms). */
export async function expectAccessibleAtBothWidths(page: Page, what: string): Promise<void> {
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await expectAccessible(page, `${what} at ${original.width} px`);
  try {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(200);
    await expectAccessible(page, `${what} at 390 px`);
  } finally {
    await page.setViewportSize(original);
  }
}

/** Runs axe-core on the page and fails on serious or critical violations (naming them). */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Toasts fade out over the screen (axe then measures half-transparent text): let them go first.
  await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
  await page.addScriptTag({ path: path.join(ROOT, 'node_modules/axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    // The preview frame is the campaign page's own (checked by its own suite).
    const result = await axe.run({ exclude: [['iframe']] }, { resultTypes: ['violations'] });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  });
  expect(violations, `axe on ${what}`).toEqual([]);
}
