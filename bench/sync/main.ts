/**
 * Sync benchmark (issue 16): headless Chromium fans, each its own browser process, play the same
 * party over HLS (the label's umg_hls stream) with the party app's own player code (HlsPlayer,
 * PlayerController with its continuous sync); every fan records its audio position on a shared
 * grid of instants of the machine clock; the bench reports each fan's error against the server's
 * timeline (p50/p95/max), and the spread between fans.
 *
 * Fans join at different times. One fan's clock (Date and performance.timeOrigin) is shifted by a
 * non-integer number of seconds (`--shift-ms`), so only the clock-offset estimate can put it in
 * sync; one fan reaches the server through a proxy that delays every chunk by a random
 * `--jitter` (40-120 ms each way), calls, streams and the socket alike. The run spans a track change.
 * Usage: `npm run bench:sync -- --fans 6 --duration 90`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
import { startDelayProxy, type DelayProxy } from './delayProxy.ts';
import type { FanRecord } from './page/main.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PARTY = 'sync-bench';
const CMS_TOKEN = 'bench-cms-token-0123456789abcdef';
/** The first demo album (Tidal Lights): its first track is 70.7 s long, so a run of 90 s spans a track change. */
const ALBUM = '6iz0r2rAVeYBGcpxZOyXHX';
/** The target: every fan within this of the server timeline at p95. */
const TARGET_P95_MS = 30;

const { values: args } = parseArgs({
  options: {
    fans: { type: 'string', default: '6' },
    /** Extra fans with the player as it was on 2026-11-22 (no continuous sync, legacy seek): the reference rows. */
    'reference-fans': { type: 'string', default: '1' },
    duration: { type: 'string', default: '90' },
    'join-spread': { type: 'string', default: '10' },
    'shift-ms': { type: 'string', default: '3617.5' },
    jitter: { type: 'string', default: '40-120' },
    grid: { type: 'string', default: '250' },
    settle: { type: 'string', default: '3' },
    'no-save': { type: 'boolean', default: false },
    /** Writes every fan's raw samples to this file (for a closer look). */
    dump: { type: 'string' },
  },
});
const [jitterMin, jitterMax] = args.jitter.split('-').map(Number) as [number, number];
const cfg = {
  fans: Math.max(3, Number(args.fans)),
  referenceFans: Math.max(0, Number(args['reference-fans'])),
  durationS: Number(args.duration),
  joinSpreadS: Number(args['join-spread']),
  /** Fan 1's clock is this far ahead of the machine's (ms). */
  shiftMs: Number(args['shift-ms']),
  /** Fan 2's link delays each chunk by a uniform draw in this range, each direction (ms). */
  jitterMs: [jitterMin, jitterMax] as const,
  gridMs: Number(args.grid),
  /** Samples this long after a fan joins or a track starts are reported apart (loading). */
  settleS: Number(args.settle),
};
const SHIFTED_FAN = 1;
const JITTERED_FAN = 2;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'];
/** The whole run is bounded: joins, the measured span, and this much for start-up and teardown. */
const HARD_LIMIT_MS = (cfg.durationS + cfg.joinSpreadS + 180) * 1000;

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

type Sample = FanRecord['samples'][number];

