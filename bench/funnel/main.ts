/**
 * Funnel aggregation benchmark: N events (default 1,000,000) of one campaign on SQLite and on
 * PostgreSQL, summarised by the server's own code (`summariseFunnel`: four grouped reads of the
 * hourly rollup) against a fair reference in the same run: the same four breakdowns as plain
 * GROUP BYs over the raw events (with the campaign/time index). Both answers are checked equal.
 *
 * Loading: raw rows in multi-row inserts, then the rollup built by one INSERT … SELECT … GROUP BY,
 * which fills the same rows the ingest path adds to one event at a time (tests check that path).
 *
 *   npm run bench:funnel                          # 1M events, SQLite and PostgreSQL, 3 rounds
 *   npm run bench:funnel -- --events 100000 --no-save
 */
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { FUNNEL_EVENT_KINDS, FUNNEL_MAX_CHANNELS } from '@fanfare/protocol';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../apps/server/src/platform/db/database.ts';
import { summariseFunnel } from '../../apps/server/src/cms/funnel/service.ts';
import { integerReader } from '../lib/args.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { markdownTable, textTable, writeResults } from '../lib/results.ts';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    days: { type: 'string', default: '60' },
    rounds: { type: 'string', default: '3' },
    pg: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    targets: { type: 'string', default: 'sqlite,postgres' },
    'no-save': { type: 'boolean', default: false },
  },
});
const int = integerReader(values);
const EVENTS = int('events', 1000, 5_000_000);
const DAYS = int('days', 1, 365);
const ROUNDS = int('rounds', 1, 10);
const TARGET_MS = 2000;
const CAMPAIGN = 'bench-campaign';
const HOUR = 3_600_000;
const START = Date.UTC(2026, 8, 1);
const END = START + DAYS * 24 * HOUR;

/** A deterministic generator (mulberry32): every run and database gets the same events. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
/** Picks by weight (skewed like real traffic: a few channels and countries bring most visits). */
function weighted<T>(rnd: () => number, items: readonly (readonly [T, number])[]): () => T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  return () => {
    let x = rnd() * total;
    for (const [v, w] of items) if ((x -= w) < 0) return v;
    return items.at(-1)![0];
  };
}

const rnd = random(1046);
const kind = weighted(rnd, [['visit', 60], ['play', 15], ['login', 10], ['signup', 5], ['gate_pass', 4], ['confirmed', 3.5], ['presave', 2.5]] as const);
const territory = weighted(rnd, ['DE', 'US', 'GB', 'FR', 'AT', 'CH', 'NL', 'ES', 'IT', 'SE', 'PL', 'BR', 'JP', 'CA', 'AU'].map((c, i) => [c, 1 / (i + 1)] as const));
const channel = weighted(rnd, [
  [['instagram', 'social', 'launch', 'l.instagram.com'], 30],
  [['', '', '', ''], 20],
  [['tiktok', 'social', 'launch', 'www.tiktok.com'], 15],
  [['newsletter', 'email', 'launch', ''], 10],
  [['google', 'cpc', 'launch', 'www.google.com'], 8],
  [['', '', '', 'www.google.com'], 6],
  [['facebook', 'paid', 'teaser', 'm.facebook.com'], 5],
  [['youtube', 'video', 'teaser', 'www.youtube.com'], 3],
  [['', '', '', 't.co'], 2],
  [['spotify', 'referral', '', 'open.spotify.com'], 1],
] as const);

type Row = { campaign_id: string; at: number; kind: string; territory: string; utm_source: string; utm_medium: string; utm_campaign: string; referrer_host: string; variant: string };
function* eventRows(): Generator<Row> {
  for (let i = 0; i < EVENTS; i++) {
    const [utm_source, utm_medium, utm_campaign, referrer_host] = channel();
    yield { campaign_id: CAMPAIGN, at: START + Math.floor(rnd() * (END - START)), kind: kind(), territory: territory(), utm_source, utm_medium, utm_campaign, referrer_host, variant: rnd() < 0.5 ? 'a' : 'b' };
  }
}

async function load(h: DatabaseHandle): Promise<{ load_s: number; rollup_rows: number }> {
  const t0 = performance.now();
  const batch: Row[] = [];
  // 9 columns × 2000 rows stays under both dialects' limits on bound parameters.
  await h.db.transaction().execute(async (trx) => {
    for (const r of eventRows()) {
      batch.push(r);
      if (batch.length === 2000) {
        await trx.insertInto('funnel_events').values(batch).execute();
        batch.length = 0;
      }
    }
    if (batch.length) await trx.insertInto('funnel_events').values(batch).execute();
  });
  for (const [table, ms] of [['funnel_hourly', HOUR], ['funnel_daily', 24 * HOUR]] as const) {
    const period = sql`(at / ${sql.lit(ms)}) * ${sql.lit(ms)}`;
    await sql`insert into ${sql.table(table)} (campaign_id, period_start, kind, territory, utm_source, utm_medium, utm_campaign, referrer_host, variant, count)
      select campaign_id, ${period}, kind, territory, utm_source, utm_medium, utm_campaign, referrer_host, variant, count(*)
      from funnel_events group by campaign_id, ${period}, kind, territory, utm_source, utm_medium, utm_campaign, referrer_host, variant`.execute(h.db);
  }
  await sql`analyze`.execute(h.db);
  const { n } = await h.db.selectFrom('funnel_daily').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return { load_s: Math.round((performance.now() - t0) / 100) / 10, rollup_rows: Number(n) };
}

