/**
 * One measured run of the fan-out benches, shared by bench:fanout (one server) and bench:scaleout
 * (several nodes): forks the load-client workers, opens the sockets, measures memory per idle
 * socket, runs the HTTP chat load (open loop, due times) over warm-up + window, samples CPU of
 * every server process over the window, drains, and merges the workers' reports. Sockets and
 * figures are grouped per server process ("node").
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runChatLoad, type ChatLoadResult, type Poster } from '../lib/chatLoad.ts';
import { Histogram } from '../lib/histogram.ts';
import { cpuSeconds, mainThreadSchedNs, mainThreadSleeps, MachineCpu, ProcSampler, rssMb } from '../lib/proc.ts';
import { sleep } from '../lib/processes.ts';
import type { FromWorker, ToWorker, WireKind, WorkerReport } from './protocol.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export interface SessionConfig {
  rate: number;
  warmupS: number;
  windowS: number;
  drainS: number;
  workers: number;
  concurrency: number;
  connectTimeoutS: number;
  /**
   * After the window, with every socket closed, the same chat load runs again for this many
   * seconds (after a short settle) and the servers' CPU is read: the cost of the posts and
   * everything else a server does without fans. 0 or absent: skipped.
   */
  ingestS?: number;
}

export interface SessionInput {
  wire: WireKind;
  urls: string[];
  /** Node index of each URL (absent: all on node 0). */
  groups?: number[];
  /** Server process of each node. */
  pids: number[];
  posters: Poster[];
  log: (line: string) => void;
  /** Runs a full GC in every server (through its inspector) before a memory reading. */
  collectGarbage?: () => Promise<void>;
  /** Called when the window starts and ends (CPU profiles, Redis/PostgreSQL counters). */
  onWindowStart?: () => Promise<void>;
  onWindowEnd?: () => Promise<void>;
}

export interface Quantiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

/** One node's share of a run. */
export interface NodeMeasurement {
  node: number;
  pid: number;
  sockets: number;
  rss_before_sockets_mb: number;
  rss_idle_sockets_mb: number;
  /** (RSS with the idle sockets open - RSS before) / sockets. */
  kb_per_idle_socket: number;
  cpu_pct: number;
  cpu_peak_pct: number;
  /**
   * The event loop's thread over the window, in % of the wall time: asleep (nothing to do until
   * I/O or a timer), and runnable but waiting for a CPU. Asleep near 0 means the server never ran
   * out of work: its CPU is then the share it was given, not what the deliveries need (decision 0024).
   */
  main_thread: { asleep_pct: number; cpu_wait_pct: number } | null;
  rss_peak_mb: number;
  /** Chat items / frames carrying them that this node's sockets received during the window. */
  window_deliveries: number;
  window_frames: number;
  cpu_us_per_delivery: number;
  cpu_us_per_frame: number;
  deliveries_per_s: number;
  /** Chat payload this node's sockets received, KB/s over the window (WebSocket and TCP headers not counted). */
  payload_kb_per_s: number;
  /** Average payload bytes per frame. */
  bytes_per_frame: number;
  latency_due_ms: Quantiles;
}

