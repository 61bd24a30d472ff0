/**
 * Rolling restart and crash behind the proxy: N fans (default 10,000) through nginx with the
 * `deploy/` configuration (TLS, two host names) onto 2 nodes on one PostgreSQL and one Redis,
 * chat running. Per scenario (SIGTERM, then SIGKILL; each on fresh nodes and sockets) one node
 * goes away and is started again; its fans reconnect through the proxy as the party app does
 * (bench/reconnect/worker.ts) and resume on the other node. Measured: every fan back with every
 * stored message (no gap, no duplicate), time from the node going away to each fan being back
 * (p50/p99/max, within 10 and 30 s), and the surviving node's fans' latency from due time during
 * the event against their steady state before it, in the same run.
 * Usage: `npm run bench:rolling -- --fans 10000 --rate 10`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { findNginx, selfSignedCertificate, startProxy, writeProxyConfig } from '../../apps/server/src/test/nginxProxy.ts';
import { sample } from '../../apps/server/src/test/prometheusText.ts';
import { integerReader } from '../lib/args.ts';
import { coresUsed, cpuSnapshot } from '../lib/cpuShare.ts';
import { ALL_CPUS, LAST_CPU, OTHER_CPUS, pidsNamed, pinProcess } from '../lib/pin.ts';
import { LATE_MS, runChatLoad } from '../lib/chatLoad.ts';
import { signUpFans, startFanfareServer, type FanfareServer } from '../lib/fanfare.ts';
import { Histogram } from '../lib/histogram.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { freePort, sleep, stopProcess } from '../lib/processes.ts';
import { markdownTable, serverLogDir, textTable, writeResults } from '../lib/results.ts';
import { createBenchParty, fanPosters, PARTY_ID, posterCount } from '../fanout/targets.ts';
import { backPhases, backTimes, FanFleet, quantile } from '../reconnect/fleet.ts';
import type { FanOutcome, FanWorkerReport } from '../reconnect/protocol.ts';
import { listenQueueCounters, storedSeqIds, summarizeOutcomes } from '../reconnect/outcomes.ts';

const PARTY_HOST = 'party.test';
/** The survivor's latency is also read in slices of the event window, to show its shape. */
const SLICE_MS = 2_000;
const SLICES = 15;
const coresLine = (c: NonNullable<ScenarioResult['cores_used']>) => Object.keys(c.event).map((g) => `${g} ${c.steady[g] ?? 0} → ${c.event[g]}`).join(', ');
const slicesLine = (c: NonNullable<ScenarioResult['cores_used']>) =>
  ['machine', 'steal', 'survivor', 'node 1', 'load client', 'nginx'].map((g) => `${g} ${c.slices.map((x) => (x[g] ?? 0).toFixed(2)).join(' ')}`).join('; ');
const CMS_HOST = 'cms.test';
/** The nodes serve /metrics with it: the survivor's own event-loop delay is read per slice. */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/**
 * The node's event-loop delay (p99 and max, ms) since the previous read: prom-client resets its
 * delay histogram on every scrape. Null when the node does not answer within a second.
 */