/** The reference: the report's four breakdowns as plain GROUP BYs over the raw events. */
async function naive(h: DatabaseHandle) {
  const base = sql`from funnel_events where campaign_id = ${CAMPAIGN} and at >= ${START} and at < ${END}`;
  const [variants, territories, channels, days] = await Promise.all([
    sql<{ variant: string; kind: string; n: number }>`select variant, kind, count(*) as n ${base} group by variant, kind`.execute(h.db),
    sql`select territory, kind, count(*) as n ${base} group by territory, kind`.execute(h.db),
    sql`select utm_source, utm_medium, utm_campaign, referrer_host, kind, count(*) as n ${base} group by utm_source, utm_medium, utm_campaign, referrer_host, kind`.execute(h.db),
    sql`select (at / ${sql.lit(86_400_000)}) * ${sql.lit(86_400_000)} as d, kind, count(*) as n ${base} group by (at / ${sql.lit(86_400_000)}) * ${sql.lit(86_400_000)}, kind`.execute(h.db),
  ]);
  const totals = Object.fromEntries(FUNNEL_EVENT_KINDS.map((k) => [k, 0]));
  for (const r of variants.rows) totals[r.kind] = (totals[r.kind] ?? 0) + Number(r.n);
  return { totals, rows: variants.rows.length + territories.rows.length + channels.rows.length + days.rows.length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(target: 'sqlite' | 'postgres') {
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  if (target === 'sqlite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fanfare-bench-funnel-'));
    handle = openDatabase(`sqlite:${path.join(dir, 'bench.db')}`);
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `fanfare_bench_funnel_${process.pid}`;
    const admin = new pg.Client({ connectionString: values.pg });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(values.pg!);
    url.pathname = `/${name}`;
    handle = openDatabase(url.toString());
    cleanup = async () => {
      const c = new pg.Client({ connectionString: values.pg });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  try {
    await migrateToLatest(handle.db);
    console.log(`${target}: loading ${EVENTS.toLocaleString('en')} events …`);
    const loaded = await load(handle);
    const fanfare: number[] = [];
    const reference: number[] = [];
    let checked = false;
    for (let r = 0; r < ROUNDS; r++) {
      let t = performance.now();
      const summary = await summariseFunnel(handle.db, 'day', CAMPAIGN, START, END, 'day');
      fanfare.push(performance.now() - t);
      t = performance.now();
      const ref = await naive(handle);
      reference.push(performance.now() - t);
      if (FUNNEL_EVENT_KINDS.some((k) => summary.totals[k] !== ref.totals[k])) throw new Error(`${target}: the report's totals differ from the raw GROUP BY`);
      if (Object.values(summary.totals).reduce((a, b) => a + b, 0) !== EVENTS) throw new Error(`${target}: the report does not count every event`);
      if (summary.channels.length > FUNNEL_MAX_CHANNELS + 1) throw new Error('too many channels');
      checked = true;
    }
    return { target, events: EVENTS, ...loaded, fanfare_ms: fanfare.map(Math.round), reference_ms: reference.map(Math.round), fanfare_median_ms: Math.round(median(fanfare)), reference_median_ms: Math.round(median(reference)), totals_equal: checked };
  } finally {
    await handle.close();
    await cleanup();
  }
}

const machine = machineInfo();
console.log(machineLine(machine));
const results = [];
for (const target of values.targets!.split(',') as ('sqlite' | 'postgres')[]) results.push(await measure(target));
const header = ['database', 'events', 'daily rollup rows', `Fanfare report (median of ${ROUNDS}) ms`, 'ref: GROUP BY raw rows ms', `under ${TARGET_MS} ms`, 'totals equal', 'load s'];
const rows = results.map((r) => [r.target, r.events, r.rollup_rows, r.fanfare_median_ms, r.reference_median_ms, r.fanfare_median_ms < TARGET_MS ? 'yes' : 'NO', r.totals_equal ? 'yes' : 'no', r.load_s]);
console.log(textTable(header, rows));
if (!values['no-save']) {
  const md = `# Funnel aggregation, ${EVENTS.toLocaleString('en')} events of one campaign over ${DAYS} days\n\n${machineLine(machine)}\n\n${markdownTable(header, rows)}\n\nEach round runs the server's \`summariseFunnel\` (four grouped reads of the daily rollup \`funnel_daily\`: variants, territories, channels, days) and then the reference: the same four breakdowns as GROUP BYs over \`funnel_events\` (index on campaign_id, at). Rounds: ${JSON.stringify(results.map((r) => ({ db: r.target, fanfare: r.fanfare_ms, reference: r.reference_ms })))}.\n`;
  const out = writeResults('funnel-1m', { machine, events: EVENTS, days: DAYS, rounds: ROUNDS, results }, md);
  console.log(`wrote ${out.md}`);
}
