/**
 * Fan-out benchmark: N fans in one party, chat messages at a fixed rate through the fake-traffic
 * call, measured at the fans' sockets (latency against the server's `timestamp_ms`, deliveries,
 * lost and doubled messages per socket) with the server's CPU and RSS from /proc. Fanfare and the
 * two references run one after the other in the same invocation, with the same load client and
 * the same N, rate and window. Usage: `npm run bench:fanout -- --fans 10000 --rate 100`.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { summarizeProfile, type ProfileSummary } from '../lib/cpuprofile.ts';
import { Histogram } from '../lib/histogram.ts';
import { RemoteProfiler } from '../lib/inspector.ts';
import { machineInfo, machineLine, type MachineInfo } from '../lib/machine.ts';
import { MachineCpu, ProcSampler, rssMb, type ProcStats } from '../lib/proc.ts';
import { freePort, sleep } from '../lib/processes.ts';
import { markdownTable, RESULTS_DIR, textTable, today, writeResults } from '../lib/results.ts';
import type { FromWorker, ToWorker, WorkerReport } from './protocol.ts';
import { startTarget, TARGET_LABELS, TARGET_NAMES, type RunningTarget, type TargetName } from './targets.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const { values: args } = parseArgs({
  options: {
    fans: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '5' },
    window: { type: 'string', default: '20' },
    drain: { type: 'string', default: '5' },
    workers: { type: 'string', default: '2' },
    targets: { type: 'string', default: TARGET_NAMES.join(',') },
    'batch-ms': { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '100' },
    'connect-timeout': { type: 'string', default: '60' },
    'cpu-prof': { type: 'boolean', default: false },
    'no-save': { type: 'boolean', default: false },
    name: { type: 'string', default: 'fanout' },
    'quiet-load': { type: 'string', default: '1.5' },
    'quiet-wait': { type: 'string', default: '90' },
  },
});

const cfg = {
  fans: intArg('fans', 1, 50_000),
  rate: Number(args.rate),
  warmupS: intArg('warmup', 0, 120),
  windowS: intArg('window', 1, 600),
  drainS: intArg('drain', 1, 120),
  workers: intArg('workers', 1, 8),
  batchMs: intArg('batch-ms', 0, 1000),
  concurrency: intArg('concurrency', 1, 5000),
  connectTimeoutS: intArg('connect-timeout', 1, 600),
  targets: String(args.targets)
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean) as TargetName[],
  cpuProf: Boolean(args['cpu-prof']),
  /** Before each server, wait (at most quietWaitS) for the 1-minute load average to fall below this. */
  quietLoad: Number(args['quiet-load']),
  quietWaitS: intArg('quiet-wait', 0, 900),
};
if (!(cfg.rate > 0 && cfg.rate <= 1000)) throw new Error('--rate must be in (0, 1000]');
for (const t of cfg.targets) if (!TARGET_NAMES.includes(t)) throw new Error(`unknown target ${t} (one of ${TARGET_NAMES.join(', ')})`);

