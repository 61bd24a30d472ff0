import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { ROOT } from '../party/browser.ts';

export { launchChromium, waitFor, ROOT } from '../party/browser.ts';

export const CAMPAIGN_WEB_DIR = path.join(ROOT, 'apps/campaign-web');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots', 'campaign');

/** Builds the campaign page app once per test run (Vite, a few seconds). */
let built: Promise<void> | null = null;
export function buildCampaignWeb(): Promise<void> {
  built ??= (async () => {
    const { build } = await import('vite');
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build: build
    // what `npm start` serves, so the size check measures the real page.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root: CAMPAIGN_WEB_DIR, configFile: path.join(CAMPAIGN_WEB_DIR, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  })();
  return built;
}

/**
 * The JavaScript a visitor's browser loads before the first paint: the entry script of the built
 * `index.html` and every module it preloads, gzipped (as the CMS sends them).
 */
export function initialJsGzipBytes(): { files: string[]; bytes: number } {
  const dist = path.join(CAMPAIGN_WEB_DIR, 'dist');
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/campaign-web\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = files.reduce((sum, f) => sum + zlib.gzipSync(fs.readFileSync(path.join(dist, f)), { level: 9 }).length, 0);
  return { files, bytes };
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

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.addScriptTag({ path: path.join(ROOT, 'node_modules/axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact!, nodes: v.nodes.map((n) => String(n.target)) }));
  });
}
