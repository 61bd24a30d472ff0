/**
 * Scale-out benchmark: the same party on 1 node and on N nodes (default 3) sharing one Redis
 * and one PostgreSQL on this machine, run interleaved. Fans are spread round-robin over the
 * nodes, chat is posted over HTTP through the nodes in turn (open loop, due times). Reported per
 * node: deliveries/s, p99 from due time, CPU per delivered message and per frame, memory per idle
 * socket; per configuration: Redis commands and bytes per second, PostgreSQL commits and row
 * writes per second of the bench database, CPU of the Redis and PostgreSQL processes.
 * Usage: `npm run bench:scaleout -- --fans 6000 --nodes 3`.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { RemoteProfiler } from '../lib/inspector.ts';
import { integerReader } from '../lib/args.ts';
import { machineInfo, machineLine, type MachineInfo } from '../lib/machine.ts';
import { cpuSeconds } from '../lib/proc.ts';
import { signUpFans, startFanfareServer, type FanfareServer } from '../lib/fanfare.ts';
import { freePort, sleep } from '../lib/processes.ts';
import { markdownTable, textTable, writeResults } from '../lib/results.ts';
import { runSession, type SessionMeasurement } from '../fanout/session.ts';
import { createBenchParty, fanPosters, PARTY_ID, posterCount } from '../fanout/targets.ts';

const { values: args } = parseArgs({
  options: {
    fans: { type: 'string', default: '6000' },
    nodes: { type: 'string', default: '3' },
    rate: { type: 'string', default: '100' },
    warmup: { type: 'string', default: '5' },
    window: { type: 'string', default: '15' },
    drain: { type: 'string', default: '5' },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '1' },
    'batch-ms': { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '100' },
    'pg-url': { type: 'string', default: process.env.PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'redis-url': { type: 'string', default: process.env.REDIS_URL || 'redis://127.0.0.1:6379' },
    'no-save': { type: 'boolean', default: false },
    name: { type: 'string', default: 'scaleout' },
  },
});

const intArg = integerReader(args);
const cfg = {
  fans: intArg('fans', 1, 50_000),
  nodes: intArg('nodes', 2, 8),
  rate: Number(args.rate),
  warmupS: intArg('warmup', 0, 120),
  windowS: intArg('window', 1, 600),
  drainS: intArg('drain', 1, 120),
  workers: intArg('workers', 1, 8),
  rounds: intArg('rounds', 1, 10),
  batchMs: intArg('batch-ms', 0, 1000),
  concurrency: intArg('concurrency', 1, 5000),
  pgUrl: String(args['pg-url']),
  redisUrl: String(args['redis-url']),
};
if (!(cfg.rate > 0 && cfg.rate <= 1000)) throw new Error('--rate must be in (0, 1000]');

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const round1 = (n: number) => Math.round(n * 10) / 10;

/** CPU seconds of every process whose command is `comm` (all PostgreSQL backends, the Redis server). */
function cpuOfCommand(comm: string): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== comm) continue;
      total += cpuSeconds(Number(pid)) ?? 0;
    } catch {
      // gone
    }
  }
  return total;
}

interface RedisCounters {
  commands: number;
  in_bytes: number;
  out_bytes: number;
  evalsha: number;
  publish_messages: number;
}

