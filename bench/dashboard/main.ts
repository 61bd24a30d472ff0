/**
 * bench:dashboard (issue 14): does the hosts' live dashboard stay live while the party carries
 * 10,000 fans and 100 chat messages a second, and does its socket carry aggregates rather than
 * every message?
 *
 * One real Fanfare server (SQLite), the open bench party started on the demo album, N fans signed
 * up and connected through bench/fanout's load-client workers, and the chat load of bench/lib
 * (open loop, due times in the texts). During the measured window, side by side:
 *   - dashboard sockets (`view=dashboard`, the admin tool's token): every `party_stats` frame with
 *     its arrival time: update interval, staleness of the newest chat it carries (from the message's
 *     due time), frames, events and bytes per second;
 *   - the reference: one fan socket on the full party stream (what a dashboard subscribed to every
 *     message would receive): events and bytes per second.
 * Every loop is bounded (fans, rate × seconds, frames kept).
 *
 * Usage: npm run bench:dashboard -- [--fans 10000] [--rate 100] [--window 30] [--dashboards 2]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PARTY_ROUTES, PING_TEXT, PONG_TEXT, ServerFrame } from '@fanfare/protocol';
import { WebSocket } from 'ws';
import { BENCH_CMS_TOKEN, call, cmsHeaders, signUpFans, startFanfareServer } from '../lib/fanfare.ts';
import { integerReader } from '../lib/args.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { markdownTable, serverLogDir, textTable, writeResults } from '../lib/results.ts';
import { runSession } from '../fanout/session.ts';
import { createBenchParty, fanPosters, PARTY_ID } from '../fanout/targets.ts';

const { values } = parseArgs({
  options: {
    fans: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '100' },
    window: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '5' },
    dashboards: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    'connect-timeout': { type: 'string', default: '900' },
    'no-save': { type: 'boolean', default: false },
  },
});
const intArg = integerReader(values);
const cfg = {
  fans: intArg('fans', 1, 50_000),
  rate: intArg('rate', 1, 2000),
  windowS: intArg('window', 5, 600),
  warmupS: intArg('warmup', 1, 60),
  dashboards: intArg('dashboards', 1, 20),
  workers: intArg('workers', 1, 8),
  /** Seconds for the fans' sockets to open (a loaded 2-core machine opens 10,000 in minutes). */
  connectTimeoutS: intArg('connect-timeout', 10, 3600),
};
/** Frames kept per observer at most (a bound on memory whatever the window). */
const MAX_FRAMES = 200_000;
const ALBUM_ID = '6iz0r2rAVeYBGcpxZOyXHX';
const log = (line: string) => console.log(line);

interface Received {
  at: number;
  bytes: number;
  events: number;
  types: string[];
  /** Due times (`@<ms>` in the text) of the chat messages a dashboard frame carries. */
  dues: number[];
  statsTime: number | null;
}

/** A socket that records what it receives (text frames, parsed with the protocol schema). */
function observe(url: string, label: string): { frames: Received[]; ws: WebSocket; opened: Promise<void> } {
  const frames: Received[] = [];
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', (e) => reject(new Error(`${label}: ${e.message}`)));
  });
  ws.on('message', (data, isBinary) => {
    const at = Date.now();
    const text = isBinary ? '' : data.toString();
    // Answer the server's heartbeat as the apps do, or the socket is dropped as dead after 3 beats.
    if (text === PING_TEXT) return ws.send(PONG_TEXT);
    if (!text.startsWith('[') || frames.length >= MAX_FRAMES) return;
    const parsed = ServerFrame.safeParse(JSON.parse(text));
    if (!parsed.success) return;
    const dues: number[] = [];
    let statsTime: number | null = null;
    for (const e of parsed.data) {
      if (e.type !== 'party_stats') continue;
      statsTime = e.server_time_ms;
      for (const m of e.chat) {
        const due = /@(\d+)$/.exec(m.text ?? '')?.[1];
        if (due) dues.push(Number(due));
      }
    }
    frames.push({ at, bytes: Buffer.byteLength(text), events: parsed.data.length, types: parsed.data.map((e) => e.type), dues, statsTime });
  });
  return { frames, ws, opened };
}

function q(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil(p * v.length) - 1))]!;
}

