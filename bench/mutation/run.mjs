#!/usr/bin/env node
/* global process, console, URL */
/**
 * `npm run test:mutation [-- target ...]`: Stryker (vitest runner) over campaign-sdk, protocol and
 * the party app's rules, one target at a time. Each run is recorded as
 * bench/results/mutation-<target>-<date>.md (with `Mutation score: NN.N %`) beside its JSON report.
 * Slow (minutes per target): not part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { MUTATION_TARGETS } from './targets.mjs';

const root = new URL('../..', import.meta.url).pathname;
const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(MUTATION_TARGETS);
const date = new Date().toISOString().slice(0, 10);
let failed = false;

for (const name of names) {
  const target = MUTATION_TARGETS[name];
  if (!target) throw new Error(`Unknown target ${name}: ${Object.keys(MUTATION_TARGETS).join(', ')}`);
  const jsonReport = `reports/mutation/${name}.json`;
  const config = {
    testRunner: 'vitest',
    plugins: ['@stryker-mutator/vitest-runner'],
    vitest: { configFile: 'bench/mutation/vitest.config.mjs' },
    // MUTATION_FILES narrows a run to some files (comma-separated globs) when the machine is busy.
    mutate: process.env.MUTATION_FILES ? process.env.MUTATION_FILES.split(',') : target.mutate,
    reporters: ['json', 'clear-text', 'progress'],
    jsonReporter: { fileName: jsonReport },
    coverageAnalysis: 'perTest',
    concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
    tempDirName: `.stryker-tmp/${name}`,
    // Not copied into the sandbox: other targets' sandboxes (runs may overlap), reports, audio.
    ignorePatterns: ['/.stryker-tmp', '/reports', '/bench/results', '/apps/server/catalog/audio', '/data'],
    // A re-run tests only the mutants whose code or covering tests changed since the last run.
    incremental: true,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    thresholds: { high: 90, low: 85, break: null },
  };
  mkdirSync(`${root}.stryker-tmp`, { recursive: true });
  const configFile = `.stryker-tmp/${name}.conf.json`;
  writeFileSync(`${root}${configFile}`, JSON.stringify(config, null, 2));
  const started = Date.now();
  const run = spawnSync('npx', ['stryker', 'run', configFile], { cwd: root, stdio: 'inherit', env: { ...process.env, MUTATION_TARGET: name } });
  if (run.status !== 0) {
    failed = true;
    continue;
  }
  const report = JSON.parse(readFileSync(`${root}${jsonReport}`, 'utf8'));
  const counts = {};
  for (const file of Object.values(report.files)) for (const m of file.mutants) counts[m.status] = (counts[m.status] ?? 0) + 1;
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  const score = valid === 0 ? 100 : (100 * detected) / valid;
  // A second run on one day gets its own record (…-<date>-2) rather than replacing the first.
  let out = `bench/results/mutation-${name}-${date}`;
  for (let n = 2; existsSync(`${root}${out}.md`); n++) out = `bench/results/mutation-${name}-${date}-${n}`;
  copyFileSync(`${root}${jsonReport}`, `${root}${out}.json`);
  writeFileSync(
    `${root}${out}.md`,
    [
      `# Mutation testing: ${name}, ${date}`,
      '',
      `Mutation score: ${score.toFixed(1)} %`,
      '',
      `Stryker ${'9.6.1'} with the vitest runner, ${config.concurrency} worker(s), incremental, ${Math.round((Date.now() - started) / 1000)} s.`,
      `Files: ${config.mutate.join(', ')}${process.env.MUTATION_FILES ? ' (a partial run)' : ''}`,
      '',
      '| status | mutants |',
      '|---|---|',
      ...Object.entries(counts).map(([s, n]) => `| ${s} | ${n} |`),
      '',
      `Full report: \`${out.split('/').pop()}.json\`.`,
      '',
    ].join('\n'),
  );
  console.log(`${name}: Mutation score ${score.toFixed(1)} % -> ${out}.md`);
}
process.exit(failed ? 1 : 0);