export interface SessionMeasurement {
  fans_connected: number;
  connect_failed: number;
  connect_s: number;
  /** Messages due in the window (posted 2xx ∪ seen by any socket). */
  messages: number;
  messages_per_s: number;
  posts: { ok_in_window: number; failed: Record<string, number>; skipped: number; send_lag_ms: ChatLoadResult['send_lag_ms']; answer_ms: ChatLoadResult['answer_ms']; late_in_warmup: number; late_in_window: number };
  expected_deliveries: number;
  deliveries: number;
  deliveries_per_s: number;
  /** From each message's due time (the schedule of the load generator). */
  latency_due_ms: Quantiles;
  /** From the server's `timestamp_ms` (set when the server made the message). */
  latency_ts_ms: Quantiles;
  lost: number;
  lost_pct: number;
  sockets_with_loss: number;
  doubled: number;
  closed_during_run: number;
  close_codes: Record<string, number>;
  nodes: NodeMeasurement[];
  /** All nodes together. */
  cpu_us_per_delivery: number;
  cpu_us_per_frame: number;
  kb_per_idle_socket: number;
  machine: { busy_pct: number; irq_pct: number; others_pct: number; loadavg_1m_before: number; loadavg_1m_after: number };
  /**
   * `wakeups_per_s`: how often each load client's event loop went to sleep and had to be woken in
   * the window. On loopback the kernel runs the receiver's side of TCP, wake-up included, in the
   * sender's write, so these are paid out of the server's CPU (decision 0024).
   */
  clients: { cpu_avg_pct: number[]; wakeups_per_s: number[]; loop_delay_p99_ms: number[]; frames: number; decode_cache_hit_pct: number };
  /** Deliveries of any chat message per receive second, from the start of the traffic (warm-up included). */
  series: number[];
  /**
   * The same chat load with no socket open (`ingestS`): each node's CPU, the posts answered, and
   * what a delivery costs beyond it, (window CPU - ingest CPU over the window's span) / deliveries.
   */
  ingest?: { window_s: number; cpu_pct: number[]; posts_ok: number; cpu_us_per_post: number; marginal_cpu_us_per_delivery: number };
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;

function quantilesOf(h: Histogram): Quantiles {
  return { p50: h.quantile(0.5), p90: h.quantile(0.9), p99: h.quantile(0.99), p999: h.quantile(0.999), max: h.max, mean: round1(h.mean()) };
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

/** Runs one measured session against servers that are up; the workers are stopped before it returns. */
export async function runSession(cfg: SessionConfig, input: SessionInput): Promise<SessionMeasurement> {
  const workers: ChildProcess[] = [];
  try {
    return await measure(cfg, input, workers);
  } finally {
    await stopWorkers(workers);
  }
}

/** Tells the load-client workers to exit (their sockets close) and waits, bounded; kills the rest. */
async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  for (const w of workers) send(w, { type: 'exit' });
  await Promise.race([Promise.all(workers.map((w) => (w.exitCode === null ? new Promise((r) => w.once('exit', r)) : null))), sleep(10_000)]);
  for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
}

async function measure(cfg: SessionConfig, input: SessionInput, workers: ChildProcess[]): Promise<SessionMeasurement> {
  const { log } = input;
  const groupsOf = input.groups ?? input.urls.map(() => 0);
  const shares = Array.from({ length: cfg.workers }, () => ({ urls: [] as string[], groups: [] as number[] }));
  input.urls.forEach((u, i) => {
    shares[i % cfg.workers]!.urls.push(u);
    shares[i % cfg.workers]!.groups.push(groupsOf[i]!);
  });
  const capacity = Math.ceil(cfg.rate * cfg.windowS * 1.2) + 64;
  await sleep(1000);
  await input.collectGarbage?.();
  const rssBefore = input.pids.map((pid) => rssMb(pid) ?? 0);
  const connectStarted = Date.now();
  const progress = new Map<number, { ready: number; failed: number }>();
  let lastLog = 0;
  for (let i = 0; i < cfg.workers; i++) {
    workers.push(fork(path.join(HERE, 'worker.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }
  log(`   opening ${input.urls.length} sockets from ${cfg.workers} workers`);
  const connected = await Promise.all(
    workers.map((w, i) => {
      const p = nextMessage(w, 'connected', cfg.connectTimeoutS * 1000 + 120_000, (m) => {
        if (m.type !== 'progress') return;
        progress.set(i, m);
        if (Date.now() - lastLog > 5000) {
          lastLog = Date.now();
          const all = [...progress.values()].reduce((a, b) => ({ ready: a.ready + b.ready, failed: a.failed + b.failed }), { ready: 0, failed: 0 });
          log(`   ${all.ready} ready, ${all.failed} failed`);
        }
      });
      send(w, { type: 'connect', wire: input.wire, urls: shares[i]!.urls, groups: shares[i]!.groups, concurrency: cfg.concurrency, capacity, timeoutMs: cfg.connectTimeoutS * 1000 });
      return p;
    }),
  );
  const connectS = (Date.now() - connectStarted) / 1000;
  const ready = connected.reduce((a, c) => a + c.ready, 0);
  const failed = connected.reduce((a, c) => a + c.failed, 0);
  log(`   ${ready} sockets ready, ${failed} failed, in ${connectS.toFixed(1)} s${failed ? ` (first error: ${connected.find((c) => c.firstError)?.firstError})` : ''}`);
  if (ready === 0) throw new Error('no socket connected');

  // Idle sockets for a moment (hello frames sent, buffers settled): memory per socket.
  await sleep(3000);
  await input.collectGarbage?.();
  const rssIdle = input.pids.map((pid) => rssMb(pid) ?? 0);
  const loadBefore = os.loadavg()[0]!;
  const trafficStart = Date.now() + 300;
  const t0 = trafficStart + cfg.warmupS * 1000;
  const t1 = t0 + cfg.windowS * 1000;
  for (const w of workers) send(w, { type: 'window', t0, t1, seriesFrom: trafficStart });
  const load = runChatLoad(input.posters, cfg.rate, trafficStart, t1);
  log(`   HTTP chat load at ${cfg.rate} posts/s from ${input.posters.length} posters: ${cfg.warmupS} s warm-up, ${cfg.windowS} s measured, ${cfg.drainS} s drain`);
  await sleep(t0 - Date.now());
  const machineCpu = new MachineCpu();
  machineCpu.start();
  const samplers = input.pids.map((pid) => new ProcSampler(pid));
  const cpuAt0 = input.pids.map((pid) => cpuSeconds(pid) ?? 0);
  const schedAt0 = input.pids.map(readSched);
  const clients = workers.map((w) => new ProcSampler(w.pid!));
  const clientSleepsAt0 = workers.map((w) => mainThreadSleeps(w.pid!));
  for (const s of samplers) s.start();
  for (const c of clients) c.start();
  await input.onWindowStart?.();
  await sleep(t1 - Date.now());
  const cpuAt1 = input.pids.map((pid) => cpuSeconds(pid) ?? 0);
  const mainThreads = input.pids.map((pid, node) => mainThreadShares(schedAt0[node]!, readSched(pid)));
  const spanS = (Date.now() - t0) / 1000;
  const serverStats = samplers.map((s) => s.stop());
  const clientStats = clients.map((c) => c.stop());
  const clientWakeups = workers.map((w, i) => Math.round(((mainThreadSleeps(w.pid!) ?? NaN) - (clientSleepsAt0[i] ?? NaN)) / spanS));
  const busy = machineCpu.stop();
  await input.onWindowEnd?.();
  const posts = await load;
  await sleep(cfg.drainS * 1000);

  const reports: WorkerReport[] = [];
  for (const w of workers) {
    const r = nextMessage(w, 'report', 60_000);
    send(w, { type: 'report' });
    reports.push((await r).report);
  }
  const ingest = cfg.ingestS ? await measureIngest(cfg, input, workers, cfg.ingestS) : null;
  const union = new Set<string>();
  let okInWindow = 0;
  for (const p of posts.posted) {
    if (p.due < t0 || p.due >= t1) continue;
    union.add(p.id);
    okInWindow++;
  }
  for (const r of reports) for (const id of r.ids) union.add(id);
  const messages = union.size;

  const latencyTs = new Histogram();
  const latencyDue = new Histogram();
  let distinctSum = 0;
  let socketsWithLoss = 0;
  for (const r of reports) {
    latencyTs.addSparse(r.latency);
    latencyDue.addSparse(r.latency_due);
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

  const nodes: NodeMeasurement[] = input.pids.map((pid, node) => {
    const gs = reports.flatMap((r) => r.groups.filter((g) => g.group === node));
    const h = new Histogram();
    for (const g of gs) h.addSparse(g.latency_due);
    const sockets = gs.reduce((a, g) => a + g.sockets, 0);
    const items = gs.reduce((a, g) => a + g.window_items, 0);
    const windowFrames = gs.reduce((a, g) => a + g.window_frames, 0);
    const windowBytes = gs.reduce((a, g) => a + (g.window_bytes ?? 0), 0);
    const cpuUs = (cpuAt1[node]! - cpuAt0[node]!) * 1e6;
    return {
      node,
      pid,
      sockets,
      rss_before_sockets_mb: round1(rssBefore[node]!),
      rss_idle_sockets_mb: round1(rssIdle[node]!),
      kb_per_idle_socket: sockets ? round2(((rssIdle[node]! - rssBefore[node]!) * 1024) / sockets) : NaN,
      cpu_pct: round1((cpuUs / 1e6 / spanS) * 100),
      cpu_peak_pct: serverStats[node]!.cpu_peak_pct,
      main_thread: mainThreads[node]!,
      rss_peak_mb: serverStats[node]!.rss_peak_mb,
      window_deliveries: items,
      window_frames: windowFrames,
      cpu_us_per_delivery: items ? round2(cpuUs / items) : NaN,
      cpu_us_per_frame: windowFrames ? round2(cpuUs / windowFrames) : NaN,
      deliveries_per_s: Math.round(gs.reduce((a, g) => a + g.deliveries, 0) / cfg.windowS),
      payload_kb_per_s: Math.round(windowBytes / 1024 / spanS),
      bytes_per_frame: windowFrames ? Math.round(windowBytes / windowFrames) : NaN,
      latency_due_ms: quantilesOf(h),
    };
  });
  const totalCpuUs = nodes.reduce((a, n, i) => a + (cpuAt1[i]! - cpuAt0[i]!) * 1e6, 0);
  const totalItems = nodes.reduce((a, n) => a + n.window_deliveries, 0);
  const totalFrames = nodes.reduce((a, n) => a + n.window_frames, 0);
  const ownPct = (serverStats.reduce((a, s) => a + s.cpu_avg_pct, 0) + clientStats.reduce((a, c) => a + c.cpu_avg_pct, 0)) / os.cpus().length;
  return {
    fans_connected: ready,
    connect_failed: failed,
    connect_s: round1(connectS),
    messages,
    messages_per_s: round1(messages / cfg.windowS),
    posts: { ok_in_window: okInWindow, failed: posts.failed, skipped: posts.skipped, send_lag_ms: posts.send_lag_ms, answer_ms: posts.answer_ms, late_in_warmup: posts.late_dues.filter((d) => d < t0).length, late_in_window: posts.late_dues.filter((d) => d >= t0 && d < t1).length },
    expected_deliveries: expected,
    deliveries: distinctSum,
    deliveries_per_s: Math.round(distinctSum / cfg.windowS),
    latency_due_ms: quantilesOf(latencyDue),
    latency_ts_ms: quantilesOf(latencyTs),
    lost,
    lost_pct: expected ? Math.round((lost / expected) * 1e5) / 1e3 : 0,
    sockets_with_loss: socketsWithLoss,
    doubled: reports.reduce((a, r) => a + r.doubled, 0),
    closed_during_run: reports.reduce((a, r) => a + r.closed, 0),
    close_codes: closeCodes,
    nodes,
    cpu_us_per_delivery: totalItems ? round2(totalCpuUs / totalItems) : NaN,
    cpu_us_per_frame: totalFrames ? round2(totalCpuUs / totalFrames) : NaN,
    kb_per_idle_socket: ready ? round2((nodes.reduce((a, n) => a + (n.rss_idle_sockets_mb - n.rss_before_sockets_mb), 0) * 1024) / ready) : NaN,
    machine: {
      ...busy,
      // /proc/stat counts all cores; our processes' % are of one core. Interrupt time is not in theirs.
      others_pct: Math.max(0, round1(busy.busy_pct - busy.irq_pct - ownPct)),
      loadavg_1m_before: round2(loadBefore),
      loadavg_1m_after: round2(os.loadavg()[0]!),
    },
    clients: {
      cpu_avg_pct: clientStats.map((c) => c.cpu_avg_pct),
      wakeups_per_s: clientWakeups,
      loop_delay_p99_ms: reports.map((r) => r.loop_delay_ms.p99),
      frames,
      decode_cache_hit_pct: frames ? round1((hits / frames) * 100) : 0,
    },
    series,
    ...(ingest ? { ingest: ingestFigures(ingest, cfg.ingestS!, totalCpuUs, spanS, totalItems) } : {}),
  };
}

/** A schedstat reading of a server's main thread, and when it was taken. */
type SchedReading = { at: number; ns: ReturnType<typeof mainThreadSchedNs> };
const readSched = (pid: number): SchedReading => ({ at: performance.now(), ns: mainThreadSchedNs(pid) });

/** The main thread's shares of the wall time between two schedstat readings (null when either is missing). */
function mainThreadShares(a: SchedReading, b: SchedReading): NodeMeasurement['main_thread'] {
  if (!a.ns || !b.ns || b.at <= a.at) return null;
  const wallNs = (b.at - a.at) * 1e6;
  const onCpu = (b.ns.onCpu - a.ns.onCpu) / wallNs;
  const waiting = (b.ns.waiting - a.ns.waiting) / wallNs;
  return { asleep_pct: round1(Math.max(0, 1 - onCpu - waiting) * 100), cpu_wait_pct: round1(waiting * 100) };
}

/** The posts alone against the window: CPU per post, and per delivery beyond the posts' CPU rate. */
function ingestFigures(ingest: IngestReading, windowS: number, windowCpuUs: number, windowSpanS: number, deliveries: number): NonNullable<SessionMeasurement['ingest']> {
  const cpuS = ingest.cpuS.reduce((a, b) => a + b, 0);
  return {
    window_s: windowS,
    cpu_pct: ingest.cpuS.map((c) => round1((c / ingest.spanS) * 100)),
    posts_ok: ingest.postsOk,
    cpu_us_per_post: ingest.postsOk ? round1((cpuS * 1e6) / ingest.postsOk) : NaN,
    marginal_cpu_us_per_delivery: deliveries ? round2((windowCpuUs - (cpuS / ingest.spanS) * windowSpanS * 1e6) / deliveries) : NaN,
  };
}

/** Each node's CPU seconds over the ingest run's measured span, and the posts answered 2xx in it. */
interface IngestReading {
  cpuS: number[];
  postsOk: number;
  spanS: number;
}

/** Seconds between closing the sockets and the ingest load, and between its start and its measured part. */
const INGEST_SETTLE_S = 5;
const INGEST_WARMUP_S = 3;

/**
 * Closes every socket (the workers exit), waits for the servers to settle, and runs the chat load
 * again with no fan connected for `seconds`.
 */
async function measureIngest(cfg: SessionConfig, input: SessionInput, workers: ChildProcess[], seconds: number): Promise<IngestReading> {
  await stopWorkers(workers);
  await sleep(INGEST_SETTLE_S * 1000);
  const start = Date.now() + 300;
  const t0 = start + INGEST_WARMUP_S * 1000;
  const t1 = t0 + seconds * 1000;
  input.log(`   ingest: the same chat load with no socket open, ${seconds} s measured`);
  const load = runChatLoad(input.posters, cfg.rate, start, t1);
  await sleep(t0 - Date.now());
  const cpuAt0 = input.pids.map((pid) => cpuSeconds(pid) ?? 0);
  await sleep(t1 - Date.now());
  const cpuAt1 = input.pids.map((pid) => cpuSeconds(pid) ?? 0);
  const spanS = (Date.now() - t0) / 1000;
  const posts = await load;
  return {
    cpuS: input.pids.map((_, i) => cpuAt1[i]! - cpuAt0[i]!),
    postsOk: posts.posted.filter((p) => p.due >= t0 && p.due < t1).length,
    spanS,
  };
}
