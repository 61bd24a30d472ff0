/**
 * Replay benchmark (issue 47): 10,000 fans opening a party's replay at once cost the server no
 * more than serving static files. One run, on 127.0.0.1:
 *
 * 1. The real server program (SQLite) runs a party: fans chat, a poll and a quiz are answered,
 *    the party ends. The time until the replay job has built the replay is recorded.
 * 2. A replay load is what the app does: GET the manifest, then GET the first play's document.
 *    N loads (default 10,000, so 2N requests) go to the server, and the same N loads of the same
 *    bytes go to static servers: @fastify/static in its own process, and nginx when installed.
 *    Interleaved rounds (replay, static, nginx, replay, ...), each bounded by its request count
 *    and a timeout.
 *
 * Per target: loads/s, p50/p99 per request, the serving process's CPU per load (from /proc).
 */
import { chmodSync, mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Options, type Result } from 'autocannon';
import { ReplayManifest } from '@fanfare/protocol';
import { call, cmsHeaders, inPool, signUpFans, startFanfareServer } from '../lib/fanfare.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { cpuSeconds } from '../lib/proc.ts';
import { freePort, sleep, spawnTs, stopProcess, waitForHttp } from '../lib/processes.ts';
import { markdownTable, textTable, writeResults } from '../lib/results.ts';

const { values: args } = parseArgs({
  options: {
    loads: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    fans: { type: 'string', default: '300' },
    'messages-per-fan': { type: 'string', default: '5' },
    name: { type: 'string', default: 'replay' },
    'no-save': { type: 'boolean', default: false },
    'no-nginx': { type: 'boolean', default: false },
  },
});
const LOADS = Number(args.loads);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const FANS = Number(args.fans);
const PER_FAN = Number(args['messages-per-fan']);
const PARTY = 'bench';
const ALBUM_ID = '6iz0r2rAVeYBGcpxZOyXHX';
/** Longest a measured round may take (a stalled target fails the round instead of hanging the run). */
const ROUND_TIMEOUT_S = 300;
const logDir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-bench-replay-'));
const log = (line: string) => console.log(line);

interface Row {
  target: string;
  round: number;
  loads: number;
  loads_s: number;
  p50_ms: number;
  p99_ms: number;
  cpu_ms_per_load: number;
  non_2xx: number;
  errors: number;
  bytes_per_load: number;
}

/** N loads (manifest, then document) against `base` while the serving process's CPU is sampled. */
async function measure(target: string, round: number, base: string, paths: [string, string], pids: number[]): Promise<Row> {
  const cpu0 = pids.reduce((s, p) => s + (cpuSeconds(p) ?? 0), 0);
  const t0 = performance.now();
  const result: Result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    amount: LOADS * 2,
    timeout: 30,
    maxOverallRequests: LOADS * 2,
    requests: [{ method: 'GET', path: paths[0] }, { method: 'GET', path: paths[1] }],
    // autocannon stops at `amount`; this bounds a stalled target.
    duration: ROUND_TIMEOUT_S,
  } as Options);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = pids.reduce((s, p) => s + (cpuSeconds(p) ?? 0), 0) - cpu0;
  const loads = result.requests.total / 2;
  return {
    target,
    round,
    loads,
    loads_s: Math.round(loads / seconds),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    cpu_ms_per_load: Number(((cpu * 1000) / Math.max(1, loads)).toFixed(3)),
    non_2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes_per_load: Math.round(result.throughput.total / Math.max(1, loads)),
  };
}

/** nginx serving `dir` on a free port, as the reverse proxy of `deploy/` would serve a cached copy. */
async function startNginx(dir: string): Promise<{ base: string; child: ChildProcess; pids: () => number[] } | null> {
  if (args['no-nginx']) return null;
  const port = await freePort();
  const conf = path.join(logDir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${logDir}/nginx.pid;
error_log ${logDir}/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${logDir}/body; proxy_temp_path ${logDir}/proxy; fastcgi_temp_path ${logDir}/fcgi; uwsgi_temp_path ${logDir}/uwsgi; scgi_temp_path ${logDir}/scgi;
  default_type application/json;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
    location / { add_header Cache-Control "public, max-age=31536000, immutable"; etag on; }
  }
}
`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', logDir], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/manifest.json`, 10_000, child);
  } catch {
    child.kill('SIGTERM');
    log('   nginx did not start here: skipped');
    return null;
  }
  // One worker: its pid is the master's child; both are counted.
  const pids = () => {
    try {
      const out = execFileSync('pgrep', ['-P', String(child.pid)]).toString();
      return [child.pid!, ...out.split('\n').filter(Boolean).map(Number)];
    } catch {
      return [child.pid!];
    }
  };
  return { base, child, pids };
}

