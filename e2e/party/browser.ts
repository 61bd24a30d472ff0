import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

/** Debian's Chromium (override with CHROMIUM_PATH). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags from STACK.md: headless in a sandbox-less container, no background traffic, audio allowed. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

/** Builds the party web app once per test run (vite takes about a second). */
let built: Promise<void> | null = null;
export function buildPartyWeb(): Promise<void> {
  built ??= (async () => {
    const { build } = await import('vite');
    // The production build `npm start` serves: under the test runner NODE_ENV is `test`, which
    // would bundle React's slower development build.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root: path.join(ROOT, 'apps/party-web'), configFile: path.join(ROOT, 'apps/party-web/vite.config.ts'), logLevel: 'warn', mode: 'production' });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  })();
  return built;
}

/** Saves the page at phone (390 px) and desktop (1280 px) width, then restores the viewport. */
export async function screenshotBoth(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const [width, height] of [
    [390, 844],
    [1280, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

/** Polls `check` until it returns a truthy value (bounded in count and time). */
export async function waitFor<T>(check: () => Promise<T> | T, what: string, timeoutMs = 15_000, stepMs = 200): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let i = 0; i < Math.ceil(timeoutMs / stepMs) + 1 && Date.now() <= deadline; i++) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** axe-core in the page: fails on serious or critical violations, naming each rule and its elements. */
export async function expectNoSeriousAxeViolations(page: Page, what = page.url()): Promise<void> {
  await page.addScriptTag({ path: path.join(ROOT, 'node_modules/axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] }> } }).axe.run();
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  if (violations.length > 0) throw new Error(`axe on ${what}: ${violations.join('; ')}`);
}
