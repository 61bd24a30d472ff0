/**
 * Memory under fuzzing: the real server program (compiled, both listeners) in a child process
 * with its inspector open, fed the OpenAPI fuzz test's requests (`test/fuzzRequests.ts`, the same
 * generator, a fixed seed). Two passes, each on a fresh server and database:
 *
 * 1. memory: RSS and V8 heap after two full GCs before the run, half-way, at the end and after
 *    an idle pause. Nothing else runs in the process (the fuzz test's own figures mix the server
 *    with vitest and fast-check in one heap).
 * 2. heap snapshots (`--no-snapshots` skips it): the same requests, snapshots before and after,
 *    compared by constructor and by the long-lived object that holds the new ones. Taking a
 *    snapshot costs the process native memory that it keeps, so this pass reads no RSS.
 *
 * With `--arena-max N` the server runs with `MALLOC_ARENA_MAX=N` (fewer glibc malloc arenas).
 *
 *   npm run bench:fuzzmem                                     # 8,000 requests on SQLite
 *   npm run bench:fuzzmem -- --requests 2000 --no-save        # quick check
 *   npm run bench:fuzzmem -- --db postgres                    # a fresh database on TEST_DATABASE_URL's server
 *   npm run bench:fuzzmem -- --jumps 2 --no-snapshots         # which requests raise RSS by 2 MB or more
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { ADMIN } from '../../apps/server/src/cms/testing.ts';
import { createPostgresDatabase } from '../../apps/server/src/test/harness.ts';
import { anyRequest, isSent, setUpFuzzWorld } from '../../apps/server/src/test/fuzzRequests.ts';
import { integerReader } from '../lib/args.ts';
import { growthByGroup, HeapSnapshot } from '../lib/heapSnapshot.ts';
import { RemoteProfiler } from '../lib/inspector.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { freePort, sleep, spawnCompiledServer, stopProcess, waitForHttp } from '../lib/processes.ts';
import { markdownTable, serverLogDir, textTable, writeResults } from '../lib/results.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '8000' },
    seed: { type: 'string', default: '43' },
    db: { type: 'string', default: 'sqlite' },
    'arena-max': { type: 'string', default: '0' },
    'idle-seconds': { type: 'string', default: '10' },
    'no-snapshots': { type: 'boolean', default: false },
    jumps: { type: 'string', default: '0' },
    name: { type: 'string', default: '' },
    'no-save': { type: 'boolean', default: false },
  },
});
const int = integerReader(values);
const REQUESTS = int('requests', 100, 100_000);
const SEED = int('seed', 0, 2 ** 31 - 1);
const ARENA_MAX = int('arena-max', 0, 64);
const IDLE_S = int('idle-seconds', 0, 600);
/** With --jumps N: the requests after which RSS rose by N MB or more (no GC: each answer's own step). */
const JUMP_MB = int('jumps', 0, 1000);
const DB = values.db === 'postgres' ? 'postgres' : 'sqlite';
const CMS_TOKEN = 'bench-cms-token-0123456789abcdef';

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}
interface Point {
  point: string;
  requests: number;
  memory: Memory;
}
const mb = (n: number) => Math.round(n / 1048576);