async function loopDelaySinceLastRead(base: string): Promise<{ p99: number; max: number } | null> {
  try {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` }, signal: AbortSignal.timeout(1_000) });
    const text = await res.text();
    const read = (name: string) => Math.round(sample(text, `fanfare_process_nodejs_eventloop_lag_${name}_seconds`) * 1000);
    return { p99: read('p99'), max: read('max') };
  } catch {
    return null;
  }
}

const { values: args } = parseArgs({
  options: {
    fans: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '5' },
    steady: { type: 'string', default: '15' },
    settle: { type: 'string', default: '40' },
    'restart-after': { type: 'string', default: '1' },
    scenarios: { type: 'string', default: 'sigterm,sigkill' },
    workers: { type: 'string', default: '2' },
    observers: { type: 'string', default: '200' },
    'shared-socket-port': { type: 'boolean', default: false },
    pin: { type: 'string', default: '' },
    concurrency: { type: 'string', default: '200' },
    'http-connections': { type: 'string', default: '128' },
    'nginx-workers': { type: 'string', default: '2' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'redis-url': { type: 'string', default: process.env.REDIS_URL || 'redis://127.0.0.1:6379' },
    'no-save': { type: 'boolean', default: false },
    name: { type: 'string', default: 'rolling' },
  },
});
const intArg = integerReader(args);
const cfg = {
  fans: intArg('fans', 2, 20_000),
  rate: intArg('rate', 1, 200),
  warmupS: intArg('warmup', 0, 120),
  steadyS: intArg('steady', 2, 300),
  settleS: intArg('settle', 31, 300),
  /** Seconds from the signal until the node is started again (at least until it exited). */
  restartAfterS: intArg('restart-after', 0, 300),
  scenarios: String(args.scenarios).split(',').filter((s): s is 'sigterm' | 'sigkill' => s === 'sigterm' || s === 'sigkill'),
  workers: intArg('workers', 1, 8),
  observers: intArg('observers', 0, 2_000),
  /** The nodes take socket upgrades on PORT, as before SOCKET_PORT. */
  sharedSocketPort: Boolean(args['shared-socket-port']),
  /**
   * `--pin survivor`: the surviving node alone on the last CPU, everything else (this process and
   * what it starts, nginx, PostgreSQL, Redis, the other node) on the others, as on a machine of its
   * own. `--pin survivor,nginx,observers` puts nginx and the observers' worker with it.
   */
  pin: new Set(String(args.pin).split(',').filter((w): w is 'survivor' | 'nginx' | 'observers' => ['survivor', 'nginx', 'observers'].includes(w))),
  concurrency: intArg('concurrency', 1, 5000),
  httpConnections: intArg('http-connections', 1, 10_000),
  nginxWorkers: intArg('nginx-workers', 1, 8),
  pgUrl: String(args['pg-url']),
  redisUrl: String(args['redis-url']),
};
if (cfg.scenarios.length === 0) throw new Error('--scenarios: sigterm, sigkill or both');

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const load1 = () => Math.round(os.loadavg()[0]! * 100) / 100;

type Figures = ReturnType<typeof figures>;
interface ScenarioResult extends Figures {
  scenario: 'sigterm' | 'sigkill';
  fans: number;
  connected: number;
  messages_stored: number;
  posts_failed: Record<string, number>;
  node_back_ms: number;
  /** Machine-wide listen-queue overflows from the signal to the end of the chat (nstat). */
  listen_overflows: number;
  /** The same figures over the observers' worker only (--observers). */
  observers: Figures | null;
  /** Per 2 s slice from the signal, each load-client worker's worst timer lateness (ms). */
  client_late_ms_by_slice?: number[][];
  /** Cores each process group used in the steady window and in the 30 s from the signal. */
  cores_used?: { steady: Record<string, number>; event: Record<string, number>; slices: Record<string, number>[] };
  summary: ReturnType<typeof summarizeOutcomes>;
  load_before: number;
  load_after: number;
  client_loop_delay_p99_ms: number[];
  /** The surviving node's own event-loop delay (p99/max ms) in the steady window and per 2 s slice. */
  survivor_loop_delay_ms?: { steady: { p99: number; max: number } | null; slices: ({ p99: number; max: number } | null)[] };
  /** The slowest chat post's answer (ms after due) in the steady window and per 2 s slice from the signal. */
  chat_answer_max_ms?: { steady: number; slices: number[] };
}

/** Back times and the survivor's latency over a set of fans and the reports of their workers. */
function figures(fans: FanOutcome[], reports: FanWorkerReport[], goneAt: number) {
  const back = backTimes(fans, goneAt);
  const pct = (ms: number) => Math.round((back.filter((b) => b <= ms).length / Math.max(1, back.length)) * 1000) / 10;
  // The surviving node's fans are those that never dropped; their samples split by due time.
  const steady = new Histogram(65_535);
  const event = new Histogram(65_535);
  const slices = Array.from({ length: SLICES }, () => new Histogram(65_535));
  for (const sp of reports.map((r) => r.latency.steady_fans)) {
    steady.addSparse(sp.steady ?? []);
    event.addSparse(sp.event ?? []);
    slices.forEach((h, i) => h.addSparse(sp[`slice${i}`] ?? []));
  }
  const q = (h: Histogram) => ({ p50: h.quantile(0.5), p99: h.quantile(0.99), n: h.total });
  return {
    back_ms_from_gone: { p50: quantile(back, 0.5), p99: quantile(back, 0.99), max: quantile(back, 1) },
    back_phases_ms: backPhases(fans, goneAt),
    back_within_10s_pct: pct(10_000),
    back_within_30s_pct: pct(30_000),
    survivor: {
      fans: fans.filter((f) => f.droppedAt === null).length,
      steady: q(steady),
      event: q(event),
      slices_p99: slices.map((h) => h.quantile(0.99)),
      ratio_p99: Math.round((event.quantile(0.99) / steady.quantile(0.99)) * 100) / 100,
    },
  };
}

async function runScenario(scenario: 'sigterm' | 'sigkill', env: NodeJS.ProcessEnv, tokens: string[], logDir: string): Promise<ScenarioResult> {
  log(`== ${scenario}: 2 nodes behind nginx, ${cfg.fans} fans`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-rolling-'));
  fs.chmodSync(dir, 0o755);
  const nodes: (FanfareServer & { port: number; cmsPort: number; dataDir: string })[] = [];
  let fleet: FanFleet | null = null;
  let proxy: ReturnType<typeof startProxy> | null = null;
  try {
    // Each node's SOCKET_PORT (unless --shared-socket-port): upgrades in an accept queue of their own.
    const socketPorts = [await freePort(), await freePort()];
    const nodeEnv = (i: number) => (cfg.sharedSocketPort ? env : { ...env, SOCKET_PORT: String(socketPorts[i]) });
    const socketsOf = (i: number) => `127.0.0.1:${cfg.sharedSocketPort ? nodes[i]!.port : socketPorts[i]}`;
    for (let i = 0; i < 2; i++) nodes.push(await startFanfareServer({ env: nodeEnv(i), nodeArgs: process.env.BENCH_NODE_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_NODE_CPU_PROF}`] : undefined, logFile: path.join(logDir, `${scenario}-node${i}.log`) }));
    const { cert, key, ca } = selfSignedCertificate(dir, [PARTY_HOST, CMS_HOST]);
    const proxyPort = await freePort();
    writeProxyConfig(findNginx()!, {
      dir,
      listen: `127.0.0.1:${proxyPort}`,
      partyHost: PARTY_HOST,
      cmsHost: CMS_HOST,
      cert,
      key,
      nodes: [
        { party: `127.0.0.1:${nodes[0]!.port}`, sockets: socketsOf(0), cms: `127.0.0.1:${nodes[0]!.cmsPort}` },
        { party: `127.0.0.1:${nodes[1]!.port}`, sockets: socketsOf(1), cms: `127.0.0.1:${nodes[1]!.cmsPort}` },
      ],
      workerProcesses: cfg.nginxWorkers,
      workerConnections: Math.ceil((cfg.fans * 2.5) / cfg.nginxWorkers) + 1024,
    });
    proxy = startProxy(findNginx()!, dir);
    await sleep(500);
    const publicBase = `https://${PARTY_HOST}:${proxyPort}`;
    const fanTokens = tokens.slice(0, cfg.fans);
    const started = await FanFleet.start({
      fans: fanTokens.map((t) => ({ url: `${publicBase.replace(/^https/, 'wss')}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(t)}`, token: t })),
      workers: cfg.workers,
      httpBase: publicBase,
      partyId: PARTY_ID,
      tls: { caPem: ca.toString('utf8'), connectHost: '127.0.0.1' },
      concurrency: cfg.concurrency,
      httpConnections: cfg.httpConnections,
      windows: [],
      observers: cfg.observers,
      log,
    });
    fleet = started.fleet;
    // The chat is posted to the node that stays (directly, as an API gateway would): the other
    // node's fans hear it through Redis, and the rate does not dip while a node is away.
    const [leaving, staying] = [nodes[0]!, nodes[1]!];
    if (cfg.pin.has('survivor')) {
      pinProcess(staying.child.pid!, LAST_CPU);
      if (cfg.pin.has('nginx')) for (const pid of pidsNamed(['nginx'])) pinProcess(pid, LAST_CPU);
      if (cfg.pin.has('observers')) for (const pid of fleet.pids().observers) pinProcess(pid, LAST_CPU);
    }
    const loadBefore = load1();
    const chatStart = Date.now() + 500;
    const steadyFrom = chatStart + cfg.warmupS * 1000;
    const eventAt = steadyFrom + cfg.steadyS * 1000;
    const chatEnd = eventAt + cfg.settleS * 1000;
    // The windows of due times compared for the surviving node's fans.
    fleet.setWindows([
      { name: 'steady', t0: steadyFrom, t1: eventAt },
      { name: 'event', t0: eventAt, t1: eventAt + 30_000 },
      // The event's shape: 2 s slices of due time, to see when the survivor's fans wait.
      ...Array.from({ length: SLICES }, (_, i) => ({ name: `slice${i}`, t0: eventAt + i * SLICE_MS, t1: eventAt + (i + 1) * SLICE_MS })),
    ]);
    // Who holds the 2 cores, in the steady window and in the 30 s from the signal.
    const snapshot = () => {
      const { bulk, observers } = fleet!.pids();
      return cpuSnapshot({ 'load client': bulk, observers, survivor: [staying.child.pid!], 'node 1': [nodes[0]!.child.pid!], 'chat poster': [process.pid] });
    };
    const atSteady = sleep(steadyFrom - Date.now()).then(snapshot);
    // One more at the end of each 2 s slice from the signal (the last is 30 s after it).
    const sliceEnds = Array.from({ length: SLICES }, (_, i) => sleep(eventAt + (i + 1) * SLICE_MS - Date.now()).then(snapshot));
    // The survivor's own event-loop delay: read at the steady window's start (to reset it), at its
    // end, and at the end of each slice, so a slow slice shows whether the node's loop or the rest
    // of the way (the machine, the database, the client) held the fans' messages.
    const loopReads = [steadyFrom, eventAt, ...Array.from({ length: SLICES }, (_, i) => eventAt + (i + 1) * SLICE_MS)].map((t) =>
      sleep(t - Date.now()).then(() => loopDelaySinceLastRead(staying.base)),
    );
    log(`   chat ${cfg.rate}/s for ${((chatEnd - chatStart) / 1000).toFixed(0)} s; ${scenario} at +${cfg.warmupS + cfg.steadyS} s`);
    const chat = runChatLoad(fanPosters([staying.base], tokens, cfg.rate), cfg.rate, chatStart, chatEnd);
    await sleep(eventAt - Date.now());
    const listen0 = listenQueueCounters();
    const atEvent = snapshot();
    const goneAt = Date.now();
    const exited = new Promise<void>((r) => leaving.child.once('exit', () => r()));
    leaving.child.kill(scenario === 'sigterm' ? 'SIGTERM' : 'SIGKILL');
    await exited;
    log(`   node 1 exited ${Date.now() - goneAt} ms after ${scenario.toUpperCase()}`);
    await sleep(Math.max(0, goneAt + cfg.restartAfterS * 1000 - Date.now()));
    const again = await startFanfareServer({ env: nodeEnv(0), dataDir: leaving.dataDir, port: leaving.port, cmsPort: leaving.cmsPort, logFile: path.join(logDir, `${scenario}-node0-again.log`) });
    nodes[0] = again;
    const nodeBackMs = Date.now() - goneAt;
    log(`   node 1 answering again ${(nodeBackMs / 1000).toFixed(1)} s after it went away`);
    const posted = await chat;
    const listen1 = listenQueueCounters();
    await sleep(3000);
    const loadAfter = load1();
    // At 10,000 fans the survivor may still be catching up: a few tries before giving up.
    let expected: number[] = [];
    for (let attempt = 1; ; attempt++) {
      try {
        expected = await storedSeqIds(staying.base, tokens[0]!);
        break;
      } catch (e) {
        if (attempt >= 4) throw e;
        log(`   reading the stored messages failed (${String(e)}); again in 5 s`);
        await sleep(5000);
      }
    }
    log(`   checking ${cfg.fans} fans against ${expected.length} stored messages`);
    const { fans, reports, observer } = await fleet.verify(expected);
    const gaps = fans.filter((f) => f.missing > 0).slice(0, 2);
    if (gaps.length) log(`   fans with gaps, e.g.: ${JSON.stringify(gaps.map((f) => ({ missing: f.missingRange, n: f.missing, first: f.firstSeq, dup: f.dupSent, trace: f.trace })))}`);
    const s = summarizeOutcomes(fans);
    const all = figures(fans, reports, goneAt);
    const observed = observer ? figures(observer.fans, [observer], goneAt) : null;
    const result: ScenarioResult = {
      scenario,
      fans: cfg.fans,
      connected: started.ready,
      messages_stored: expected.length,
      posts_failed: posted.failed,
      node_back_ms: nodeBackMs,
      listen_overflows: listen1.overflows - listen0.overflows,
      ...all,
      observers: observed,
      summary: s,
      load_before: loadBefore,
      load_after: loadAfter,
      client_loop_delay_p99_ms: reports.map((r) => r.loop_delay_ms.p99),
    };
    const clientLate = Array.from({ length: SLICES }, (_, i) => {
      const [a, b] = [Math.floor((eventAt + i * SLICE_MS) / 1000), Math.floor((eventAt + (i + 1) * SLICE_MS) / 1000)];
      return reports.map((r) => Math.max(0, ...r.late_by_second.filter(([sec]) => sec >= a && sec < b).map(([, ms]) => ms)));
    });
    result.client_late_ms_by_slice = clientLate;
    const ends = await Promise.all(sliceEnds);
    const slices = ends.map((end, i) => coresUsed(i === 0 ? atEvent : ends[i - 1]!, end));
    result.cores_used = { steady: coresUsed(await atSteady, atEvent), event: coresUsed(atEvent, ends.at(-1)!), slices };
    log(`   cores used, steady → 30 s from the signal: ${coresLine(result.cores_used)}`);
    log(`   cores by ${SLICE_MS / 1000} s from the signal: ${slicesLine(result.cores_used)}`);
    for (const [who, f] of [['all fans', all], [`${cfg.observers} observers`, observed]] as const) {
      if (!f) continue;
      log(`   ${who}: back p50/p99/max ${f.back_ms_from_gone.p50}/${f.back_ms_from_gone.p99}/${f.back_ms_from_gone.max} ms, ≤ 10 s ${f.back_within_10s_pct} %; survivor p99 ${f.survivor.steady.p99} → ${f.survivor.event.p99} ms (${f.survivor.ratio_p99}×)`);
      log(`     survivor p99 ms by ${SLICE_MS / 1000} s of due time from the signal: ${f.survivor.slices_p99.join(' ')}`);
    }
    const [, steadyLoop, ...sliceLoops] = await Promise.all(loopReads);
    const delayText = (d: { p99: number; max: number } | null | undefined) => (d ? `${d.p99}/${d.max}` : '-');
    result.survivor_loop_delay_ms = { steady: steadyLoop ?? null, slices: sliceLoops.map((d) => d ?? null) };
    log(`   survivor's event-loop delay p99/max ms, steady ${delayText(steadyLoop)}, by ${SLICE_MS / 1000} s from the signal: ${sliceLoops.map(delayText).join(' ')}`);
    log(`   load client workers' worst timer lateness ms by ${SLICE_MS / 1000} s from the signal: ${clientLate.map((w) => w.join('/')).join(' ')}`);
    const lateBySlice = Array.from({ length: SLICES }, (_, i) => posted.late_dues.filter((d) => d >= eventAt + i * SLICE_MS && d < eventAt + (i + 1) * SLICE_MS).length);
    // The post's own way (HTTP, the insert, the answer) is part of every fan's latency from due time.
    const answeredMax = (t0: number, t1: number) => Math.max(0, ...posted.posted.filter((p) => p.due >= t0 && p.due < t1).map((p) => p.answeredMs));
    result.chat_answer_max_ms = { steady: answeredMax(steadyFrom, eventAt), slices: Array.from({ length: SLICES }, (_, i) => answeredMax(eventAt + i * SLICE_MS, eventAt + (i + 1) * SLICE_MS)) };
    log(`   chat posts answered p50/p99/max ${posted.answer_ms.p50}/${posted.answer_ms.p99}/${posted.answer_ms.max} ms after due (sent p99/max ${posted.send_lag_ms.p99}/${posted.send_lag_ms.max} ms late); answered over ${LATE_MS} ms late by 2 s slice: ${lateBySlice.join(' ')}; slowest answer ms, steady ${result.chat_answer_max_ms.steady}, by 2 s slice: ${result.chat_answer_max_ms.slices.join(' ')}`);
    log(`   complete ${s.complete}/${cfg.fans}; listen-queue overflows ${result.listen_overflows}`);
    const ph = result.back_phases_ms;
    const obs = result.observers?.back_phases_ms;
    const openPath = (p: typeof ph) => `dropped ${p.dropped.p50}/${p.dropped.p99} after the signal, attempt +${p.attempt.p50}/${p.attempt.p99}, TLS +${p.tls.p50}/${p.tls.p99}, upgrade +${p.upgrade.p50}/${p.upgrade.p99}`;
    log(`   phases p50/p99 ms: ${openPath(ph)}${obs ? ` (observers: ${openPath(obs)})` : ''}; open ${ph.open.p50}/${ph.open.p99} after the signal, hello +${ph.hello.p50}/${ph.hello.p99}, caught up +${ph.catch_up.p50}/${ph.catch_up.p99}; attempt errors ${JSON.stringify(s.errors)}; close codes ${JSON.stringify(s.close_codes)}`);
    return result;
  } finally {
    fleet?.stop();
    if (proxy) await stopProcess(proxy);
    await Promise.all(nodes.map((n) => n.stop()));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const HEADER = ['scenario', 'fans', 'dropped', 'back', 'p50 back ms', 'p99 back ms', 'max back ms', '≤ 10 s %', '≤ 30 s %', 'complete', 'missing', 'extra', 'dup sent', 'resumed', 'resynced', 'survivor fans', 'survivor p99 steady ms', 'survivor p99 event ms', 'ratio', 'observers: p99 back ms', 'observers: ≤ 10 s %', 'observers: survivor p99 steady → event ms', 'observers: ratio', 'listen overflows', 'node back ms', 'load before/after'];
const row = (r: ScenarioResult) => {
  const o = r.observers;
  return [r.scenario, r.fans, r.summary.dropped, r.summary.back, r.back_ms_from_gone.p50, r.back_ms_from_gone.p99, r.back_ms_from_gone.max, r.back_within_10s_pct, r.back_within_30s_pct, r.summary.complete, r.summary.missing, r.summary.extra, r.summary.dup_sent, r.summary.resumed, r.summary.resynced, r.survivor.fans, r.survivor.steady.p99, r.survivor.event.p99, r.survivor.ratio_p99,
    o?.back_ms_from_gone.p99 ?? '', o?.back_within_10s_pct ?? '', o ? `${o.survivor.steady.p99} → ${o.survivor.event.p99}` : '', o?.survivor.ratio_p99 ?? '', r.listen_overflows, r.node_back_ms, `${r.load_before} / ${r.load_after}`];
};

async function main(): Promise<void> {
  if (!findNginx()) throw new Error('nginx is not installed (apt-get install -y nginx)');
  const machine = machineInfo();
  const when = new Date().toISOString();
  const logDir = serverLogDir();
  log(`rolling bench on ${machineLine(machine)}; server logs in ${logDir}`);
  const dbName = `fanfare_rolling_${process.pid}`;
  const admin = new pg.Client({ connectionString: cfg.pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(cfg.pgUrl);
  dbUrl.pathname = `/${dbName}`;
  const prefix = `fanfare-rolling-${process.pid}:`;
  const redis = new Redis(cfg.redisUrl, { maxRetriesPerRequest: 2 });
  const env: NodeJS.ProcessEnv = { DEMO_SEED: 'false', DATABASE_URL: dbUrl.toString(), REDIS_URL: cfg.redisUrl, REDIS_KEY_PREFIX: prefix, TRUST_PROXY: '127.0.0.1', METRICS_TOKEN };
  const results: ScenarioResult[] = [];
  // --pin survivor: this process (whose children inherit it) and the shared services on all CPUs
  // but the last, which runScenario gives the surviving node.
  const services = cfg.pin.has('survivor') ? pidsNamed(['postgres', 'redis-server']) : [];
  if (cfg.pin.has('survivor')) for (const pid of [process.pid, ...services]) pinProcess(pid, OTHER_CPUS);
  try {
    const setup = await startFanfareServer({ env, logFile: path.join(logDir, 'setup.log') });
    let tokens: string[];
    try {
      await createBenchParty(setup.base);
      tokens = await signUpFans(setup.base, PARTY_ID, Math.max(cfg.fans, posterCount(cfg.rate)), log);
    } finally {
      await setup.stop();
    }
    for (const scenario of cfg.scenarios) results.push(await runScenario(scenario, env, tokens, logDir));
  } finally {
    for (const pid of [process.pid, ...services]) pinProcess(pid, ALL_CPUS);
    const keys = await redis.keys(`${prefix}*`).catch(() => [] as string[]);
    if (keys.length) await redis.del(...keys).catch(() => 0);
    redis.disconnect();
    await sleep(500);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e: unknown) => log(`   dropping ${dbName} failed: ${String(e)}`));
    await admin.end();
  }
  process.stdout.write(`\n${textTable(HEADER, results.map(row))}\n`);
  if (!args['no-save']) {
    const md = [
      `# Rolling restart and crash behind the proxy, ${when}`,
      '',
      `Machine: ${machineLine(machine)}. Shared with other engineers' work (load average per scenario in the table); nginx, both nodes, PostgreSQL, Redis and the load client share the 2 cores.`,
      '',
      `Run: ${cfg.fans.toLocaleString('en')} fans through nginx (\`deploy/nginx/fanfare.conf.template\` rendered as the topology test renders it: TLS, round robin over 2 nodes, ${cfg.nginxWorkers} worker(s), socket upgrades to ${cfg.sharedSocketPort ? 'PORT' : 'each node\'s SOCKET_PORT'}) onto 2 nodes on one PostgreSQL database and one Redis (${cfg.redisUrl}, own key prefix); chat ${cfg.rate} posts/s over HTTP to the node that stays; ${cfg.warmupS} s warm-up, ${cfg.steadyS} s steady state, then node 1 gets SIGTERM (graceful restart) or SIGKILL (crash); it is started again ${cfg.restartAfterS} s after the signal (once it exited); ${cfg.settleS} s to settle. Each scenario starts fresh nodes and sockets. Fans reconnect as the party app does (spec backoff and jitter, \`resume\`, REST catch-up after \`resync\`), ${cfg.workers} load-client workers, TLS sessions resumed.${cfg.pin.has('survivor') ? ` \`--pin ${[...cfg.pin].join(',')}\`: the surviving node${cfg.pin.size > 1 ? ` with ${[...cfg.pin].filter((w) => w !== 'survivor').join(' and ')}` : ' alone'} on the last CPU, everything else on the others.` : ''}`,
      '',
      markdownTable(HEADER, results.map(row)),
      '',
      '- "back": from the node going away (the signal) to the fan having said hello on a node and replayed everything it missed (or finished the REST catch-up after `resync`).',
      '- "survivor": fans that never dropped (the node that stayed); latency from the due time of each chat post, steady state = posts due in the steady window, event = posts due in the 30 s from the signal.',
      `- "observers": the first ${cfg.observers} fans, on a load-client worker of their own: their device is not also reconnecting thousands of other fans, so their figures show the proxy and the nodes rather than the load client's own queue (the bulk workers' timer lateness per 2 s slice is listed below).`,
      ...results.map((r) => `- ${r.scenario}: close codes ${JSON.stringify(r.summary.close_codes)}; attempt errors ${JSON.stringify(r.summary.errors)}; phases of back (p50 / p99 ms): socket open ${r.back_phases_ms.open.p50} / ${r.back_phases_ms.open.p99} after the signal, hello ${r.back_phases_ms.hello.p50} / ${r.back_phases_ms.hello.p99} after the open, caught up ${r.back_phases_ms.catch_up.p50} / ${r.back_phases_ms.catch_up.p99} after the hello; REST pages ${r.summary.rest_pages}, errors ${r.summary.rest_errors}; fans over 5 consecutive failures ${r.summary.over_retry_cap}; posts failed ${JSON.stringify(r.posts_failed)}; client loop delay p99 ${r.client_loop_delay_p99_ms.join(', ')} ms; workers' worst timer lateness per 2 s slice from the signal (ms, bulk workers then observers): ${(r.client_late_ms_by_slice ?? []).map((w) => w.join('/')).join(' ')}; survivor p99 per 2 s slice (all fans): ${r.survivor.slices_p99.join(' ')}${r.observers ? `, observers: ${r.observers.survivor.slices_p99.join(' ')}` : ''}${r.cores_used ? `; cores used, steady → 30 s from the signal: ${coresLine(r.cores_used)}; by 2 s slice: ${slicesLine(r.cores_used)}` : ''}.`),
      '',
    ].join('\n');
    const files = writeResults(String(args.name).replace(/[^\w.-]/g, '_'), { when, machine, config: cfg, results }, md);
    process.stdout.write(`\nwrote ${files.json}\nwrote ${files.md}\n`);
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
