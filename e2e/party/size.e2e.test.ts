/**
 * The party app's first load stays small (README: initial JavaScript, gzipped): every script the
 * page loads before it can paint, i.e. the entry and its module preloads. hls.js, the Player, the
 * FAQ modal and other locales load later and are not counted.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ROOT } from './browser.ts';

/** Budget of the initial JavaScript, gzipped (README "party web app": 156 KB, issue 15 keeps it). */
const INITIAL_JS_BUDGET_BYTES = 156 * 1024;

describe('party web app bundle size', { timeout: 120_000 }, () => {
  it(`initial JavaScript stays within ${INITIAL_JS_BUDGET_BYTES / 1024} KB gzipped; hls.js and the Player load later`, async () => {
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
    expect(bytes).toBeLessThanOrEqual(INITIAL_JS_BUDGET_BYTES);
    expect(initial.some((f) => f.startsWith('hls'))).toBe(false);
    expect(initial.some((f) => f.startsWith('Player'))).toBe(false);
    fs.rmSync(dist, { recursive: true, force: true });
  });
});
