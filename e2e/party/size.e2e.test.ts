/**
 * The party app's first load stays small (README: initial JavaScript, gzipped): every script the
 * page loads before it can paint, i.e. the entry and its module preloads. hls.js, the Player, the
 * host controls, the editor's preview bridge, the modals (and `@fanfare/ui` behind them) and other
 * locales load later and are not counted. The build also writes each text asset pre-compressed, as the server sends it.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ROOT } from './browser.ts';

/** Budget of the initial JavaScript, gzipped (under 150 KB). */
const INITIAL_JS_BUDGET_BYTES = 150 * 1024;

describe('party web app bundle size', { timeout: 120_000 }, () => {
  it(`initial JavaScript stays under ${INITIAL_JS_BUDGET_BYTES / 1024} KB gzipped; hls.js, the Player, host and preview code load later`, async () => {
    // A production build as `npm start` makes it (the test runner's NODE_ENV would keep React's dev build).
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'party-web-size-'));
    execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: path.join(ROOT, 'apps/party-web'),
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'pipe',
    });
    const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const initial = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(0);
    const bytes = initial.reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(dist, 'assets', file)), { level: 9 }).length, 0);
    console.log(`party web initial JS: ${(bytes / 1024).toFixed(1)} KB gzipped in ${initial.length} files`);
    expect(bytes).toBeLessThan(INITIAL_JS_BUDGET_BYTES);
    for (const later of ['hls', 'Player', 'HostPanel', 'HostStartButton', 'bridge', 'FaqModal', 'ThemedModal', 'PopupModal']) expect(initial.filter((f) => f.startsWith(later))).toEqual([]);
    // Each of them is still built, as its own chunk.
    const all = fs.readdirSync(path.join(dist, 'assets'));
    for (const later of ['hls', 'Player', 'HostPanel', 'HostStartButton', 'bridge']) expect(all.some((f) => f.startsWith(later) && f.endsWith('.js'))).toBe(true);
    // Pre-compressed beside each script: the server sends these, not the plain file.
    for (const file of initial) {
      expect(fs.existsSync(path.join(dist, 'assets', `${file}.br`)) || fs.statSync(path.join(dist, 'assets', file)).size < 1024).toBe(true);
      expect(fs.existsSync(path.join(dist, 'assets', `${file}.gz`)) || fs.statSync(path.join(dist, 'assets', file)).size < 1024).toBe(true);
    }
    fs.rmSync(dist, { recursive: true, force: true });
  });
});