async function main(): Promise<void> {
  const machine = machineInfo();
  log(`bench:dashboard on ${machineLine(machine)}`);
  log(`fans ${cfg.fans}, ${cfg.rate} messages/s, window ${cfg.windowS} s after ${cfg.warmupS} s warm-up, ${cfg.dashboards} dashboards`);
  const logDir = serverLogDir();
  log(`server log in ${logDir}`);
  const server = await startFanfareServer({ logFile: path.join(logDir, 'dashboard-server.log') });
  const observers: ReturnType<typeof observe>[] = [];
  try {
    const base = server.base;
    const wsBase = base.replace(/^http/, 'ws');
    await createBenchParty(base);
    await call(`${base}${PARTY_ROUTES.putTracks.path.replace(':id', PARTY_ID)}`, {
      method: 'PUT',
      headers: cmsHeaders,
      body: JSON.stringify({ type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de' }),
    });
    await call(`${base}/api/parties/${PARTY_ID}/start`, { method: 'POST', headers: { 'x-cms-token': BENCH_CMS_TOKEN } });
    log(`-> signing up ${cfg.fans} fans`);
    const tokens = await signUpFans(base, PARTY_ID, cfg.fans, log);
    const urls = tokens.map((t) => `${wsBase}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(t)}`);

    // The dashboards and the full-stream reference listen from the start; only the window counts.
    for (let i = 0; i < cfg.dashboards; i++) {
      observers.push(observe(`${wsBase}/api/parties/${PARTY_ID}?access_token=${BENCH_CMS_TOKEN}&view=dashboard`, `dashboard ${i}`));
    }
    const reference = observe(`${wsBase}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(tokens[0]!)}`, 'full-stream fan socket');
    observers.push(reference);
    await Promise.all(observers.map((o) => o.opened));

    let windowStart = 0;
    let windowEnd = 0;
    const session = await runSession(
      { rate: cfg.rate, warmupS: cfg.warmupS, windowS: cfg.windowS, drainS: 3, workers: cfg.workers, concurrency: 100, connectTimeoutS: cfg.connectTimeoutS },
      {
        wire: 'fanfare',
        urls,
        pids: [server.pid],
        posters: fanPosters([base], tokens, cfg.rate),
        log,
        onWindowStart: async () => {
          windowStart = Date.now();
        },
        onWindowEnd: async () => {
          windowEnd = Date.now();
        },
      },
    );
    const seconds = (windowEnd - windowStart) / 1000;
    const inWindow = (o: ReturnType<typeof observe>) => o.frames.filter((f) => f.at >= windowStart && f.at < windowEnd);

    const dashRows = observers.slice(0, cfg.dashboards).map((o, i) => {
      const frames = inWindow(o);
      const stats = frames.filter((f) => f.statsTime !== null);
      const intervals = stats.slice(1).map((f, k) => f.at - stats[k]!.at);
      const staleness = stats.filter((f) => f.dues.length > 0).map((f) => f.at - Math.max(...f.dues));
      const nonStats = frames.reduce((n, f) => n + f.types.filter((t) => t !== 'party_stats').length, 0);
      return {
        observer: `dashboard ${i + 1} (view=dashboard)`,
        frames_per_s: frames.length / seconds,
        events_per_s: frames.reduce((n, f) => n + f.events, 0) / seconds,
        kb_per_s: frames.reduce((n, f) => n + f.bytes, 0) / 1024 / seconds,
        non_stats_events: nonStats,
        interval_p50_ms: q(intervals, 0.5),
        interval_p99_ms: q(intervals, 0.99),
        interval_max_ms: intervals.length ? Math.max(...intervals) : NaN,
        newest_chat_age_p50_ms: q(staleness, 0.5),
        newest_chat_age_p99_ms: q(staleness, 0.99),
      };
    });
    const refFrames = inWindow(reference);
    const refEvents = refFrames.reduce((n, f) => n + f.events, 0);
    const refRow = {
      observer: 'reference: one fan socket, full stream',
      frames_per_s: refFrames.length / seconds,
      events_per_s: refEvents / seconds,
      kb_per_s: refFrames.reduce((n, f) => n + f.bytes, 0) / 1024 / seconds,
      non_stats_events: refEvents,
      interval_p50_ms: NaN,
      interval_p99_ms: NaN,
      interval_max_ms: NaN,
      newest_chat_age_p50_ms: NaN,
      newest_chat_age_p99_ms: NaN,
    };
    const rows = [...dashRows, refRow];
    const f1 = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(1));
    const f0 = (n: number) => (Number.isNaN(n) ? '–' : String(Math.round(n)));
    const header = ['socket', 'frames/s', 'events/s', 'KB/s', 'chat events', 'update interval p50', 'p99', 'max', 'newest chat age p50', 'p99'];
    const body = rows.map((r) => [r.observer, f1(r.frames_per_s), f1(r.events_per_s), f1(r.kb_per_s), f0(r.non_stats_events), f0(r.interval_p50_ms), f0(r.interval_p99_ms), f0(r.interval_max_ms), f0(r.newest_chat_age_p50_ms), f0(r.newest_chat_age_p99_ms)]);
    const party = [
      ['fans connected', `${session.fans_connected} / ${cfg.fans}`],
      ['messages in window', `${session.messages} (${session.messages_per_s.toFixed(1)}/s)`],
      ['fan delivery latency p50 / p99 (from due time)', `${session.latency_due_ms.p50} / ${session.latency_due_ms.p99} ms`],
      ['deliveries per second', session.deliveries_per_s.toFixed(0)],
      ['lost deliveries', `${session.lost} (${session.lost_pct}%)`],
      ['load average 1 min before / after', `${session.machine.loadavg_1m_before} / ${session.machine.loadavg_1m_after}`],
    ];
    const live = dashRows.every((r) => r.interval_p99_ms <= 1500 && r.non_stats_events === 0);
    log('');
    log(textTable(header, body));
    log('');
    log(textTable(['party under load', ''], party));
    log('');
    log(`dashboard live (update interval p99 ≤ 1.5 s, no chat events on its socket): ${live ? 'yes' : 'NO'}`);
    const md = [
      `# bench:dashboard, ${new Date().toISOString()}`,
      '',
      `Machine: ${machineLine(machine)}.`,
      `Party: ${cfg.fans} fans on one node (SQLite), ${cfg.rate} chat messages/s (open loop), ${cfg.windowS} s window after ${cfg.warmupS} s warm-up.`,
      '',
      markdownTable(header, body),
      '',
      markdownTable(['party under load', ''], party),
      '',
      `Dashboard live (update interval p99 ≤ 1.5 s, and no chat events on its socket): **${live ? 'yes' : 'no'}**.`,
      'The update interval is the time between two `party_stats` frames at the dashboard; the newest chat age is how old the newest message a frame carries is (from its due time).',
      'The reference is a fan socket on the same party: it receives every message, which is what a dashboard subscribed to the chat stream would have to process.',
      '',
    ].join('\n');
    if (values['no-save']) log('--no-save: nothing written to bench/results/');
    else log(`results: ${writeResults('dashboard', { cfg, machine, rows, session: { ...session, series: undefined }, live }, md).md}`);
  } finally {
    for (const o of observers) o.ws.terminate();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