/** A fresh server (and database) with its inspector attached; `stop` removes everything. */
async function startServer(): Promise<{ partyUrl: string; cmsUrl: string; remote: RemoteProfiler; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-fuzzmem-'));
  const pgDb = DB === 'postgres' ? await createPostgresDatabase() : null;
  const [port, cmsPort, inspectPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawnCompiledServer([], {
    nodeArgs: ['--expose-gc', `--inspect=127.0.0.1:${inspectPort}`],
    logFile: path.join(serverLogDir(), 'fuzzmem-server.log'),
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      CMS_PORT: String(cmsPort),
      DATA_DIR: dataDir,
      DATABASE_URL: pgDb?.url ?? '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      CMS_ADMIN_TOKEN: CMS_TOKEN,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_START_DELAY_SECONDS: '300',
      ...(ARENA_MAX ? { MALLOC_ARENA_MAX: String(ARENA_MAX) } : {}),
    },
  });
  let remote: RemoteProfiler | null = null;
  const stop = async () => {
    remote?.close();
    await stopProcess(child);
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const partyUrl = `http://127.0.0.1:${port}`;
    const cmsUrl = `http://127.0.0.1:${cmsPort}`;
    await waitForHttp(`${partyUrl}/healthz`, 90_000, child);
    await waitForHttp(`${cmsUrl}/healthz`, 90_000, child);
    remote = await RemoteProfiler.attach(inspectPort);
    return { partyUrl, cmsUrl, remote, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Memory after two full collections, in MB. */
async function memoryAfterGc(remote: RemoteProfiler): Promise<Memory> {
  await remote.collectGarbage();
  await remote.collectGarbage();
  const m = await remote.evaluate<Memory>(
    '(() => { const m = process.memoryUsage(); return { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers }; })()',
  );
  return { rss: mb(m.rss), heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external), arrayBuffers: mb(m.arrayBuffers) };
}

/** One pass: a fresh server, the world, the requests; memory readings or snapshots around them. */
async function pass(snapshots: boolean) {
  const server = await startServer();
  const { remote } = server;
  const points: Point[] = [];
  const record = async (point: string, requests: number) => {
    const memory = await memoryAfterGc(remote);
    points.push({ point, requests, memory });
    console.log(`${point.padEnd(30)} ${String(requests).padStart(6)} requests  RSS ${memory.rss} MB, heap used ${memory.heapUsed} MB, heap total ${memory.heapTotal} MB, external ${memory.external} MB`);
  };
  const snapDir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-fuzzmem-snap-'));
  try {
    const world = await setUpFuzzWorld({ partyUrl: server.partyUrl, cmsUrl: server.cmsUrl }, CMS_TOKEN);
    await record('before the run (world set up)', 0);
    const beforeSnap = path.join(snapDir, 'before.heapsnapshot');
    if (snapshots) await remote.heapSnapshotTo(beforeSnap);

    const requests = fc.sample(anyRequest(world).filter(isSent), { numRuns: REQUESTS, seed: SEED });
    const statuses = new Map<number, number>();
    const jumps = new Map<string, { times: number; mb: number }>();
    let lastRss = JUMP_MB ? await remote.evaluate<number>('process.memoryUsage.rss()') : 0;
    const started = Date.now();
    for (let i = 0; i < requests.length; i++) {
      const r = requests[i]!;
      try {
        const res = await fetch(r.url, { method: r.method, headers: r.headers, body: r.body, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      if (JUMP_MB) {
        const rss = await remote.evaluate<number>('process.memoryUsage.rss()');
        if (rss - lastRss >= JUMP_MB * 1048576) {
          const at = `${r.method} ${r.op.path} ${r.headers['content-type'] ?? ''}`;
          const j = jumps.get(at) ?? { times: 0, mb: 0 };
          j.times++;
          j.mb += (rss - lastRss) / 1048576;
          jumps.set(at, j);
          console.log(`request ${i + 1}: +${mb(rss - lastRss)} MB RSS after ${at} ${(r.body ?? '').slice(0, 80)}`);
        }
        lastRss = rss;
      }
      if (!snapshots && i + 1 === Math.floor(requests.length / 2)) await record('half-way', i + 1);
    }
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    if (JUMP_MB) console.log(textTable(['request', 'jumps', 'MB'], [...jumps].sort((a, b) => b[1].mb - a[1].mb).map(([at, j]) => [at, j.times, Math.round(j.mb)])));
    await record('after the run', requests.length);
    if (IDLE_S && !snapshots) {
      await sleep(IDLE_S * 1000);
      await record(`after ${IDLE_S} s idle`, requests.length);
    }

    let growth: ReturnType<typeof growthByGroup> = [];
    let holders: ReturnType<HeapSnapshot['newObjectsByHolder']> = [];
    if (snapshots) {
      const afterSnap = path.join(snapDir, 'after.heapsnapshot');
      await remote.heapSnapshotTo(afterSnap);
      console.log(`snapshots: ${mb(statSync(beforeSnap).size)} and ${mb(statSync(afterSnap).size)} MB; comparing`);
      let before: HeapSnapshot | null = new HeapSnapshot(beforeSnap);
      const beforeGroups = before.byGroup();
      const beforeIds = before.ids();
      before = null;
      const after = new HeapSnapshot(afterSnap);
      growth = growthByGroup(beforeGroups, after.byGroup());
      holders = after.newObjectsByHolder(beforeIds);
      console.log(textTable(['constructor', 'count before', 'count after', 'MB before', 'MB after'], growth.map((g) => [g.group, g.count_before, g.count_after, g.mb_before, g.mb_after])));
      console.log(textTable(['new objects held by', 'objects', 'MB', 'largest kinds'], holders.map((h) => [h.holder.slice(0, 140), h.count, (h.size / 1048576).toFixed(2), h.groups])));
    }
    return { points, statuses: Object.fromEntries(statuses), seconds, requests: requests.length, growth, holders };
  } finally {
    rmSync(snapDir, { recursive: true, force: true });
    await server.stop();
  }
}

const machine = machineInfo();
console.log(machineLine(machine));
console.log(`pass 1: memory after GC (${DB}${ARENA_MAX ? `, MALLOC_ARENA_MAX=${ARENA_MAX}` : ''})`);
const memory = await pass(false);
const first = memory.points[0]!.memory;
const last = memory.points.at(-1)!.memory;
const rssChange = Math.round(((last.rss - first.rss) / first.rss) * 100);
const sign = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
console.log(`RSS ${first.rss} → ${last.rss} MB (${sign(rssChange)} %), heap used ${first.heapUsed} → ${last.heapUsed} MB; answers ${JSON.stringify(memory.statuses)}; ${memory.seconds} s`);
let snapshots: Awaited<ReturnType<typeof pass>> | null = null;
if (!values['no-snapshots']) {
  console.log('pass 2: heap snapshots before and after the same requests');
  snapshots = await pass(true);
}

if (!values['no-save']) {
  const label = `${DB}${ARENA_MAX ? `, MALLOC_ARENA_MAX=${ARENA_MAX}` : ''}`;
  const cell = (s: string) => s.replaceAll('|', '/');
  const md = [
    `# Memory under fuzzing (${label}), ${memory.requests.toLocaleString('en')} requests, seed ${SEED}`,
    '',
    machineLine(machine),
    '',
    'Pass 1, memory of the server process after two full GCs (MB):',
    '',
    markdownTable(
      ['point', 'requests', 'RSS', 'heap used', 'heap total', 'external'],
      memory.points.map((p) => [p.point, p.requests, p.memory.rss, p.memory.heapUsed, p.memory.heapTotal, p.memory.external]),
    ),
    '',
    `RSS from before the run to the last point: ${sign(rssChange)} %. Answers by status: ${JSON.stringify(memory.statuses)}. The requests took ${memory.seconds} s.`,
    '',
    ...(snapshots
      ? [
          `Pass 2, heap snapshots before and after the same requests (heap used after GC: ${snapshots.points[0]!.memory.heapUsed} → ${snapshots.points.at(-1)!.memory.heapUsed} MB). The constructors that grew most, by self size:`,
          '',
          markdownTable(
            ['constructor', 'count before', 'count after', 'MB before', 'MB after'],
            snapshots.growth.map((g) => [`\`${cell(g.group)}\``, g.count_before, g.count_after, g.mb_before, g.mb_after]),
          ),
          '',
          'Objects new in the second snapshot, by the first object up their retainer chain that was in the first one (and its own retainers):',
          '',
          markdownTable(
            ['held by', 'objects', 'MB', 'largest kinds'],
            snapshots.holders.map((h) => [`\`${cell(h.holder).slice(0, 200)}\``, h.count, (h.size / 1048576).toFixed(2), cell(h.groups)]),
          ),
          '',
        ]
      : []),
  ].join('\n');
  const json = { machine, db: DB, seed: SEED, arena_max: ARENA_MAX || null, memory, snapshots };
  const out = writeResults(values.name || `fuzzmem-${DB}${ARENA_MAX ? `-arena${ARENA_MAX}` : ''}`, json, md);
  console.log(`wrote ${out.md}`);
}