async function main() {
  const machine = machineInfo();
  log(`replay benchmark: ${LOADS} loads per target and round, ${CONNECTIONS} connections, ${ROUNDS} rounds; ${machineLine(machine)}`);
  const server = await startFanfareServer({ logFile: path.join(logDir, 'server.log'), env: { DEMO_SEED: 'false' } });
  const b = server.base;
  let staticChild: ChildProcess | null = null;
  let nginx: Awaited<ReturnType<typeof startNginx>> = null;
  try {
    // 1. A party with chat, a poll and a quiz, then its end.
    await call(`${b}/api/parties/${PARTY}`, { method: 'PUT', headers: cmsHeaders, body: JSON.stringify({ name: 'Replay bench', login_required: false, starts_at: new Date(Date.now() + 3600_000).toISOString() }) });
    await call(`${b}/api/parties/${PARTY}/tracks`, { method: 'PUT', headers: cmsHeaders, body: JSON.stringify({ type: 'album', id: ALBUM_ID, service: 'umg_hls', country: 'de' }) });
    const tokens = await signUpFans(b, PARTY, FANS, log);
    await call(`${b}/api/parties/${PARTY}/start`, { method: 'POST', headers: { 'x-cms-token': cmsHeaders['x-cms-token'] } });
    await call(`${b}/api/parties/${PARTY}/chat/polls`, { method: 'POST', headers: cmsHeaders, body: JSON.stringify({ question: 'Best song?', options: ['A', 'B', 'C'], duration_seconds: 60, set_next_track: false }) });
    await call(`${b}/api/parties/${PARTY}/chat/quiz/questions`, { method: 'POST', headers: cmsHeaders, body: JSON.stringify({ question: 'Year?', options: ['1999', '2001'], correct_answer: 1, duration_seconds: 60, set_next_track: false }) });
    for (let k = 0; k < PER_FAN; k++) {
      await inPool(FANS, 16, async (i) => {
        await call(`${b}/api/parties/${PARTY}/chat/messages`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` }, body: JSON.stringify({ text: `message ${k} from fan ${i}: what a track` }) });
      });
    }
    log(`   ${FANS * PER_FAN} chat messages posted`);
    const endedAt = Date.now();
    await call(`${b}/api/parties/${PARTY}/end`, { method: 'POST', headers: { 'x-cms-token': cmsHeaders['x-cms-token'] } });
    let manifest: ReplayManifest | null = null;
    for (let i = 0; i < 600 && !manifest; i++) {
      const res = await fetch(`${b}/api/parties/${PARTY}/replay`);
      if (res.ok) manifest = ReplayManifest.parse(await res.json());
      else await sleep(100);
    }
    if (!manifest) throw new Error('the replay was not built within 60 s');
    const onlineAfterMs = Date.now() - endedAt;
    log(`   replay online ${onlineAfterMs} ms after the end; ${manifest.plays[0]!.item_count} items in the first play's document`);

    // 2. The same bytes as static files.
    const paths: [string, string] = [`/api/parties/${PARTY}/replay`, manifest.plays[0]!.document];
    const dir = path.join(logDir, 'static');
    mkdirSync(dir, { recursive: true });
    // nginx's worker runs as an unprivileged user: the files must be readable by it.
    chmodSync(logDir, 0o755);
    chmodSync(dir, 0o755);
    const manifestBytes = Buffer.from(await (await call(`${b}${paths[0]}`)).arrayBuffer());
    const docBytes = Buffer.from(await (await call(`${b}${paths[1]}`)).arrayBuffer());
    writeFileSync(path.join(dir, 'manifest.json'), manifestBytes);
    writeFileSync(path.join(dir, 'document.json'), docBytes);
    const staticPort = await freePort();
    staticChild = spawnTs('bench/replay/staticServer.ts', [], { env: { ...process.env, STATIC_DIR: dir, PORT: String(staticPort), NODE_ENV: 'production' }, logFile: path.join(logDir, 'static.log') });
    const staticBase = `http://127.0.0.1:${staticPort}`;
    await waitForHttp(`${staticBase}/manifest.json`, 30_000, staticChild);
    nginx = await startNginx(dir);
    const staticPaths: [string, string] = ['/manifest.json', '/document.json'];

    // 3. Interleaved rounds.
    const rows: Row[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      rows.push(await measure('fanfare replay (GET manifest + document)', round, b, paths, [server.pid]));
      log(`   round ${round}: replay ${rows.at(-1)!.loads_s} loads/s`);
      rows.push(await measure('@fastify/static, same bytes', round, staticBase, staticPaths, [staticChild.pid!]));
      log(`   round ${round}: @fastify/static ${rows.at(-1)!.loads_s} loads/s`);
      if (nginx) {
        rows.push(await measure('nginx, same bytes', round, nginx.base, staticPaths, nginx.pids()));
        log(`   round ${round}: nginx ${rows.at(-1)!.loads_s} loads/s`);
      }
    }
    const header = ['target', 'round', 'loads', 'loads/s', 'p50 ms', 'p99 ms', 'CPU ms/load', 'non-2xx', 'errors', 'bytes/load'];
    const body = rows.map((r) => [r.target, r.round, r.loads, r.loads_s, r.p50_ms, r.p99_ms, r.cpu_ms_per_load, r.non_2xx, r.errors, r.bytes_per_load]);
    log('');
    log(textTable(header, body));
    const md = [
      `# Replay benchmark (${new Date().toISOString()})`,
      '',
      machineLine(machine),
      '',
      `${LOADS} replay loads (GET manifest, then GET the first play's document) per target and round, ${CONNECTIONS} connections, 127.0.0.1, interleaved rounds.`,
      `Party: ${FANS * PER_FAN} chat messages, a poll, a quiz; the replay was online ${onlineAfterMs} ms after the party's end.`,
      `Bytes: manifest ${manifestBytes.length}, document ${docBytes.length}.`,
      '',
      markdownTable(header, body),
      '',
    ].join('\n');
    if (!args['no-save']) {
      const files = writeResults(args.name!, { machine, loads: LOADS, connections: CONNECTIONS, rounds: ROUNDS, messages: FANS * PER_FAN, online_after_ms: onlineAfterMs, manifest_bytes: manifestBytes.length, document_bytes: docBytes.length, rows }, md);
      log(`\nwrote ${files.json} and ${files.md}`);
    }
  } finally {
    if (nginx) {
      nginx.child.kill('SIGTERM');
      await sleep(200);
    }
    if (staticChild) await stopProcess(staticChild);
    await server.stop();
    rmSync(logDir, { recursive: true, force: true });
  }
}

await main();
