/**
 * Sync benchmark: several headless Chromium fans play the same party over HLS (the label's
 * umg_hls stream) with the party app's own player code; every fan records its audio position on a
 * shared grid of instants of the machine clock; the bench reports how far apart the fans are
 * (pairwise drift) and how far each is from the server's timeline, as p50/p95/p99/max.
 *
 * Fans join at different times, and one fan's clock is skewed on purpose (`--skew-ms`) so the
 * clock-offset estimate is exercised. The run spans a track change.
 * Usage: `npm run bench:sync -- --fans 3 --duration 90`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PlayerStatusResponse, SignupResponse } from '@fanfare/protocol';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { freePort, sleep, spawnTs, stopProcess, waitForHttp } from '../lib/processes.ts';
import { markdownTable, textTable, writeResults } from '../lib/results.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PARTY = 'sync-bench';
const CMS_TOKEN = 'bench-cms-token-0123456789abcdef';
/** The first demo album (Tidal Lights): its first track is 70.7 s long, so a run of 90 s spans a track change. */
const ALBUM = '6iz0r2rAVeYBGcpxZOyXHX';

const { values: args } = parseArgs({
  options: {
    fans: { type: 'string', default: '3' },
    duration: { type: 'string', default: '90' },
    'join-spread': { type: 'string', default: '4' },
    'skew-ms': { type: 'string', default: '2500' },
    grid: { type: 'string', default: '250' },
    'settle': { type: 'string', default: '3' },
    'no-save': { type: 'boolean', default: false },
  },
});
const cfg = {
  fans: Math.max(2, Number(args.fans)),
  durationS: Number(args.duration),
  joinSpreadS: Number(args['join-spread']),
  skewMs: Number(args['skew-ms']),
  gridMs: Number(args.grid),
  /** Samples this long after a fan joins or a track starts are reported apart (loading). */
  settleS: Number(args.settle),
};
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

interface Sample {
  at: number;
  pos: number | null;
  track: string | null;
  playing: boolean;
  offset: number;
}

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  if (res.status >= 300) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

function quantiles(values: number[]): { n: number; p50: number; p95: number; p99: number; max: number; mean: number } {
  const v = [...values].sort((a, b) => a - b);
  const q = (p: number) => (v.length ? v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))]! : NaN);
  const r = (n: number) => Math.round(n * 10) / 10;
  return { n: v.length, p50: r(q(0.5)), p95: r(q(0.95)), p99: r(q(0.99)), max: r(v.at(-1) ?? NaN), mean: r(v.reduce((a, b) => a + b, 0) / (v.length || 1)) };
}

