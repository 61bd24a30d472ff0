import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/results, where every benchmark writes its figures (BENCH_RESULTS_DIR elsewhere: a bench run by another, bench/rest/baseline.ts). */
export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

/** This run's folder for server logs: in the temp folder, never under bench/results (which --no-save leaves alone). */
export function serverLogDir(): string {
  const dir = path.join(os.tmpdir(), `fanfare-bench-logs-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Today's date as YYYY-MM-DD (local time), the suffix of result files. */
export function today(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Writes `<name>-<date>.json` and `.md` under bench/results; returns both paths. */
export function writeResults(name: string, json: unknown, markdown: string): { json: string; md: string } {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const base = path.join(RESULTS_DIR, `${name}-${today()}`);
  writeFileSync(`${base}.json`, JSON.stringify(json, null, 2) + '\n');
  writeFileSync(`${base}.md`, markdown);
  return { json: `${base}.json`, md: `${base}.md` };
}

/** A Markdown table from a header row and body rows. */
export function markdownTable(header: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** A fixed-width text table for the terminal. */
export function textTable(header: string[], rows: (string | number)[][]): string {
  const all = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...all.map((r) => String(r[i] ?? '').length)));
  const fmt = (r: (string | number)[]) => r.map((c, i) => String(c).padEnd(widths[i]!)).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}
