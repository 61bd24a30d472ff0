/**
 * Lighthouse mobile runs on the party app (issue 16: performance at least 90 on the home and
 * waiting screens). Starts the real server (as `npm start`, the party app built for production),
 * runs Lighthouse with its default mobile emulation and simulated throttling, and writes
 * bench/results/lighthouse-party-<screen>.{json,md}.
 *
 * - home: a first visit, no login (Lighthouse resets storage and cache as usual).
 * - waiting: a fan signed up through the Spotify emulator, in the waiting room. The run attaches to
 *   a Chromium whose profile holds the fan's login, so storage is kept; the HTTP cache is cleared
 *   before each run so every run is a cold load, as on the home screen.
 *
 *   bash bench/lighthouse/run.sh party [--runs 3] [--nice -10]
 *
 * `--nice -10` runs Chromium ahead of the other work on a shared host (needs root): Lighthouse
 * multiplies the main-thread time it observes by its CPU slowdown, so a starved host counts its own
 * waiting as the page's blocking time. Those results go to lighthouse-party-<screen>-nice.* and
 * say so; the default run stays as it is.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { freePort, startTestServer } from '../../apps/server/src/test/harness.ts';
import { arg, lighthouse, writeSummary, type Lhr } from './report.ts';

const opts = { lighthouse: arg('lighthouse', '/tmp/lh/node_modules/.bin/lighthouse'), chrome: arg('chrome', '/usr/bin/chromium'), nice: Math.max(-20, Math.min(19, Math.round(Number(arg('nice', '0'))) || 0)) };
const RUNS = Math.min(5, Math.max(1, Number(arg('runs', '3'))));
const NICE = opts.nice;
const SUFFIX = NICE ? '-nice' : '';
const PRIORITY_NOTE = NICE ? `Chromium run at nice ${NICE}, ahead of the other processes on the shared host` : '';
const perfOf = (r: Lhr) => Math.round((r.categories.performance?.score ?? 0) * 100);

/** Waits until Chromium's debugging endpoint answers (bounded). */
async function debuggerReady(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Chromium did not open its debugging port');
}

async function main(): Promise<void> {
  // The waiting room opens 30 min before the start: a start in 20 min leaves it open for the runs.
  const server = await startTestServer({ env: { LOG_LEVEL: 'warn', DEMO_START_DELAY_SECONDS: '1200' } });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-party-profile-'));
  const port = await freePort();
  const chrome = spawn(NICE ? 'nice' : opts.chrome, [...(NICE ? ['-n', String(NICE), opts.chrome] : []), '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'], { stdio: 'ignore' });
  try {
    // Home: a first visit.
    let load = os.loadavg()[0]!;
    const home: Lhr[] = [];
    for (let i = 0; i < RUNS; i++) home.push(await lighthouse(`${server.partyUrl}/`, opts));
    let perf = writeSummary(`party-home${SUFFIX}`, { what: 'party app home screen, first visit (demo party, login required)', path: '/' }, home, load, PRIORITY_NOTE);
    process.stdout.write(`party home${SUFFIX}: performance ${perf} (runs ${home.map(perfOf).join(', ')})\n`);

    // Waiting: sign a fan up in the attached Chromium, as a person clicks through.
    await debuggerReady(port);
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
    const context = browser.contexts()[0]!;
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.partyUrl}/`);
    await page.getByRole('link', { name: /Jetzt teilnehmen|Join now/ }).click();
    await page.getByRole('button', { name: /Weiter mit Spotify|Continue with Spotify/ }).click();
    await page.getByRole('link', { name: 'Continue as Lena' }).click();
    await page.waitForURL(/#\/register/);
    await page.getByLabel(/Name im Chat|Chat name/).fill('lighthousefan');
    await page.getByRole('button', { name: /Zur Party|Join the party/ }).click();
    await page.waitForURL(/#\/waiting/);
    const cdp = await context.newCDPSession(page);
    load = os.loadavg()[0]!;
    const waiting: Lhr[] = [];
    for (let i = 0; i < RUNS; i++) {
      await cdp.send('Network.clearBrowserCache');
      waiting.push(await lighthouse(`${server.partyUrl}/#/waiting`, { ...opts, port, keepStorage: true }));
    }
    perf = writeSummary(`party-waiting${SUFFIX}`, { what: 'party app waiting room, signed-up fan (countdown, track list, FAQ)', path: '/#/waiting' }, waiting, load, ['HTTP cache cleared before each run, login kept', PRIORITY_NOTE].filter(Boolean).join('; '));
    process.stdout.write(`party waiting${SUFFIX}: performance ${perf} (runs ${waiting.map(perfOf).join(', ')})\n`);
    await cdp.detach();
  } finally {
    const exited = new Promise((r) => chrome.once('exit', r));
    chrome.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    await server.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