async function bundlePage(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(HERE, 'page', 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    minify: true,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

async function main(): Promise<void> {
  const machine = machineInfo();
  log(`sync bench on ${machineLine(machine)}`);
  log(`${cfg.fans} fans, ${cfg.durationS} s, joins spread over ${cfg.joinSpreadS} s, fan 2's clock skewed by ${cfg.skewMs} ms`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-sync-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawnTs('apps/server/src/main.ts', ['--only', 'party'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      CMS_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DATABASE_URL: `sqlite:${path.join(dataDir, 'fanfare.sqlite')}`,
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      CMS_ADMIN_TOKEN: CMS_TOKEN,
      DEMO_SEED: 'false',
    },
    logFile: path.join(dataDir, 'server.log'),
  });
  let browser: Browser | null = null;
  try {
    await waitForHttp(`${base}/healthz`, 60_000, server);
    const cms = { 'content-type': 'application/json', 'x-cms-token': CMS_TOKEN };
    await call(`${base}/api/parties/${PARTY}`, { method: 'PUT', headers: cms, body: JSON.stringify({ name: 'Sync bench', login_required: false }) });
    await call(`${base}/api/parties/${PARTY}/tracks`, {
      method: 'PUT',
      headers: cms,
      body: JSON.stringify({ type: 'album', id: ALBUM, service: 'umg_hls', country: 'de' }),
    });
    const tokens: string[] = [];
    for (let i = 0; i < cfg.fans; i++) {
      const res = await call(`${base}/api/parties/${PARTY}/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ real_name: `Sync fan ${i}`, display_name: `sync-fan-${i}` }),
      });
      tokens.push(((await res.json()) as SignupResponse).access_token!);
    }
    const script = await bundlePage();
    await call(`${base}/api/parties/${PARTY}/start`, { method: 'POST', headers: { 'x-cms-token': CMS_TOKEN } });
    const startedAt = Date.now();
    log('party started; fans joining');

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
    });
    const pages: Page[] = [];
    const joinedAt: number[] = [];
    for (let i = 0; i < cfg.fans; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('pageerror', (err) => log(`   fan ${i} page error: ${err.message}`));
      if (i === 1 && cfg.skewMs !== 0) {
        // This fan's wall clock is off: only the clock-offset estimate can put it back in sync.
        await page.addInitScript(`{ const skew = ${cfg.skewMs}; const real = Date.now; Date.now = () => real() + skew; }`);
      }
      const wait = startedAt + (i * cfg.joinSpreadS * 1000) / Math.max(1, cfg.fans - 1) - Date.now();
      if (wait > 0) await sleep(wait);
      // A page of the party server's origin (its health check), then the fan script in it: calls,
      // socket and streams are same-origin. (Playwright's request routing would break the socket.)
      await page.goto(`${base}/healthz`);
      await page.evaluate((p) => {
        (window as unknown as { __syncParams: unknown }).__syncParams = p;
      }, { party: PARTY, token: tokens[i]!, grid: cfg.gridMs });
      await page.addScriptTag({ content: script });
      joinedAt.push(Date.now());
      pages.push(page);
      log(`   fan ${i} joined${i === 1 && cfg.skewMs ? ` (clock skewed ${cfg.skewMs} ms)` : ''}`);
    }
    const runEnd = startedAt + cfg.durationS * 1000;
    // The server's timeline over the run, to judge each fan against the truth.
    const timeline: { at: number; status: PlayerStatusResponse['status'] }[] = [];
    for (let i = 0; i < 100_000 && Date.now() < runEnd; i++) {
      const res = await call(`${base}/api/parties/${PARTY}/player/status`, { headers: { authorization: `Bearer ${tokens[0]}` } });
      const body = (await res.json()) as PlayerStatusResponse;
      timeline.push({ at: body.server_time_ms, status: body.status });
      await sleep(1000);
    }
    const fans = await Promise.all(
      pages.map((p) => p.evaluate(() => window.__fan) as Promise<{ samples: Sample[]; errors: string[]; ready: boolean; trackChanges: number; clockSamples: number; states: string[] }>),
    );
    fans.forEach((f, i) => {
      if (f.errors.length) log(`   fan ${i} errors: ${f.errors.join('; ')}`);
      log(`   fan ${i} socket states: ${f.states.slice(0, 12).join(' > ')}`);
    });

    // Track starts on the server (from its status answers): samples shortly after one are "settling".
    const trackStarts = new Map<string, number>();
    for (const t of timeline) if (t.status && !trackStarts.has(t.status.track.id)) trackStarts.set(t.status.track.id, t.status.timestamp_ms - t.status.progress_ms);
    const truthAt = (at: number, track: string | null): number | null => {
      const s = [...timeline].reverse().find((t) => t.status && t.status.track.id === track)?.status;
      if (!s || s.is_paused) return null;
      return s.progress_ms + (at - s.timestamp_ms);
    };

    const byInstant = new Map<number, (Sample & { fan: number })[]>();
    fans.forEach((f, fan) => {
      for (const s of f.samples) if (s.at >= joinedAt[fan]! && s.at <= runEnd) byInstant.set(s.at, [...(byInstant.get(s.at) ?? []), { ...s, fan }]);
    });
    const pairwise: number[] = [];
    const pairwiseSettling: number[] = [];
    const vsServer: number[][] = fans.map(() => []);
    let instantsCompared = 0;
    let instantsSkipped = 0;
    for (const [at, samples] of [...byInstant.entries()].sort((a, b) => a[0] - b[0])) {
      const playing = samples.filter((s) => s.playing && s.pos !== null && s.track);
      for (const s of playing) {
        const truth = truthAt(at, s.track);
        const settling = at - joinedAt[s.fan]! < cfg.settleS * 1000 || at - (trackStarts.get(s.track!) ?? 0) < cfg.settleS * 1000;
        if (truth !== null && !settling) vsServer[s.fan]!.push(Math.abs(s.pos! - truth));
      }
      if (playing.length < 2 || new Set(playing.map((s) => s.track)).size !== 1) {
        instantsSkipped++;
        continue;
      }
      instantsCompared++;
      const settling =
        playing.some((s) => at - joinedAt[s.fan]! < cfg.settleS * 1000) || at - (trackStarts.get(playing[0]!.track!) ?? 0) < cfg.settleS * 1000;
      for (let i = 0; i < playing.length; i++) {
        for (let j = i + 1; j < playing.length; j++) (settling ? pairwiseSettling : pairwise).push(Math.abs(playing[i]!.pos! - playing[j]!.pos!));
      }
    }
    const result = {
      machine,
      when: new Date().toISOString(),
      config: cfg,
      fans: fans.map((f, i) => ({
        fan: i,
        clock_skew_ms: i === 1 ? cfg.skewMs : 0,
        samples: f.samples.length,
        track_changes_seen: f.trackChanges,
        clock_samples: f.clockSamples,
        errors: f.errors,
        offset_estimate_ms: Math.round(f.samples.at(-1)?.offset ?? NaN),
        vs_server_ms: quantiles(vsServer[i]!),
      })),
      pairwise_drift_ms: quantiles(pairwise),
      pairwise_drift_settling_ms: quantiles(pairwiseSettling),
      instants_compared: instantsCompared,
      instants_skipped: instantsSkipped,
      track_starts: trackStarts.size,
    };
    for (const f of result.fans) log(`   fan ${f.fan}: ${f.samples} samples, ${f.clock_samples} clock samples, offset estimate ${f.offset_estimate_ms} ms, ${f.track_changes_seen} track changes`);
    const header = ['measure', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'mean ms'];
    const rows: (string | number)[][] = [
      ['pairwise drift between fans (settled)', ...Object.values(result.pairwise_drift_ms)],
      [`pairwise drift, first ${cfg.settleS} s after a join or track start`, ...Object.values(result.pairwise_drift_settling_ms)],
      ...result.fans.map((f) => [`fan ${f.fan} vs server timeline${f.clock_skew_ms ? ` (clock skewed ${f.clock_skew_ms} ms, estimate ${f.offset_estimate_ms} ms)` : ''}`, ...Object.values(f.vs_server_ms)]),
    ];
    process.stdout.write('\n' + textTable(header, rows) + '\n\n');
    const md = [
      `# Sync benchmark, ${result.when}`,
      '',
      `Machine: ${machineLine(machine)}.`,
      '',
      `Run: ${cfg.fans} headless Chromium fans (Debian chromium, one browser context each) playing party \`${PARTY}\` over umg_hls (HLS via hls.js) with the party app's own HlsPlayer and PlayerController and the protocol client's PartySocket clock-offset estimate; ${cfg.durationS} s from the party start, fans joining over ${cfg.joinSpreadS} s, fan 1's wall clock skewed by ${cfg.skewMs} ms. Positions are the audio element's currentTime, recorded by each fan on a ${cfg.gridMs} ms grid of the shared machine clock and interpolated to the grid instant. ${result.track_starts} track start(s) in the run; ${instantsCompared} instants compared, ${instantsSkipped} skipped (fewer than two fans playing the same track).`,
      '',
      markdownTable(header, rows),
      '',
      'Pairwise drift: |position of fan i - position of fan j| at the same instant, over every pair. Versus server: |position - (progress_ms + (instant - timestamp_ms))| from the server\'s player status. Samples within the settle time after a fan joined or a track started (stream loading) are reported apart.',
      '',
    ].join('\n');
    if (!args['no-save']) {
      const files = writeResults('sync', result, md);
      log(`results: ${path.relative(process.cwd(), files.md)}`);
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
