/**
 * "10x today's rate", measured on one host (issue 16): the REST bench of the code the issue
 * measured, and the REST bench of this checkout, taking turns on the same machine (A B A B), so
 * the ratio is not a comparison of two hosts. The issue's figures came from another host whose
 * bare `node:http` ceiling was 33-44 k; this one's has been 20-88 k depending on the host and hour.
 *
 * The old code runs from a git worktree of `--commit` (default: the commit that added the REST
 * bench, the code the issue's table describes) with its own `npm ci`; each side runs its own
 * `bench/rest/main.ts` on SQLite with the same calls, fans, connections and duration.
 *
 * The old bench counted every answer in req/s, 429s included; this one counts 2xx only. Both are
 * compared as 2xx answers per second.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { ROOT } from '../lib/processes.ts';
import { markdownTable, textTable, today, writeResults } from '../lib/results.ts';
import { median, spread } from '../lib/stats.ts';

/** The commit that added `bench:rest`: the server code the issue's REST table was measured on. */
const ISSUE_CODE = '020d0bf';

const { values: args } = parseArgs({
  options: {
    commit: { type: 'string', default: ISSUE_CODE },
    rounds: { type: 'string', default: '2' },
    fans: { type: 'string', default: '8000' },
    duration: { type: 'string', default: '6' },
    calls: { type: 'string', default: 'signup,chat_post,chat_recent,vote,get_party' },
    'no-save': { type: 'boolean', default: false },
    // The results' file name (before the date): a second run of a day need not replace the first.
    name: { type: 'string', default: 'rest-baseline' },
  },
});
const ROUNDS = Number(args.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 10) throw new Error('--rounds must be an integer in [1, 10]');
const CALLS = args.calls!.split(',').filter(Boolean);
/** The reads the issue wants at 10x today's rate. */
const TEN_X = new Set(['chat_recent', 'get_party']);
/** A side's bench run is bounded: sign-ups, six calls and the ceiling take 2-4 minutes here. */
const RUN_TIMEOUT_MS = 15 * 60_000;

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

interface BenchRow {
  db: string;
  call: string;
  req_s: number;
  requests: number;
  non_2xx: number;
  cpu_ms_per_req: number;
  statuses?: Record<string, number>;
  replay_of?: string;
}

/** 2xx answers per second: the old bench's req/s counted every answer (it had no `statuses`). */
function servedPerSecond(row: BenchRow): number {
  if (row.statuses || row.non_2xx === 0 || row.requests === 0) return row.req_s;
  return Math.round((row.req_s * (row.requests - row.non_2xx)) / row.requests);
}

function run(cmd: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${argv.join(' ')} in ${cwd} exited with ${code}`));
    });
  });
}

/** Runs one side's REST bench with results in a temp folder; returns its rows. */
async function benchSide(tree: string, label: string): Promise<BenchRow[]> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'fanfare-baseline-'));
  try {
    log(`-- ${label}`);
    const name = 'rest';
    // The old bench ignores BENCH_RESULTS_DIR and writes under its own tree, beside that commit's results.
    const ownResults = path.join(tree, 'bench', 'results');
    const written = (dir: string) => readdirSync(dir).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.json'));
    if (tree !== ROOT) for (const f of written(ownResults)) rmSync(path.join(ownResults, f));
    await run(process.execPath, ['--import', 'tsx', 'bench/rest/main.ts', '--db', 'sqlite', '--fans', args.fans!, '--duration', args.duration!, '--calls', CALLS.join(','), '--name', name], tree, { ...process.env, BENCH_RESULTS_DIR: out });
    const dir = tree === ROOT || written(out).length ? out : ownResults;
    const file = written(dir).sort().at(-1);
    if (!file) throw new Error(`${label}: no results written`);
    return (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { rows: BenchRow[] }).rows;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const machine = machineInfo();
  const git = (...a: string[]) => spawnSync('git', a, { cwd: ROOT, encoding: 'utf8' });
  const commit = git('rev-parse', '--short', args.commit!).stdout.trim();
  const head = git('rev-parse', '--short', 'HEAD').stdout.trim();
  if (!commit) throw new Error(`unknown commit ${args.commit}`);
  log(`REST baseline: ${commit} (the issue's code) against ${head} (this checkout), ${ROUNDS} round(s), ${machineLine(machine)}`);
  const tree = mkdtempSync(path.join(os.tmpdir(), 'fanfare-baseline-tree-'));
  try {
    if (git('worktree', 'add', '--detach', '-f', tree, commit).status !== 0) throw new Error(`git worktree add ${commit} failed`);
    log(`installing ${commit}'s packages in ${tree}`);
    await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], tree);
    const old: BenchRow[][] = [];
    const now: BenchRow[][] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      old.push(await benchSide(tree, `round ${round}: ${commit}`));
      now.push(await benchSide(ROOT, `round ${round}: ${head}`));
    }
    report(commit, head, machine, old, now);
  } finally {
    git('worktree', 'remove', '--force', tree);
    git('worktree', 'prune');
    rmSync(tree, { recursive: true, force: true });
  }
}

