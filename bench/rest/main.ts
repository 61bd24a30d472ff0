/**
 * REST benchmark (issue 16): the hot party calls of the real server program, on SQLite and on
 * PostgreSQL, each under the same autocannon load (32 connections, fixed duration), side by side
 * with a bare `node:http` server measured in the same run (the ceiling of one Node process here).
 *
 * Per call: req/s, p50/p99 latency, server CPU per request (from /proc of the server process over
 * the run), non-2xx answers. Optionally (`--cpu-prof`) a V8 profile of each call's window.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request, type Result } from 'autocannon';
import pg from 'pg';
import { CHAT_RATE_LIMIT_WINDOW_MS, type PartyTracksResponse } from '@fanfare/protocol';
import type { ReplayedAnswer } from './ceiling.ts';
import { summarizeProfile, type ProfileSummary } from '../lib/cpuprofile.ts';
import { call, cmsHeaders, inPool, signUpFans, startFanfareServer, type FanfareServer } from '../lib/fanfare.ts';
import { RemoteProfiler } from '../lib/inspector.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { cpuSeconds, MachineCpu } from '../lib/proc.ts';
import { freePort, sleep, spawnTs, stopProcess, waitForHttp } from '../lib/processes.ts';
import { markdownTable, RESULTS_DIR, textTable, today, writeResults } from '../lib/results.ts';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '6' },
    connections: { type: 'string', default: '32' },
    fans: { type: 'string', default: '8000' },
    db: { type: 'string', default: 'sqlite,postgres' },
    calls: { type: 'string', default: 'signup,chat_post,chat_recent,vote,get_party,get_party_live' },
    'pg-url': { type: 'string', default: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    'cpu-prof': { type: 'boolean', default: false },
    name: { type: 'string', default: 'rest' },
    'no-save': { type: 'boolean', default: false },
  },
});

const DURATION_S = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const FANS = Number(args.fans);
const DBS = args.db!.split(',').filter(Boolean) as ('sqlite' | 'postgres')[];
const CALLS = args.calls!.split(',').filter(Boolean);
const PARTY = 'bench';
/** A started party with a track playing: its GET answer has a status that moves with the clock. */
const LIVE_PARTY = 'bench-live';
const ALBUM_ID = '6iz0r2rAVeYBGcpxZOyXHX';
const logDir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-bench-rest-logs-'));
const log = (line: string) => console.log(line);

interface Row {
  db: string;
  call: string;
  req_s: number;
  p50_ms: number;
  p99_ms: number;
  cpu_ms_per_req: number;
  server_cpu_pct: number;
  requests: number;
  non_2xx: number;
  /** Answers by status code, when some were not 2xx. */
  statuses?: Record<string, number>;
  errors: number;
  profile?: ProfileSummary;
  /** For a replay reference: the call whose answer it replays. */
  replay_of?: string;
}

/** One autocannon run against `base` while sampling the server's CPU (and profiling it, when asked). */
async function measure(db: string, callName: string, base: string, pid: number, request: Request, profiler: RemoteProfiler | null): Promise<Row> {
  const cpu0 = cpuSeconds(pid) ?? 0;
  const t0 = performance.now();
  if (profiler) await profiler.start();
  const result: Result = await autocannon({ url: base, connections: CONNECTIONS, duration: DURATION_S, timeout: 30, requests: [request] });
  let profile: ProfileSummary | undefined;
  if (profiler) {
    mkdirSync(path.join(RESULTS_DIR, 'profiles'), { recursive: true });
    const file = path.join(RESULTS_DIR, 'profiles', `${args.name}-${db}-${callName}-${today()}.cpuprofile`);
    await profiler.stopTo(file);
    profile = summarizeProfile(file, 15);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (cpuSeconds(pid) ?? cpu0) - cpu0;
  const total = result['2xx'] + result.non2xx;
  const row: Row = {
    db,
    call: callName,
    // Only 2xx answers count as served (a 429 is cheap); non-2xx are shown with their codes.
    req_s: Math.round(result['2xx'] / result.duration),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    cpu_ms_per_req: total ? Math.round((cpu / total) * 1e6) / 1e3 : 0,
    server_cpu_pct: Math.round((cpu / seconds) * 100),
    requests: total,
    non_2xx: result.non2xx,
    ...(result.non2xx ? { statuses: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count])) } : {}),
    errors: result.errors + result.timeouts,
    ...(profile ? { profile } : {}),
  };
  log(`   ${db.padEnd(8)} ${callName.padEnd(12)} ${String(row.req_s).padStart(6)} req/s  p99 ${row.p99_ms} ms  ${row.cpu_ms_per_req} ms CPU/req  non-2xx ${row.non_2xx}${row.statuses ? ` ${JSON.stringify(row.statuses)}` : ''}  errors ${row.errors}`);
  return row;
}

