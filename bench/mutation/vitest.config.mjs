/* global process, URL */
import { defineConfig } from 'vitest/config';
import { MUTATION_TARGETS } from './targets.mjs';

// Stryker runs the target's own tests only (MUTATION_TARGET), never the whole suite.
const target = MUTATION_TARGETS[process.env.MUTATION_TARGET ?? ''];
if (!target) throw new Error(`MUTATION_TARGET must be one of ${Object.keys(MUTATION_TARGETS).join(', ')}`);

export default defineConfig({
  root: new URL('../..', import.meta.url).pathname,
  test: { include: target.tests, testTimeout: 30_000, pool: 'forks' },
});
