import { defineConfig } from 'vitest/config';

const UNIT = ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx', 'apps/*/src/**/*.test.ts', 'apps/*/src/**/*.test.tsx'];
const E2E = ['e2e/**/*.e2e.test.ts'];

// Two groups, one after the other. The server, app and package suites wait on sockets, databases
// and timers far more than they compute: two files at a time on the 2-core machines. The browser
// suites (a server and a Chromium each) run one file at a time: two Chromiums side by side starve
// each other of CPU and pages miss their waits. Vitest's own default would be one file at a time
// for everything (cores − 1), which took CI 29 minutes.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'e2e', include: E2E, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
