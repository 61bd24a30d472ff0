#!/usr/bin/env node
/* global process, console, URL */
/**
 * `node bench/mutation/combined.mjs <target>`: where a target stands over all its records. Partial
 * runs each cover some files; per file the newest record that mutated it counts, and the score
 * is Killed+Timeout over Killed+Timeout+Survived+NoCoverage summed over those files.
 */
import { readdirSync, readFileSync } from 'node:fs';

const name = process.argv[2] ?? 'campaign-sdk';
const dir = new URL('../results/', import.meta.url).pathname;
const order = (f) => {
  const m = /(\d{4}-\d{2}-\d{2})(?:-(\d+))?\.json$/.exec(f);
  return `${m[1]}-${String(m[2] ?? 1).padStart(3, '0')}`;
};
const records = readdirSync(dir)
  .filter((f) => f.startsWith(`mutation-${name}-`) && f.endsWith('.json'))
  .sort((a, b) => order(a).localeCompare(order(b)));
const latest = new Map();
for (const record of records) {
  const report = JSON.parse(readFileSync(`${dir}${record}`, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) latest.set(file, { record, mutants });
}
let detected = 0;
let valid = 0;
for (const [file, { record, mutants }] of [...latest].sort(([a], [b]) => a.localeCompare(b))) {
  const count = (status) => mutants.filter((m) => m.status === status).length;
  const d = count('Killed') + count('Timeout');
  const v = d + count('Survived') + count('NoCoverage');
  detected += d;
  valid += v;
  console.log(`${file}\t${record}\t${d}/${v}\t${v === 0 ? '-' : ((100 * d) / v).toFixed(1)} %`);
}
console.log(`${latest.size} files, combined ${detected}/${valid}: ${((100 * detected) / valid).toFixed(1)} %`);
