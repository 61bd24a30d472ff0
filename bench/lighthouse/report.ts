/**
 * Shared by the Lighthouse benches (campaign pages, party app): runs the Lighthouse CLI installed
 * outside the repository (run.sh) and writes the median of the runs to bench/results/.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const RESULTS = path.resolve(import.meta.dirname, '../results');
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index', 'interactive'] as const;

/** `--name value` from the command line. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

export interface Lhr {
  lighthouseVersion: string;
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; displayValue?: string; score?: number | null; title?: string; details?: unknown }>;
  configSettings: { formFactor: string; throttlingMethod: string; throttling: Record<string, number> };
  /** Lighthouse's CPU benchmark of the host (a fast desktop scores 1500 to 2000; low means a busy or slow host). */
  environment: { benchmarkIndex: number };
}

export interface LighthouseOptions {
  lighthouse: string;
  chrome: string;
  /** Attach to a Chromium already running with this debugging port (its profile, its login). */
  port?: number;
  /** Keep the profile's storage (a logged-in fan); the HTTP cache must then be cleared by the caller. */
  keepStorage?: boolean;
  /** Run Lighthouse and its Chromium at this niceness (negative: ahead of other work on a shared host). */
  nice?: number;
}

/** One Lighthouse run with its default mobile emulation and simulated throttling. */
export async function lighthouse(url: string, opts: LighthouseOptions): Promise<Lhr> {
  const out = path.join(os.tmpdir(), `lh-${process.pid}-${Date.now()}.json`);
  const args = [url, '--quiet', '--output=json', `--output-path=${out}`, '--only-categories=performance,accessibility,best-practices,seo'];
  if (opts.port) args.push(`--port=${opts.port}`);
  else args.push(`--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage`);
  if (opts.keepStorage) args.push('--disable-storage-reset');
  const [cmd, cmdArgs] = opts.nice ? ['nice', ['-n', String(opts.nice), opts.lighthouse, ...args]] : [opts.lighthouse, args];
  await run(cmd, cmdArgs, { env: { ...process.env, CHROME_PATH: opts.chrome }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 });
  const lhr = JSON.parse(fs.readFileSync(out, 'utf8')) as Lhr;
  // LIGHTHOUSE_KEEP_DIR keeps every full report, to read the audits behind a score.
  if (process.env.LIGHTHOUSE_KEEP_DIR) fs.copyFileSync(out, path.join(process.env.LIGHTHOUSE_KEEP_DIR, `${new URL(url).hash ? 'waiting' : 'home'}-${Date.now()}.json`));
  fs.rmSync(out, { force: true });
  return lhr;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Opportunities and diagnostics Lighthouse flags on a run (what to fix next). */
function findings(lhr: Lhr): string[] {
  const ids = ['unused-javascript', 'render-blocking-resources', 'largest-contentful-paint-element', 'uses-text-compression', 'uses-long-cache-ttl', 'font-display', 'total-byte-weight', 'bootup-time', 'mainthread-work-breakdown'];
  return ids.flatMap((id) => {
    const a = lhr.audits[id];
    return a && a.score !== null && a.score !== undefined && a.score < 0.9 ? [`${a.title ?? id}${a.displayValue ? `: ${a.displayValue}` : ''}`] : [];
  });
}

/** Writes `lighthouse-<name>.{json,md}` with the medians of the runs and the host's load; returns the median performance. */
export function writeSummary(name: string, page: { what: string; path: string }, runs: Lhr[], loadAtStart: number, extraNote = ''): number {
  const score = (cat: string) => median(runs.map((r) => Math.round((r.categories[cat]?.score ?? 0) * 100)));
  const summary = {
    page: page.what,
    path: page.path,
    measured_at: new Date().toISOString(),
    lighthouse: runs[0]!.lighthouseVersion,
    form_factor: runs[0]!.configSettings.formFactor,
    throttling: { method: runs[0]!.configSettings.throttlingMethod, ...runs[0]!.configSettings.throttling },
    runs: runs.length,
    median_scores: { performance: score('performance'), accessibility: score('accessibility'), best_practices: score('best-practices'), seo: score('seo') },
    performance_scores: runs.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)),
    median_metrics_ms: Object.fromEntries(METRICS.map((m) => [m, Math.round(median(runs.map((r) => r.audits[m]?.numericValue ?? 0)) * 1000) / 1000])),
    findings_last_run: findings(runs[runs.length - 1]!),
    machine: {
      cpus: os.cpus().length,
      load_average_1m_at_start: Math.round(loadAtStart * 10) / 10,
      load_average_1m_at_end: Math.round(os.loadavg()[0]! * 10) / 10,
      lighthouse_benchmark_index: runs.map((r) => Math.round(r.environment.benchmarkIndex)),
      node: process.version,
      note: `cores shared with other processes; the simulated CPU slowdown multiplies what a busy host measures${extraNote ? `; ${extraNote}` : ''}`,
    },
  };
  fs.writeFileSync(path.join(RESULTS, `lighthouse-${name}.json`), JSON.stringify(summary, null, 2) + '\n');
  const md = [
    `# Lighthouse mobile: ${page.what}`,
    '',
    `\`${summary.path}\`, Lighthouse ${summary.lighthouse}, ${summary.form_factor} with ${summary.throttling.method} throttling, median of ${runs.length} runs, ${summary.measured_at}.`,
    '',
    '| category | score |',
    '|---|---|',
    ...Object.entries(summary.median_scores).map(([k, v]) => `| ${k.replace('_', ' ')} | ${v} |`),
    '',
    `Performance per run: ${summary.performance_scores.join(', ')}. Host: ${summary.machine.cpus} cores, load average ${summary.machine.load_average_1m_at_start} at start and ${summary.machine.load_average_1m_at_end} at end, Lighthouse CPU benchmark index ${summary.machine.lighthouse_benchmark_index.join(', ')}.${extraNote ? ` ${extraNote}.` : ''}`,
    '',
    '| metric | median |',
    '|---|---|',
    ...Object.entries(summary.median_metrics_ms).map(([k, v]) => `| ${k} | ${k === 'cumulative-layout-shift' ? v : `${Math.round(v)} ms`} |`),
    '',
    ...(summary.findings_last_run.length ? ['Still flagged (last run):', '', ...summary.findings_last_run.map((f) => `- ${f}`), ''] : []),
    'Run again with `npm run bench:lighthouse` (campaign pages and party app).',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS, `lighthouse-${name}.md`), md);
  return summary.median_scores.performance;
}