function intArg(name: keyof typeof args, min: number, max: number): number {
  const v = Number(args[name]);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} must be an integer in [${min}, ${max}]`);
  return v;
}

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

interface TargetResult {
  target: TargetName;
  label: string;
  error?: string;
  fans_connected: number;
  connect_failed: number;
  connect_s: number;
  prepare_s: number;
  /** Distinct chat messages made in the window (server list ∪ anything a socket saw). */
  messages: number;
  messages_per_s: number;
  expected_deliveries: number;
  deliveries: number;
  deliveries_per_s: number;
  latency_ms: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  lost: number;
  lost_pct: number;
  sockets_with_loss: number;
  doubled: number;
  closed_during_run: number;
  close_codes: Record<string, number>;
  server: ProcStats & { rss_before_traffic_mb: number };
  /** The whole machine during the window: busy % of all cores, and the share not used by this server and its load clients. */
  machine: { busy_pct: number; irq_pct: number; others_pct: number; loadavg_1m_before: number };
  clients: { cpu_avg_pct: number[]; loop_delay_p99_ms: number[]; frames: number; decode_cache_hit_pct: number };
  /** Deliveries of any chat message per receive second, from the start of the traffic (warm-up included). */
  series: number[];
  profile?: ProfileSummary;
}

async function runTarget(name: TargetName, machineLogDir: string): Promise<TargetResult> {
  log(`== ${TARGET_LABELS[name]}: starting server`);
  const inspectPort = cfg.cpuProf && name === 'fanfare' ? await freePort() : null;
  const target = await startTarget(name, { fans: cfg.fans, batchMs: cfg.batchMs, inspectPort, logDir: machineLogDir, log });
  const workers: ChildProcess[] = [];
  let profiler: RemoteProfiler | null = null;
  try {
    if (target.prepareS) log(`   prepared ${cfg.fans} fans in ${target.prepareS.toFixed(1)} s`);
    if (inspectPort) profiler = await RemoteProfiler.attach(inspectPort);
    const loadBefore = await waitForQuiet();
    return await measure(target, workers, loadBefore, profiler);
  } finally {
    profiler?.close();
    for (const w of workers) send(w, { type: 'exit' });
    await Promise.all(workers.map((w) => (w.exitCode === null ? new Promise((r) => w.once('exit', r)) : null)));
    await target.stop();
  }
}

/** Waits (bounded) for other work on the shared machine to calm down; returns the load average then. */
async function waitForQuiet(): Promise<number> {
  const deadline = Date.now() + cfg.quietWaitS * 1000;
  let load = os.loadavg()[0]!;
  if (load >= cfg.quietLoad) log(`   load average ${load.toFixed(2)}: waiting up to ${cfg.quietWaitS} s for it to fall below ${cfg.quietLoad}`);
  for (let i = 0; i < 10_000 && load >= cfg.quietLoad && Date.now() < deadline; i++) {
    await sleep(2000);
    load = os.loadavg()[0]!;
  }
  return Math.round(load * 100) / 100;
}

function send(w: ChildProcess, msg: ToWorker): void {
  if (w.connected) w.send(msg);
}

function nextMessage<T extends FromWorker['type']>(w: ChildProcess, type: T, timeoutMs: number, onOther?: (m: FromWorker) => void): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      w.off('message', on);
      reject(new Error(`worker gave no ${type} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (m: FromWorker) => {
      if (m.type !== type) return onOther?.(m);
      clearTimeout(timer);
      w.off('message', on);
      resolve(m as Extract<FromWorker, { type: T }>);
    };
    w.on('message', on);
  });
}