/** Shifts the page's wall clock (Date, Date.now, performance.timeOrigin) by `shift` ms, keeping the true one for the sampler. */
function clockShiftScript(shift: number): string {
  return `{
    const shift = ${shift};
    const RealDate = Date;
    const realNow = RealDate.now;
    const perfNow = performance.now.bind(performance);
    const origin = performance.timeOrigin;
    window.__trueNow = () => origin + perfNow();
    class ShiftedDate extends RealDate {
      constructor(...a) { if (a.length === 0) super(realNow() + shift); else super(...a); }
      static now() { return realNow() + shift; }
    }
    window.Date = ShiftedDate;
    Object.defineProperty(performance, 'timeOrigin', { get: () => origin + shift });
  }`;
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

interface FanPlan {
  fan: number;
  role: string;
  shiftMs: number;
  jittered: boolean;
  /** False for the reference fans: the 2026-11-22 player (legacy seek, no continuous sync). */
  continuousSync: boolean;
}

function planFans(): FanPlan[] {
  const fans = Array.from({ length: cfg.fans }, (_, fan) => ({
    fan,
    role: fan === SHIFTED_FAN ? `clock +${cfg.shiftMs} ms` : fan === JITTERED_FAN ? `link ${cfg.jitterMs[0]}-${cfg.jitterMs[1]} ms each way` : 'plain',
    shiftMs: fan === SHIFTED_FAN ? cfg.shiftMs : 0,
    jittered: fan === JITTERED_FAN,
    continuousSync: true,
  }));
  const refs = Array.from({ length: cfg.referenceFans }, (_, i) => ({
    fan: cfg.fans + i,
    role: 'reference: 2026-11-22 player (seek landed on first movement, no continuous sync)',
    shiftMs: 0,
    jittered: false,
    continuousSync: false,
  }));
  return [...fans, ...refs];
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const loads: number[] = [];
  const loadTimer = setInterval(() => loads.push(os.loadavg()[0]!), 1000);
  const hardLimit = setTimeout(() => {
    process.stderr.write(`sync bench: hard limit of ${HARD_LIMIT_MS / 1000} s reached, giving up\n`);
    process.exit(2);
  }, HARD_LIMIT_MS);
  log(`sync bench on ${machineLine(machine)}`);
  const plan = planFans();
  log(`${cfg.fans} fans + ${cfg.referenceFans} reference (one Chromium process each), ${cfg.durationS} s, joins spread over ${cfg.joinSpreadS} s; fan ${SHIFTED_FAN}: clock +${cfg.shiftMs} ms; fan ${JITTERED_FAN}: ${cfg.jitterMs.join('-')} ms delay each way`);
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
  const browsers: Browser[] = [];
  let proxy: DelayProxy | null = null;
  try {
    await waitForHttp(`${base}/healthz`, 60_000, server);
    proxy = await startDelayProxy({ targetPort: port, minMs: cfg.jitterMs[0], maxMs: cfg.jitterMs[1] });
    const cms = { 'content-type': 'application/json', 'x-cms-token': CMS_TOKEN };
    await call(`${base}/api/parties/${PARTY}`, { method: 'PUT', headers: cms, body: JSON.stringify({ name: 'Sync bench', login_required: false }) });
    await call(`${base}/api/parties/${PARTY}/tracks`, {
      method: 'PUT',
      headers: cms,
      body: JSON.stringify({ type: 'album', id: ALBUM, service: 'umg_hls', country: 'de' }),
    });
    const tokens: string[] = [];
    for (let i = 0; i < plan.length; i++) {
      const res = await call(`${base}/api/parties/${PARTY}/users`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ real_name: `Sync fan ${i}`, display_name: `sync-fan-${i}` }),
      });
      tokens.push(((await res.json()) as SignupResponse).access_token!);
    }
    const script = await bundlePage();
    // Every fan gets its own browser process, started before the party so starts do not eat its time.
    for (let i = 0; i < plan.length; i++) browsers.push(await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }));
    await call(`${base}/api/parties/${PARTY}/start`, { method: 'POST', headers: { 'x-cms-token': CMS_TOKEN } });
    const startedAt = Date.now();
    log('party started; fans joining');

    const pages: Page[] = [];
    const joinedAt: number[] = [];
    for (const f of plan) {
      const page = await (await browsers[f.fan]!.newContext()).newPage();
      page.on('pageerror', (err) => log(`   fan ${f.fan} page error: ${err.message}`));
      if (f.shiftMs !== 0) await page.addInitScript(clockShiftScript(f.shiftMs));
      const wait = startedAt + (f.fan * cfg.joinSpreadS * 1000) / Math.max(1, plan.length - 1) - Date.now();
      if (wait > 0) await sleep(wait);
      // A page of the party server's origin (its health check), then the fan script in it: calls,
      // socket and streams are same-origin. The jittered fan's origin is the delaying proxy.
      const origin = f.jittered ? `http://127.0.0.1:${proxy.port}` : base;
      await page.goto(`${origin}/healthz`);
      await page.evaluate((p) => {
        (window as unknown as { __syncParams: unknown }).__syncParams = p;
      }, { party: PARTY, token: tokens[f.fan]!, grid: cfg.gridMs, continuousSync: f.continuousSync });
      await page.addScriptTag({ content: script });
      joinedAt.push(Date.now());
      pages.push(page);
      log(`   fan ${f.fan} joined (${f.role})`);
    }
    const runEnd = startedAt + cfg.durationS * 1000;
    // The server's timeline over the run, to judge each fan against the truth (same machine clock).
    const timeline: { at: number; status: PlayerStatusResponse['status'] }[] = [];
    for (let i = 0; i < 100_000 && Date.now() < runEnd; i++) {
      const res = await call(`${base}/api/parties/${PARTY}/player/status`, { headers: { authorization: `Bearer ${tokens[0]}` } });
      const body = (await res.json()) as PlayerStatusResponse;
      timeline.push({ at: body.server_time_ms, status: body.status });
      await sleep(1000);
    }
    const fans = await Promise.all(pages.map((p) => p.evaluate(() => window.__fan)));
    if (args.dump) writeFileSync(args.dump, JSON.stringify({ joinedAt, timeline, fans }));
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
    const isSettling = (fan: number, at: number, track: string) =>
      at - joinedAt[fan]! < cfg.settleS * 1000 || at - (trackStarts.get(track) ?? 0) < cfg.settleS * 1000;

    const byInstant = new Map<number, (Sample & { fan: number })[]>();
    fans.forEach((f, fan) => {
      for (const s of f.samples) if (s.at >= joinedAt[fan]! && s.at <= runEnd) byInstant.set(s.at, [...(byInstant.get(s.at) ?? []), { ...s, fan }]);
    });
    const pairwise: number[] = [];
    const pairwiseSettling: number[] = [];
    /** Signed error against the timeline (position - timeline; negative: behind), settled samples. */
    const vsServer: number[][] = fans.map(() => []);
    const vsServerSettling: number[][] = fans.map(() => []);
    const nudging: number[] = fans.map(() => 0);
    let instantsCompared = 0;
    let instantsSkipped = 0;
    for (const [at, samples] of [...byInstant.entries()].sort((a, b) => a[0] - b[0])) {
      const playing = samples.filter((s) => s.playing && s.pos !== null && s.track);
      for (const s of playing) {
        const truth = truthAt(at, s.track);
        if (truth === null) continue;
        if (isSettling(s.fan, at, s.track!)) vsServerSettling[s.fan]!.push(s.pos! - truth);
        else {
          vsServer[s.fan]!.push(s.pos! - truth);
          if (s.rate !== 1) nudging[s.fan]!++;
        }
      }
      // The spread is among the fans under test (the reference fans are rows of their own).
      const tested = playing.filter((s) => plan[s.fan]!.continuousSync);
      if (tested.length < 2 || new Set(tested.map((s) => s.track)).size !== 1) {
        instantsSkipped++;
        continue;
      }
      instantsCompared++;
      const settling = tested.some((s) => isSettling(s.fan, at, s.track!));
      for (let i = 0; i < tested.length; i++) {
        for (let j = i + 1; j < tested.length; j++) (settling ? pairwiseSettling : pairwise).push(Math.abs(tested[i]!.pos! - tested[j]!.pos!));
      }
    }
    const expectedSamples = (fan: number) => Math.floor((runEnd - joinedAt[fan]!) / cfg.gridMs);
    const result = {
      machine,
      load_1m_during_run: { max: round(Math.max(...loads)), mean: round(loads.reduce((a, b) => a + b, 0) / (loads.length || 1)), at_end: round(os.loadavg()[0]!) },
      when: new Date().toISOString(),
      chromium: browsers[0]?.version() ?? null,
      config: cfg,
      target_p95_ms: TARGET_P95_MS,
      fans: fans.map((f, i) => {
        const abs = vsServer[i]!.map(Math.abs);
        const q = quantiles(abs);
        return {
          fan: i,
          role: plan[i]!.role,
          clock_shift_ms: plan[i]!.shiftMs,
          samples: f.samples.length,
          samples_playing_settled: vsServer[i]!.length,
          samples_expected: expectedSamples(i),
          track_changes_seen: f.trackChanges,
          clock_samples: f.clockSamples,
          errors: f.errors,
          /** The fan's estimate of server minus client clock; the truth is -clock_shift_ms. */
          offset_estimate_ms: round(f.samples.at(-1)?.offset ?? NaN),
          offset_estimate_error_ms: round((f.samples.at(-1)?.offset ?? NaN) + plan[i]!.shiftMs),
          seeks: f.seeks,
          hls_engine: f.engine,
          sync_steps: f.steps,
          share_of_samples_nudging: round(nudging[i]! / (vsServer[i]!.length || 1)),
          vs_server_abs_ms: q,
          vs_server_mean_signed_ms: round(vsServer[i]!.reduce((a, b) => a + b, 0) / (vsServer[i]!.length || 1)),
          vs_server_settling_abs_ms: quantiles(vsServerSettling[i]!.map(Math.abs)),
          continuous_sync: plan[i]!.continuousSync,
          meets_target: q.n > 0 && q.p95 < TARGET_P95_MS,
        };
      }),
      pairwise_spread_ms: quantiles(pairwise),
      pairwise_spread_settling_ms: quantiles(pairwiseSettling),
      proxy_delay_ms: { up: quantiles(proxy.drawn.up), down: quantiles(proxy.drawn.down) },
      instants_compared: instantsCompared,
      instants_skipped: instantsSkipped,
      track_starts: trackStarts.size,
    };
    for (const f of result.fans) {
      log(`   fan ${f.fan} (${f.role}): ${f.samples} samples, ${f.clock_samples} clock samples, offset estimate ${f.offset_estimate_ms} ms (error ${f.offset_estimate_error_ms} ms), ${f.seeks} seeks, steps ${JSON.stringify(f.sync_steps)}, ${f.track_changes_seen} track changes`);
    }
    const header = ['fan vs server timeline', 'n', 'p50 abs err ms', 'p95 abs err ms', 'max abs err ms', 'mean signed ms', 'clock est. error ms', 'seeks', 'nudging', `p95 < ${TARGET_P95_MS}`];
    const rows: (string | number)[][] = result.fans.map((f) => [
      `fan ${f.fan} (${f.role})`,
      f.vs_server_abs_ms.n,
      f.vs_server_abs_ms.p50,
      f.vs_server_abs_ms.p95,
      f.vs_server_abs_ms.max,
      f.vs_server_mean_signed_ms,
      f.offset_estimate_error_ms,
      f.seeks,
      `${Math.round(f.share_of_samples_nudging * 100)} %`,
      f.continuous_sync ? (f.meets_target ? 'yes' : 'NO') : '(reference)',
    ]);
    const tested = vsServer.filter((_, i) => plan[i]!.continuousSync).flat();
    const allQ = quantiles(tested.map(Math.abs));
    const allMeet = result.fans.every((f) => !f.continuous_sync || f.meets_target);
    rows.splice(cfg.fans, 0, [`all ${cfg.fans} fans`, allQ.n, allQ.p50, allQ.p95, allQ.max, round(tested.reduce((a, b) => a + b, 0) / (allQ.n || 1)), '', '', '', allMeet ? 'yes' : 'NO']);
    const spreadHeader = ['spread between fans', 'n', 'p50 ms', 'p95 ms', 'max ms'];
    const spreadRows: (string | number)[][] = [
      ['pairwise |pos i - pos j|, settled', result.pairwise_spread_ms.n, result.pairwise_spread_ms.p50, result.pairwise_spread_ms.p95, result.pairwise_spread_ms.max],
      [`pairwise, first ${cfg.settleS} s after a join or track start`, result.pairwise_spread_settling_ms.n, result.pairwise_spread_settling_ms.p50, result.pairwise_spread_settling_ms.p95, result.pairwise_spread_settling_ms.max],
      ...result.fans.map((f) => [`fan ${f.fan} vs server, first ${cfg.settleS} s after a join or track start`, f.vs_server_settling_abs_ms.n, f.vs_server_settling_abs_ms.p50, f.vs_server_settling_abs_ms.p95, f.vs_server_settling_abs_ms.max]),
    ];
    const loadLine = `load (1 min) ${machine.loadavg_1m_at_start} at start, mean ${result.load_1m_during_run.mean}, max ${result.load_1m_during_run.max}, ${result.load_1m_during_run.at_end} at end`;
    process.stdout.write(`\n${machineLine(machine)}\n${loadLine}\n\n${textTable(header, rows)}\n\n${textTable(spreadHeader, spreadRows)}\n\n`);
    const md = [
      `# Sync benchmark, ${result.when}`,
      '',
      `Machine: ${machineLine(machine)}; ${loadLine}.`,
      '',
      `Run: ${cfg.fans} headless Chromium fans plus ${cfg.referenceFans} reference fan(s), each its own browser process (Debian chromium ${result.chromium}), playing party \`${PARTY}\` over umg_hls (HLS via ${[...new Set(result.fans.map((f) => f.hls_engine === 'browser' ? "the browser's own HLS" : f.hls_engine))].join(' and ')}) with the party app's own HlsPlayer and PlayerController (start alignment plus the continuous sync: a step every 250 ms, playback rate for small errors, seek past 250 ms; the reference fans run the player as it was on 2026-11-22: start alignment only, with a seek counted as landed once currentTime moved 10 ms past its target) and the protocol client's PartySocket clock-offset estimate; ${cfg.durationS} s from the party start, fans joining over ${cfg.joinSpreadS} s. Fan ${SHIFTED_FAN}'s clock (Date, Date.now, performance.timeOrigin) is ${cfg.shiftMs} ms ahead of the machine's. Fan ${JITTERED_FAN} reaches the server through a TCP proxy that delays every chunk by a uniform ${cfg.jitterMs[0]}-${cfg.jitterMs[1]} ms in each direction, order kept (drawn: up p50 ${result.proxy_delay_ms.up.p50} ms, down p50 ${result.proxy_delay_ms.down.p50} ms). Positions are the audio element's currentTime, recorded by each fan on a ${cfg.gridMs} ms grid of the true machine clock and interpolated to the grid instant. ${result.track_starts} track start(s) in the run; ${instantsCompared} instants compared, ${instantsSkipped} skipped (fewer than two fans playing the same track).`,
      '',
      markdownTable(header, rows),
      '',
      markdownTable(spreadHeader, spreadRows),
      '',
      `Error against the server timeline: position - (progress_ms + (instant - timestamp_ms)) from the server's player status, same machine clock; quantiles of the absolute error, and the mean signed error (negative: behind). "clock est. error": the fan's clock-offset estimate minus the true offset. "nudging": share of settled samples at a playback rate other than 1. Samples within ${cfg.settleS} s after a fan joined or a track started (stream loading, first alignment) are reported apart. Pairwise: |position of fan i - position of fan j| at the same instant, over every pair.`,
      '',
    ].join('\n');
    if (!args['no-save']) {
      const files = writeResults('sync', result, md);
      log(`results: ${path.relative(process.cwd(), files.md)}`);
    }
  } finally {
    clearInterval(loadTimer);
    clearTimeout(hardLimit);
    for (const b of browsers) await b.close().catch(() => undefined);
    await proxy?.close();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
