import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT, SCREENSHOT_DIR } from '../party/browser.ts';

export { launchChromium, waitFor } from '../party/browser.ts';

const BUILD_LOCK = path.join(os.tmpdir(), 'fanfare-admin-web-build.lock');

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
 * Builds the back office once per test run. Several admin e2e files run in parallel processes:
 * builds take turns (a lock directory), a build newer than every source is reused, and the old
 * assets stay (no emptied dist) so a page another file has open never loses its scripts.
 */
let built: Promise<void> | null = null;
export function buildAdminWeb(): Promise<void> {
  built ??= (async () => {
    for (let i = 0; ; i++) {
      try {
        fs.mkdirSync(BUILD_LOCK);
        break;
      } catch {
        // A lock left by a crashed run (older than 5 minutes) is taken over.
        if (Date.now() - (fs.statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 300_000) fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
        if (i > 1_200) throw new Error(`the admin-web build lock ${BUILD_LOCK} stays taken`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    try {
      const index = path.join(ROOT, 'apps/admin-web/dist/index.html');
      const builtAt = fs.statSync(index, { throwIfNoEntry: false })?.mtimeMs ?? 0;
      const sources = Math.max(...['apps/admin-web', 'packages/protocol/src', 'packages/client/src', 'packages/ui/src'].filter((d) => fs.existsSync(path.join(ROOT, d))).map((d) => newestMtime(path.join(ROOT, d))));
      if (builtAt > sources) return;
      const { build } = await import('vite');
      await build({ root: path.join(ROOT, 'apps/admin-web'), configFile: path.join(ROOT, 'apps/admin-web/vite.config.ts'), logLevel: 'warn', build: { emptyOutDir: false } });
    } finally {
      fs.rmSync(BUILD_LOCK, { recursive: true, force: true });
    }
  })();
  return built;
}

/** Saves the page at `width` (1280 by default) into test-results/screenshots/admin-<name>-<width>.png. */
export async function screenshot(page: Page, name: string, width = 1280): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  await page.setViewportSize({ width, height: original.height });
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `admin-${name}-${width}.png`), fullPage: true });
  await page.setViewportSize(original);
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
