/**
 * Lighthouse mobile runs on the demo campaign pages (issue 12: performance at least 90). Starts the
 * real server on free ports with a fresh data directory, runs the Lighthouse CLI (installed outside
 * the repository by run.sh) with Lighthouse's default mobile emulation and throttling, and writes
 * a summary per page to bench/results/lighthouse-campaign-<page>.{json,md}.
 *
 *   bash bench/lighthouse/run.sh campaign [--runs 3]
 */
import os from 'node:os';
import { DEMO_APP_NAME, DEMO_CAMPAIGN_SLUG, DEMO_GATE_SLUG, DEMO_RELEASE_SLUG } from '../../apps/server/src/cms/demoCampaign.ts';
import { startTestServer } from '../../apps/server/src/test/harness.ts';
import { arg, lighthouse, writeSummary, type Lhr } from './report.ts';

const opts = { lighthouse: arg('lighthouse', '/tmp/lh/node_modules/.bin/lighthouse'), chrome: arg('chrome', '/usr/bin/chromium') };
const RUNS = Math.min(5, Math.max(1, Number(arg('runs', '3'))));

async function main(): Promise<void> {
  const server = await startTestServer({ env: { LOG_LEVEL: 'warn' } });
  try {
    const pages = [
      { name: 'release', slug: DEMO_RELEASE_SLUG, what: 'release page (hero, countdown, newsletter, card, text, links)' },
      { name: 'party', slug: DEMO_CAMPAIGN_SLUG, what: 'party campaign page (hero, card, newsletter, player with tracks)' },
      { name: 'gate', slug: DEMO_GATE_SLUG, what: 'token-gate page' },
    ];
    for (const p of pages) {
      const path = `/c/${DEMO_APP_NAME}/${p.slug}`;
      const load = os.loadavg()[0]!;
      const runs: Lhr[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await lighthouse(`${server.cmsUrl}${path}`, opts));
      const perf = writeSummary(`campaign-${p.name}`, { what: p.what, path }, runs, load);
      process.stdout.write(`campaign ${p.name}: performance ${perf} (runs ${runs.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100)).join(', ')})\n`);
    }
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