async function redisCounters(redis: Redis): Promise<RedisCounters> {
  const info = (await redis.info()) + (await redis.info('commandstats'));
  const num = (key: string) => Number(new RegExp(`^${key}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  const calls = (cmd: string) => Number(new RegExp(`^cmdstat_${cmd}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { commands: num('total_commands_processed'), in_bytes: num('total_net_input_bytes'), out_bytes: num('total_net_output_bytes'), evalsha: calls('evalsha') + calls('eval'), publish_messages: calls('publish') };
}

interface PgCounters {
  commits: number;
  inserted: number;
  updated: number;
  deleted: number;
}

async function pgCounters(client: pg.Client, db: string): Promise<PgCounters> {
  // Statistics are sent by backends at the end of transactions and read from a snapshot: clear it.
  await client.query('select pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ xact_commit: string; tup_inserted: string; tup_updated: string; tup_deleted: string }>(
    'select xact_commit, tup_inserted, tup_updated, tup_deleted from pg_stat_database where datname = $1',
    [db],
  );
  const r = rows[0];
  return { commits: Number(r?.xact_commit ?? 0), inserted: Number(r?.tup_inserted ?? 0), updated: Number(r?.tup_updated ?? 0), deleted: Number(r?.tup_deleted ?? 0) };
}

interface ConfigResult {
  nodes: number;
  round: number;
  error?: string;
  m?: SessionMeasurement;
  redis?: { commands_per_s: number; in_kb_per_s: number; out_kb_per_s: number; script_calls_per_s: number; cpu_pct: number; note: string };
  postgres?: { commits_per_s: number; rows_written_per_s: number; inserted_per_s: number; cpu_pct: number; note: string };
  prepare_s?: number;
}

async function runConfig(nodes: number, round: number, logDir: string): Promise<ConfigResult> {
  log(`== round ${round}: ${nodes} node(s) on one Redis and one PostgreSQL`);
  const dbName = `fanfare_bench_${process.pid}_${nodes}_${round}`;
  const admin = new pg.Client({ connectionString: cfg.pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(cfg.pgUrl);
  dbUrl.pathname = `/${dbName}`;
  const prefix = `fanfare-bench-${process.pid}-${nodes}-${round}:`;
  const redis = new Redis(cfg.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  const env = { DEMO_SEED: 'false', SOCKET_BATCH_MS: String(cfg.batchMs), DATABASE_URL: dbUrl.toString(), REDIS_URL: cfg.redisUrl, REDIS_KEY_PREFIX: prefix };
  const servers: FanfareServer[] = [];
  const inspectors: RemoteProfiler[] = [];
  try {
    const started = Date.now();
    // Sign-ups on a first node, which then stops: the measured nodes start with clean memory.
    const setup = await startFanfareServer({ env, logFile: path.join(logDir, `setup-${nodes}-${round}.log`) });
    let tokens: string[];
    try {
      await createBenchParty(setup.base);
      tokens = await signUpFans(setup.base, PARTY_ID, Math.max(cfg.fans, posterCount(cfg.rate)), log);
    } finally {
      await setup.stop();
    }
    const prepareS = (Date.now() - started) / 1000;
    for (let i = 0; i < nodes; i++) {
      const port = await freePort();
      const s = await startFanfareServer({ env, nodeArgs: [`--inspect=127.0.0.1:${port}`], logFile: path.join(logDir, `node${i}-${nodes}-${round}.log`) });
      servers.push(s);
      inspectors.push(await RemoteProfiler.attach(port));
    }
    const bases = servers.map((s) => s.base);
    const urls = tokens.slice(0, cfg.fans).map((t, i) => `${bases[i % nodes]!.replace(/^http/, 'ws')}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(t)}`);
    let r0: RedisCounters | null = null;
    let p0: PgCounters | null = null;
    let c0 = { redis: 0, pg: 0, t: 0 };
    const out: ConfigResult = { nodes, round, prepare_s: round1(prepareS) };
    const m = await runSession(
      { rate: cfg.rate, warmupS: cfg.warmupS, windowS: cfg.windowS, drainS: cfg.drainS, workers: cfg.workers, concurrency: cfg.concurrency, connectTimeoutS: 120 },
      {
        wire: 'fanfare',
        urls,
        groups: urls.map((_, i) => i % nodes),
        pids: servers.map((s) => s.pid),
        posters: fanPosters(bases, tokens, cfg.rate),
        log,
        collectGarbage: async () => {
          for (const ins of inspectors) await ins.collectGarbage();
          await sleep(300);
        },
        onWindowStart: async () => {
          [r0, p0] = await Promise.all([redisCounters(redis), pgCounters(admin, dbName)]);
          c0 = { redis: cpuOfCommand('redis-server'), pg: cpuOfCommand('postgres'), t: performance.now() };
        },
        onWindowEnd: async () => {
          const spanS = (performance.now() - c0.t) / 1000;
          const c1 = { redis: cpuOfCommand('redis-server'), pg: cpuOfCommand('postgres') };
          const [r1, p1] = await Promise.all([redisCounters(redis), pgCounters(admin, dbName)]);
          const per = (a: number, b: number) => round1((b - a) / spanS);
          out.redis = {
            commands_per_s: per(r0!.commands, r1.commands),
            in_kb_per_s: round1((r1.in_bytes - r0!.in_bytes) / 1024 / spanS),
            out_kb_per_s: round1((r1.out_bytes - r0!.out_bytes) / 1024 / spanS),
            script_calls_per_s: per(r0!.evalsha, r1.evalsha),
            cpu_pct: round1(((c1.redis - c0.redis) / spanS) * 100),
            note: 'whole Redis server (shared with other work on the machine)',
          };
          out.postgres = {
            commits_per_s: per(p0!.commits, p1.commits),
            rows_written_per_s: per(p0!.inserted + p0!.updated + p0!.deleted, p1.inserted + p1.updated + p1.deleted),
            inserted_per_s: per(p0!.inserted, p1.inserted),
            cpu_pct: round1(((c1.pg - c0.pg) / spanS) * 100),
            note: 'commits and rows of the bench database; CPU of all PostgreSQL processes (shared)',
          };
        },
      },
    );
    out.m = m;
    return out;
  } finally {
    for (const ins of inspectors) ins.close();
    await Promise.all(servers.map((s) => s.stop()));
    const keys = await redis.keys(`${prefix}*`).catch(() => [] as string[]);
    if (keys.length) await redis.del(...keys).catch(() => 0);
    redis.disconnect();
    await sleep(500);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((e: unknown) => log(`   dropping ${dbName} failed: ${String(e)}`));
    await admin.end();
  }
}

const NODE_HEADER = ['round', 'nodes', 'node', 'sockets', 'deliveries/s', 'p50 due ms', 'p99 due ms', 'max due ms', 'CPU %', 'CPU µs/delivery', 'CPU µs/frame', 'payload KB/s', 'bytes/frame', 'KB/idle conn', 'RSS peak MB'];
function nodeRows(r: ConfigResult): (string | number)[][] {
  if (!r.m) return [[r.round, r.nodes, 'error: ' + (r.error ?? '?'), ...NODE_HEADER.slice(3).map(() => '')]];
  return r.m.nodes.map((n) => [r.round, r.nodes, n.node, n.sockets, n.deliveries_per_s.toLocaleString('en'), n.latency_due_ms.p50, n.latency_due_ms.p99, n.latency_due_ms.max, n.cpu_pct, n.cpu_us_per_delivery, n.cpu_us_per_frame, n.payload_kb_per_s, n.bytes_per_frame, n.kb_per_idle_socket, n.rss_peak_mb]);
}

const CONFIG_HEADER = ['round', 'nodes', 'fans', 'msgs/s', 'deliveries/s', 'p99 due ms', 'p99 ts ms', 'lost', 'nodes CPU % (sum)', 'µs/delivery (all nodes)', 'Redis cmds/s', 'Redis scripts/s', 'Redis out KB/s', 'Redis CPU %', 'PG commits/s', 'PG rows written/s', 'PG CPU %', 'load before', 'other %'];
function configRow(r: ConfigResult): (string | number)[] {
  if (!r.m) return [r.round, r.nodes, 'error: ' + (r.error ?? '?'), ...CONFIG_HEADER.slice(3).map(() => '')];
  const m = r.m;
  return [
    r.round,
    r.nodes,
    m.fans_connected,
    m.messages_per_s,
    m.deliveries_per_s.toLocaleString('en'),
    m.latency_due_ms.p99,
    m.latency_ts_ms.p99,
    m.lost,
    round1(m.nodes.reduce((a, n) => a + n.cpu_pct, 0)),
    m.cpu_us_per_delivery,
    r.redis?.commands_per_s ?? '',
    r.redis?.script_calls_per_s ?? '',
    r.redis?.out_kb_per_s ?? '',
    r.redis?.cpu_pct ?? '',
    r.postgres?.commits_per_s ?? '',
    r.postgres?.rows_written_per_s ?? '',
    r.postgres?.cpu_pct ?? '',
    m.machine.loadavg_1m_before,
    m.machine.others_pct,
  ];
}

function markdown(machine: MachineInfo, results: ConfigResult[], when: string): string {
  const lines = [
    `# Scale-out benchmark, ${when}`,
    '',
    `Machine: ${machineLine(machine)}. Shared with other work: load before each run and other processes' CPU share are in the table. Every node, the load client, Redis and PostgreSQL share these cores, so N nodes here do NOT get N times the CPU: the per-delivery costs are the transferable figures.`,
    '',
    `Run: ${cfg.fans.toLocaleString('en')} fans in one party, ${cfg.rate} chat posts/s over HTTP (posts spread over the nodes, open loop with due times), ${cfg.warmupS} s warm-up, ${cfg.windowS} s measured, ${cfg.drainS} s drain, batch ${cfg.batchMs} ms; 1 node vs ${cfg.nodes} nodes, each on one Redis (${cfg.redisUrl}) and one PostgreSQL database created for the run; ${cfg.rounds} round(s), interleaved.`,
    '',
    '## Per configuration',
    '',
    markdownTable(CONFIG_HEADER, results.map(configRow)),
    '',
    '## Per node',
    '',
    markdownTable(NODE_HEADER, results.flatMap(nodeRows)),
    '',
    '- Redis figures are of the whole Redis server during the window (other helpers\' tests may use it too); "scripts/s" counts EVAL/EVALSHA calls: one per event (number, log, publish). Publishes inside scripts are not counted by `cmdstat_publish`.',
    '- PostgreSQL commits and rows written are of the bench database only; its CPU is every `postgres` process on the machine.',
    '',
    '## Details',
    '',
  ];
  for (const r of results) {
    if (!r.m) {
      lines.push(`- round ${r.round}, ${r.nodes} node(s): failed: ${r.error}`);
      continue;
    }
    lines.push(`- round ${r.round}, ${r.nodes} node(s): prepare ${r.prepare_s} s, connect ${r.m.connect_s} s (${r.m.connect_failed} failed); ${r.m.messages} messages in the window, posts failed ${JSON.stringify(r.m.posts.failed)}, post answered p50/p99 ${r.m.posts.answer_ms.p50}/${r.m.posts.answer_ms.p99} ms after due, send lag p99 ${r.m.posts.send_lag_ms.p99} ms; lost ${r.m.lost}, doubled ${r.m.doubled}, closed ${r.m.closed_during_run}; Redis in ${r.redis?.in_kb_per_s} KB/s; PG inserts ${r.postgres?.inserted_per_s}/s; machine ${r.m.machine.busy_pct} % busy; client CPU ${r.m.clients.cpu_avg_pct.join(' + ')} %.`);
  }
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const when = new Date().toISOString();
  log(`scale-out bench on ${machineLine(machine)}`);
  const logDir = path.join(os.tmpdir(), `fanfare-scaleout-logs-${process.pid}`);
  mkdirSync(logDir, { recursive: true });
  log(`server logs in ${logDir}`);
  const results: ConfigResult[] = [];
  for (let round = 1; round <= cfg.rounds; round++) {
    for (const nodes of [1, cfg.nodes]) {
      try {
        const r = await runConfig(nodes, round, logDir);
        results.push(r);
        log(`   ${r.m!.deliveries_per_s.toLocaleString('en')} deliveries/s, p99 due ${r.m!.latency_due_ms.p99} ms, lost ${r.m!.lost}, µs/delivery ${r.m!.cpu_us_per_delivery}; Redis ${r.redis?.commands_per_s} cmds/s; PG ${r.postgres?.commits_per_s} commits/s`);
      } catch (e) {
        log(`   failed: ${e instanceof Error ? e.stack : String(e)}`);
        results.push({ nodes, round, error: e instanceof Error ? e.message : String(e) });
      }
      await sleep(2000);
    }
  }
  process.stdout.write(`\n${machineLine(machineInfo())} (now)\n\nPer configuration:\n${textTable(CONFIG_HEADER, results.map(configRow))}\n\nPer node:\n${textTable(NODE_HEADER, results.flatMap(nodeRows))}\n`);
  if (!args['no-save']) {
    const files = writeResults(String(args.name).replace(/[^\w.-]/g, '_'), { when, machine, config: cfg, results }, markdown(machine, results, when));
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