async function measure(target: RunningTarget, workers: ChildProcess[], loadBefore: number, profiler: RemoteProfiler | null): Promise<TargetResult> {
  const shares: string[][] = Array.from({ length: cfg.workers }, () => []);
  target.urls.forEach((u, i) => shares[i % cfg.workers]!.push(u));
  const capacity = Math.ceil(cfg.rate * cfg.windowS * 1.2) + 64;
  const connectStarted = Date.now();
  const progress = new Map<number, { ready: number; failed: number }>();
  let lastLog = 0;
  for (let i = 0; i < cfg.workers; i++) {
    const w = fork(path.join(HERE, 'worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    workers.push(w);
  }
  log(`   opening ${target.urls.length} sockets from ${cfg.workers} workers`);
  const connected = await Promise.all(
    workers.map((w, i) => {
      const p = nextMessage(w, 'connected', cfg.connectTimeoutS * 1000 + 120_000, (m) => {
        if (m.type !== 'progress') return;
        progress.set(i, m);
        if (Date.now() - lastLog > 3000) {
          lastLog = Date.now();
          const all = [...progress.values()].reduce((a, b) => ({ ready: a.ready + b.ready, failed: a.failed + b.failed }), { ready: 0, failed: 0 });
          log(`   ${all.ready} ready, ${all.failed} failed`);
        }
      });
      send(w, { type: 'connect', wire: target.wire, urls: shares[i]!, concurrency: cfg.concurrency, capacity, timeoutMs: cfg.connectTimeoutS * 1000 });
      return p;
    }),
  );
  const connectS = (Date.now() - connectStarted) / 1000;
  const ready = connected.reduce((a, c) => a + c.ready, 0);
  const failed = connected.reduce((a, c) => a + c.failed, 0);
  log(`   ${ready} sockets ready, ${failed} failed, in ${connectS.toFixed(1)} s${failed ? ` (first error: ${connected.find((c) => c.firstError)?.firstError})` : ''}`);
  if (ready === 0) throw new Error('no socket connected');

  await sleep(1000);
  const rssBefore = rssMb(target.pid) ?? 0;
  const trafficStart = Date.now() + 300;
  const t0 = trafficStart + cfg.warmupS * 1000;
  const t1 = t0 + cfg.windowS * 1000;
  for (const w of workers) send(w, { type: 'window', t0, t1, seriesFrom: trafficStart });
  await sleep(trafficStart - Date.now());
  await target.startTraffic({ messages_per_second: cfg.rate, stop_after: Math.ceil((t1 - Date.now()) / 1000) + 2 });
  log(`   traffic at ${cfg.rate} messages/s: ${cfg.warmupS} s warm-up, ${cfg.windowS} s measured, ${cfg.drainS} s drain`);
  await sleep(t0 - Date.now());
  const machineCpu = new MachineCpu();
  machineCpu.start();
  const server = new ProcSampler(target.pid);
  const clients = workers.map((w) => new ProcSampler(w.pid!));
  server.start();
  for (const c of clients) c.start();
  await profiler?.start();
  await sleep(t1 - Date.now());
  let profileFile: string | null = null;
  if (profiler) {
    const dir = path.join(RESULTS_DIR, 'profiles');
    mkdirSync(dir, { recursive: true });
    profileFile = path.join(dir, `fanout-${target.name}-${cfg.fans}x${cfg.rate}-${today()}.cpuprofile`);
    await profiler.stopTo(profileFile);
    log(`   CPU profile of the window: ${path.relative(process.cwd(), profileFile)}`);
  }
  const serverStats = server.stop();
  const clientStats = clients.map((c) => c.stop());
  const busy = machineCpu.stop();
  await target.stopTraffic().catch((e: unknown) => log(`   stopping traffic failed: ${String(e)}`));
  await sleep(cfg.drainS * 1000);

  const reports: WorkerReport[] = [];
  for (const w of workers) {
    const r = nextMessage(w, 'report', 60_000);
    send(w, { type: 'report' });
    reports.push((await r).report);
  }
  const listed = (await target.listMessages(t0, t1)).filter((m) => m.timestamp_ms >= t0 && m.timestamp_ms < t1);
  const union = new Set(listed.map((m) => m.id));
  for (const r of reports) for (const id of r.ids) union.add(id);
  const messages = union.size;

  const latency = new Histogram();
  let distinctSum = 0;
  let socketsWithLoss = 0;
  for (const r of reports) {
    latency.addSparse(r.latency);
    for (const [distinct, count] of r.distinct_per_socket) {
      distinctSum += distinct * count;
      if (distinct < messages) socketsWithLoss += count;
    }
  }
  const expected = ready * messages;
  const lost = expected - distinctSum;
  const closeCodes: Record<string, number> = {};
  for (const r of reports) for (const [code, n] of Object.entries(r.close_codes)) closeCodes[code] = (closeCodes[code] ?? 0) + n;
  const series: number[] = [];
  for (const r of reports) r.series.forEach((v, i) => (series[i] = (series[i] ?? 0) + v));
  const frames = reports.reduce((a, r) => a + r.frames, 0);
  const hits = reports.reduce((a, r) => a + r.decode_cache_hits, 0);
  const round1 = (n: number) => Math.round(n * 10) / 10;
  return {
    target: target.name,
    label: TARGET_LABELS[target.name],
    fans_connected: ready,
    connect_failed: failed,
    connect_s: round1(connectS),
    prepare_s: round1(target.prepareS),
    messages,
    messages_per_s: round1(messages / cfg.windowS),
    expected_deliveries: expected,
    deliveries: distinctSum,
    deliveries_per_s: Math.round(distinctSum / cfg.windowS),
    latency_ms: {
      p50: latency.quantile(0.5),
      p90: latency.quantile(0.9),
      p99: latency.quantile(0.99),
      p999: latency.quantile(0.999),
      max: latency.max,
      mean: round1(latency.mean()),
    },
    lost,
    lost_pct: expected ? Math.round((lost / expected) * 1e5) / 1e3 : 0,
    sockets_with_loss: socketsWithLoss,
    doubled: reports.reduce((a, r) => a + r.doubled, 0),
    closed_during_run: reports.reduce((a, r) => a + r.closed, 0),
    close_codes: closeCodes,
    server: { ...serverStats, rss_before_traffic_mb: round1(rssBefore) },
    machine: {
      ...busy,
      // /proc/stat counts all cores; our processes' % are of one core. Interrupt time is not in theirs.
      others_pct: Math.max(0, round1(busy.busy_pct - busy.irq_pct - (serverStats.cpu_avg_pct + clientStats.reduce((a, c) => a + c.cpu_avg_pct, 0)) / os.cpus().length)),
      loadavg_1m_before: loadBefore,
    },
    clients: {
      cpu_avg_pct: clientStats.map((c) => c.cpu_avg_pct),
      loop_delay_p99_ms: reports.map((r) => r.loop_delay_ms.p99),
      frames,
      decode_cache_hit_pct: frames ? round1((hits / frames) * 100) : 0,
    },
    series,
    ...(profileFile ? { profile: summarizeProfile(profileFile) } : {}),
  };
}

interface Verdict {
  check: string;
  target: string;
  measured: string;
  pass: boolean | null;
}

function verdicts(results: TargetResult[]): Verdict[] {
  const f = results.find((r) => r.target === 'fanfare' && !r.error);
  const sio = results.find((r) => r.target === 'socketio' && !r.error);
  if (!f) return [];
  const out: Verdict[] = [
    { check: 'fans × rate', target: '10,000 × 100/s (1,000,000 deliveries/s)', measured: `${f.fans_connected} × ${f.messages_per_s}/s (${f.deliveries_per_s.toLocaleString('en')} deliveries/s)`, pass: f.fans_connected >= 10_000 && f.messages_per_s >= 99 && f.deliveries_per_s >= 990_000 },
    { check: 'p99 latency', target: '< 250 ms', measured: `${f.latency_ms.p99} ms`, pass: f.latency_ms.p99 < 250 },
    { check: 'lost messages', target: '0', measured: `${f.lost} (${f.lost_pct} %)`, pass: f.lost === 0 },
    { check: 'server RSS (peak)', target: '< 500 MB', measured: `${f.server.rss_peak_mb} MB`, pass: f.server.rss_peak_mb < 500 },
  ];
  if (sio) {
    out.push({ check: 'p99 vs Socket.IO', target: `< ${sio.latency_ms.p99} ms`, measured: `${f.latency_ms.p99} ms`, pass: f.latency_ms.p99 < sio.latency_ms.p99 });
    out.push({ check: 'RSS vs Socket.IO', target: `< ${sio.server.rss_peak_mb} MB`, measured: `${f.server.rss_peak_mb} MB`, pass: f.server.rss_peak_mb < sio.server.rss_peak_mb });
  }
  return out;
}

const HEADER = ['server', 'fans', 'msgs/s', 'deliveries/s', 'p50 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'lost', 'doubled', 'closed', 'server CPU %', 'RSS peak MB', 'client CPU %', 'client lag p99 ms', 'other load %'];

function row(r: TargetResult): (string | number)[] {
  if (r.error) return [r.label, 'error: ' + r.error, ...HEADER.slice(2).map(() => '')];
  return [
    r.label,
    r.fans_connected,
    r.messages_per_s,
    r.deliveries_per_s.toLocaleString('en'),
    r.latency_ms.p50,
    r.latency_ms.p99,
    r.latency_ms.p999,
    r.latency_ms.max,
    `${r.lost} (${r.lost_pct}%)`,
    r.doubled,
    r.closed_during_run,
    `${r.server.cpu_avg_pct} (peak ${r.server.cpu_peak_pct})`,
    r.server.rss_peak_mb,
    r.clients.cpu_avg_pct.join(' + '),
    r.clients.loop_delay_p99_ms.join(' / '),
    r.machine.others_pct,
  ];
}

function markdown(machine: MachineInfo, results: TargetResult[], when: string): string {
  const v = verdicts(results);
  const lines = [
    `# Fan-out benchmark, ${when}`,
    '',
    `Machine: ${machineLine(machine)}.`,
    '',
    `Run: ${cfg.fans} fans per server, ${cfg.rate} chat messages/s, ${cfg.warmupS} s warm-up, ${cfg.windowS} s measured, ${cfg.drainS} s drain, batch window ${cfg.batchMs} ms (Fanfare and raw ws), ${cfg.workers} load-client workers. Servers ran one after the other with the same load client; server, clients and bench share the machine.`,
    '',
    markdownTable(HEADER, results.map(row)),
    '',
    'Latency: receive time at the fan socket minus the message\'s `timestamp_ms` (set by the server when the message was made), same machine clock, 1 ms resolution. Lost: for every socket, the messages made in the window (server list ∪ anything any socket saw) it never received by the end of the drain. Deliveries/s: distinct measured deliveries over the window length.',
    '',
  ];
  if (v.length) {
    lines.push('## Targets (Fanfare)', '', markdownTable(['check', 'target', 'measured', 'met'], v.map((x) => [x.check, x.target, x.measured, x.pass === null ? '-' : x.pass ? 'yes' : '**no**'])), '');
  }
  lines.push('## Details', '');
  for (const r of results) {
    if (r.error) {
      lines.push(`- **${r.label}**: failed: ${r.error}`);
      continue;
    }
    lines.push(
      `- **${r.label}**: prepare ${r.prepare_s} s, connect ${r.connect_s} s (${r.connect_failed} failed); ${r.messages} messages in the window; latency mean ${r.latency_ms.mean} ms, p90 ${r.latency_ms.p90} ms; RSS ${r.server.rss_before_traffic_mb} MB with idle sockets, ${r.server.rss_end_mb} MB at the end of the window; sockets closed during the run: ${r.closed_during_run} ${JSON.stringify(r.close_codes)}; sockets with any loss: ${r.sockets_with_loss}; client frames ${r.clients.frames.toLocaleString('en')} (${r.clients.decode_cache_hit_pct} % decoded from cache); machine ${r.machine.busy_pct} % busy during the window (all cores), of which ${r.machine.irq_pct} % interrupts/softirq and ${r.machine.others_pct} % other processes (load average ${r.machine.loadavg_1m_before} before); deliveries per second from traffic start: ${r.series.join(', ')}.`,
    );
  }
  const prof = results.find((r) => r.profile)?.profile;
  if (prof) {
    lines.push('', '## Where Fanfare\'s server time goes (CPU profile of the measured window)', '', `Profile: \`${path.relative(process.cwd(), prof.file)}\`, ${prof.total_ms} ms sampled.`, '');
    lines.push(markdownTable(['area', 'self ms', '%'], prof.by_area.map((a) => [a.area, a.ms, a.pct])), '');
    lines.push(markdownTable(['function', 'where', 'self ms', '%'], prof.top_functions.map((f) => [f.fn, f.where, f.ms, f.pct])), '');
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const when = new Date().toISOString();
  log(`fan-out bench on ${machineLine(machine)}`);
  log(`${cfg.fans} fans, ${cfg.rate} msg/s, warm-up ${cfg.warmupS} s, window ${cfg.windowS} s, targets ${cfg.targets.join(', ')}`);
  const logDir = path.join(os.tmpdir(), `fanfare-bench-logs-${process.pid}`);
  mkdirSync(logDir, { recursive: true });
  log(`server logs in ${logDir}`);
  const results: TargetResult[] = [];
  for (const name of cfg.targets) {
    try {
      const r = await runTarget(name, logDir);
      results.push(r);
      log(`   p50 ${r.latency_ms.p50} ms, p99 ${r.latency_ms.p99} ms, ${r.deliveries_per_s.toLocaleString('en')} deliveries/s, lost ${r.lost}, doubled ${r.doubled}, server CPU ${r.server.cpu_avg_pct} %, RSS peak ${r.server.rss_peak_mb} MB`);
    } catch (e) {
      log(`   ${name} failed: ${e instanceof Error ? e.stack : String(e)}`);
      results.push({ target: name, label: TARGET_LABELS[name], error: e instanceof Error ? e.message : String(e) } as TargetResult);
    }
    await sleep(2000);
  }
  process.stdout.write('\n' + textTable(HEADER, results.map(row)) + '\n\n');
  for (const v of verdicts(results)) process.stdout.write(`${v.pass ? 'MET   ' : 'MISSED'} ${v.check}: ${v.measured} (target ${v.target})\n`);
  if (!args['no-save']) {
    const files = writeResults(String(args.name).replace(/[^\w.-]/g, '_'), { when, machine, config: cfg, results, targets: verdicts(results) }, markdown(machine, results, when));
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