/**
 * A bare node:http server, measured with the same client and connections: the ceiling, or with
 * `replay` the same server answering with one captured Fanfare answer (the reads' fair reference).
 */
async function measureCeiling(replay?: { call: string; answer: ReplayedAnswer }): Promise<Row> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  if (replay) {
    env.REPLAY_FILE = path.join(logDir, `replay-${replay.call}.json`);
    writeFileSync(env.REPLAY_FILE, JSON.stringify(replay.answer));
  }
  const child: ChildProcess = spawnTs('bench/rest/ceiling.ts', [], { env, logFile: path.join(logDir, `ceiling-${replay?.call ?? 'bare'}.log`) });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, 30_000, child);
    await autocannon({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, duration: 1 });
    const request: Request = replay ? { method: 'GET', path: '/' } : { method: 'POST', path: '/', body: '{}' };
    const row = await measure('node:http', replay ? `${replay.call} replayed` : 'ceiling', `http://127.0.0.1:${port}`, child.pid!, request, null);
    return replay ? { ...row, replay_of: replay.call } : row;
  } finally {
    await stopProcess(child);
  }
}

/** The calls served from memory: each gets a replay reference (its answer, byte for byte, from a bare server). */
const READ_CALLS = new Set(['get_party', 'get_party_live', 'chat_recent']);
/** Headers node:http writes itself, left out of a captured answer. */
const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** One answer of `request`, as autocannon would get it (no Accept-Encoding), with its headers and body. */
function captureAnswer(base: string, request: Request): Promise<ReplayedAnswer> {
  const req = request.setupRequest ? request.setupRequest({ ...request }, {}) : request;
  return new Promise((resolve, reject) => {
    const out = http.request(`${base}${req.path}`, { method: req.method, headers: req.headers as http.OutgoingHttpHeaders }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = Object.fromEntries(Object.entries(res.headers).filter(([k, v]) => !HOP_HEADERS.has(k) && typeof v === 'string')) as Record<string, string>;
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    out.on('error', reject);
    out.end(req.body);
  });
}

/** A fresh PostgreSQL database for one run; dropped afterwards. */
async function freshPostgres(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_rest_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The party every call hits: anonymous signups, voting on, the demo album as tracks. */
async function setUpParty(base: string): Promise<{ tokens: string[]; trackIds: string[] }> {
  await call(`${base}/api/parties/${PARTY}`, {
    method: 'PUT',
    headers: cmsHeaders,
    body: JSON.stringify({ name: 'REST bench', starts_at: new Date(Date.now() + 3600_000).toISOString(), login_required: false, voting_enabled: true }),
  });
  await call(`${base}/api/parties/${PARTY}/tracks`, {
    method: 'PUT',
    headers: cmsHeaders,
    body: JSON.stringify({ type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de' }),
  });
  // The live party: started, the first track playing.
  await call(`${base}/api/parties/${LIVE_PARTY}`, { method: 'PUT', headers: cmsHeaders, body: JSON.stringify({ name: 'REST bench, live', starts_at: new Date(Date.now() - 60_000).toISOString(), login_required: false }) });
  await call(`${base}/api/parties/${LIVE_PARTY}/tracks`, { method: 'PUT', headers: cmsHeaders, body: JSON.stringify({ type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de' }) });
  await call(`${base}/api/parties/${LIVE_PARTY}/start`, { method: 'POST', headers: { 'x-cms-token': cmsHeaders['x-cms-token'] } });
  const tokens = await signUpFans(base, PARTY, FANS, log, 32);
  await openPartyPages(base, tokens);
  const tracks = (await (await call(`${base}/api/parties/${PARTY}/tracks`, { headers: { authorization: `Bearer ${tokens[0]}` } })).json()) as PartyTracksResponse;
  return { tokens, trackIds: tracks.items.map((t) => t.id) };
}

/**
 * Each fan opens the party page once (`GET /users/me`, as the party app does on load) before any
 * call is measured: fans chat and vote from an open page, so their first read is not what is timed.
 */
async function openPartyPages(base: string, tokens: string[]): Promise<void> {
  await inPool(tokens.length, 32, async (i) => {
    const res = await call(`${base}/api/parties/${PARTY}/users/me`, { headers: { authorization: `Bearer ${tokens[i]}` } });
    await res.arrayBuffer();
  });
  log(`   ${tokens.length} fans opened the party page`);
}

/** The request of each call; fans and tracks rotate so no fan hits the chat rate limit and votes change. */
function requestOf(callName: string, tokens: string[], trackIds: string[]): Request {
  let i = 0;
  const bearer = () => ({ authorization: `Bearer ${tokens[i++ % tokens.length]}` });
  switch (callName) {
    case 'get_party':
      return { method: 'GET', path: `/api/parties/${PARTY}` };
    case 'get_party_live':
      return { method: 'GET', path: `/api/parties/${LIVE_PARTY}` };
    case 'chat_recent':
      return { method: 'GET', path: `/api/parties/${PARTY}/chat/recent`, setupRequest: (req) => ({ ...req, headers: bearer() }) };
    case 'chat_post':
      return {
        method: 'POST',
        path: `/api/parties/${PARTY}/chat/messages`,
        setupRequest: (req) => ({ ...req, headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify({ text: `bench message ${i}` }) }),
      };
    case 'vote':
      return {
        method: 'POST',
        setupRequest: (req) => {
          const n = i;
          const track = trackIds[Math.floor(n / tokens.length) % trackIds.length]!;
          return { ...req, path: `/api/parties/${PARTY}/tracks/${encodeURIComponent(track)}/votes`, headers: bearer() };
        },
      };
    case 'signup': {
      // Display names are unique in a party: each run (warm-up or measured) names its own.
      const run = Math.random().toString(36).slice(2, 8);
      return {
        method: 'POST',
        path: `/api/parties/${PARTY}/users`,
        setupRequest: (req) => {
          const n = i++;
          return { ...req, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ real_name: `Signup ${n}`, display_name: `signup-${run}-${n}` }) };
        },
      };
    }
    default:
      throw new Error(`unknown call ${callName}`);
  }
}

/** Reads already given their replay reference in this run. */
const replayed = new Set<string>();

/** Fanfare's rows on `db`, each read followed by its replay reference the first time it is measured. */
async function measureFanfare(db: 'sqlite' | 'postgres'): Promise<Row[]> {
  const pgDb = db === 'postgres' ? await freshPostgres(args['pg-url']!) : null;
  const inspectPort = args['cpu-prof'] ? await freePort() : null;
  let server: FanfareServer | null = null;
  let profiler: RemoteProfiler | null = null;
  try {
    server = await startFanfareServer({
      env: { DEMO_SEED: 'false', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) },
      nodeArgs: inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : [],
      logFile: path.join(logDir, `fanfare-${db}.log`),
    });
    log(`-- Fanfare on ${db}: setting up party '${PARTY}' with ${FANS} fans`);
    const { tokens, trackIds } = await setUpParty(server.base);
    if (inspectPort) profiler = await RemoteProfiler.attach(inspectPort);
    const rows: Row[] = [];
    for (const callName of CALLS) {
      // A short warm-up of the same call (JIT, caches), not counted.
      await autocannon({ url: server.base, connections: CONNECTIONS, duration: 1, requests: [requestOf(callName, tokens.slice(0, Math.ceil(tokens.length / 8)), trackIds)] });
      // The chat rate limit counts the warm-up's posts: wait until they are out of its window.
      if (callName === 'chat_post') await sleep(CHAT_RATE_LIMIT_WINDOW_MS + 500);
      rows.push(await measure(db, callName, server.base, server.pid, requestOf(callName, tokens, trackIds), profiler));
      // The replay reference runs right after the call it replays (this host's speed drifts within
      // minutes); the first database's answer stands for both, as they give the same bytes.
      if (READ_CALLS.has(callName) && !replayed.has(callName)) {
        replayed.add(callName);
        const answer = await captureAnswer(server.base, requestOf(callName, tokens, trackIds));
        if (answer.status !== 200) throw new Error(`${callName} answered ${answer.status}: nothing to replay`);
        rows.push(await measureCeiling({ call: callName, answer }));
      }
    }
    return rows;
  } finally {
    profiler?.close();
    await server?.stop();
    await pgDb?.drop();
  }
}

async function main(): Promise<void> {
  const machine = machineInfo();
  log(`REST bench: ${CONNECTIONS} connections, ${DURATION_S} s per call, ${FANS} fans; ${machineLine(machine)}`);
  const busy = new MachineCpu();
  busy.start();
  const rows: Row[] = [await measureCeiling()];
  for (const db of DBS) rows.push(...(await measureFanfare(db)));
  const machineBusy = busy.stop();
  const loadEnd = Math.round(os.loadavg()[0]! * 100) / 100;

  const header = ['database', 'call', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'server CPU %', 'requests', 'non-2xx', 'errors', '% of ceiling', '% of replay'];
  const ceiling = rows[0]!.req_s;
  const pct = (a: number, b: number) => `${Math.round((a / b) * 1000) / 10}`;
  const replayRate = (callName: string) => rows.find((r) => r.replay_of === callName)?.req_s;
  const cells = rows.map((r) => {
    const replayed = r.replay_of ? undefined : replayRate(r.call);
    return [r.db, r.call, r.req_s, r.p50_ms, r.p99_ms, r.cpu_ms_per_req, r.server_cpu_pct, r.requests, r.non_2xx, r.errors, pct(r.req_s, ceiling), replayed ? pct(r.req_s, replayed) : ''];
  });
  const loadLine = `machine: ${machineLine(machine)}; load ${loadEnd} at end; whole machine ${machineBusy.busy_pct} % busy over the run (irq ${machineBusy.irq_pct} %)`;
  console.log(`\n${textTable(header, cells)}\n\n${loadLine}`);
  if (args['no-save']) return;
  const profiles = rows
    .filter((r) => r.profile)
    .map((r) => `### ${r.db} ${r.call}\n\n${markdownTable(['area', 'ms', '%'], r.profile!.by_area.slice(0, 10).map((a) => [a.area, a.ms, a.pct]))}\n\n${markdownTable(['function', 'where', 'ms', '%'], r.profile!.top_functions.slice(0, 12).map((f) => [f.fn, f.where, f.ms, f.pct]))}`)
    .join('\n\n');
  const md = [
    `# REST bench, ${today()}`,
    '',
    `autocannon, ${CONNECTIONS} connections, ${DURATION_S} s per call after 1 s of warm-up, party with ${FANS} anonymous fans (tokens rotate per request), server \`apps/server/src/main.ts --only party\`, NODE_ENV=production, LOG_LEVEL=warn. Ceiling: a bare \`node:http\` server in the same run. Each read (\`GET party\`, \`chat/recent\`) also has a replay reference: the same bare server answering with Fanfare's captured answer, headers and body byte for byte (\`% of replay\`).`,
    '',
    markdownTable(header, cells),
    '',
    loadLine,
    '',
    profiles,
  ].join('\n');
  const files = writeResults(args.name!, { date: today(), machine, machine_busy: machineBusy, load_end: loadEnd, connections: CONNECTIONS, duration_s: DURATION_S, fans: FANS, rows }, md + '\n');
  log(`\nwrote ${files.json} and ${files.md}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
