import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT, SCREENSHOT_DIR } from '../party/browser.ts';

export { launchChromium, waitFor } from '../party/browser.ts';

/** Builds the back office once per test run. */
let built: Promise<void> | null = null;
export function buildAdminWeb(): Promise<void> {
  built ??= (async () => {
    const { build } = await import('vite');
    await build({ root: path.join(ROOT, 'apps/admin-web'), configFile: path.join(ROOT, 'apps/admin-web/vite.config.ts'), logLevel: 'warn' });
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