function report(commit: string, head: string, machine: ReturnType<typeof machineInfo>, old: BenchRow[][], now: BenchRow[][]): void {
  const pick = (runs: BenchRow[][], call: string) => runs.map((rows) => rows.find((r) => r.db === 'sqlite' && r.call === call && !r.replay_of)).filter((r): r is BenchRow => !!r);
  const ceilings = (runs: BenchRow[][]) => runs.map((rows) => rows.find((r) => r.call === 'ceiling')?.req_s ?? NaN);
  const header = ['call', `${commit} 2xx/s`, `${head} 2xx/s`, 'x (medians)', `${commit} CPU ms/answer`, `${head} CPU ms/answer`, 'x less CPU', 'issue target', 'met'];
  const figures = CALLS.map((call) => {
    const a = pick(old, call).map(servedPerSecond);
    const b = pick(now, call).map(servedPerSecond);
    const ca = pick(old, call).map((r) => r.cpu_ms_per_req);
    const cb = pick(now, call).map((r) => r.cpu_ms_per_req);
    const x = round1(median(b) / median(a));
    const target = TEN_X.has(call) ? '10x' : '≥ 2,000 2xx/s';
    const met = TEN_X.has(call) ? x >= 10 : median(b) >= 2000;
    return { call, old_2xx_s: a, new_2xx_s: b, x, old_cpu_ms: ca, new_cpu_ms: cb, cpu_x: round1(median(ca) / median(cb)), target, met };
  });
  const rate = (xs: number[]) => `${Math.round(median(xs)).toLocaleString('en')} (${spread(xs, (x) => x.toLocaleString('en'))})`;
  const cells = figures.map((f) => [f.call, rate(f.old_2xx_s), rate(f.new_2xx_s), f.x, round3(median(f.old_cpu_ms)), round3(median(f.new_cpu_ms)), f.cpu_x, f.target, f.met ? 'yes' : '**no**']);
  const ceilingLine = `bare \`node:http\` ceiling in the same runs: ${commit}'s runs ${ceilings(old).map((c) => c.toLocaleString('en')).join(' / ')}, ${head}'s ${ceilings(now).map((c) => c.toLocaleString('en')).join(' / ')} req/s`;
  console.log(`\n${textTable(header, cells)}\n\n${ceilingLine}\n`);
  if (args['no-save']) return;
  const md = [
    `# REST baseline, ${today()}`,
    '',
    `The REST bench of ${commit} (the code issue 16 measured) and of ${head}, taking turns on this host: ${ROUNDS} round(s), each side's own \`bench/rest/main.ts --db sqlite --fans ${args.fans} --duration ${args.duration}\`. Medians (min–max). 2xx answers per second on both sides (${commit}'s bench counted 429s too). CPU per answer is as each bench reports it (every answer).`,
    '',
    `Machine: ${machineLine(machine)}.`,
    '',
    markdownTable(header, cells),
    '',
    ceilingLine,
    '',
  ].join('\n');
  const files = writeResults(args.name!, { date: today(), machine, commit, head, rounds: ROUNDS, fans: Number(args.fans), duration_s: Number(args.duration), figures, old, now }, md);
  log(`wrote ${files.json} and ${files.md}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
