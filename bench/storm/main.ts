/**
 * Reconnect storm on one SQLite node: N fans (default 5,000) on the party socket while chat runs
 * at a fixed rate; the node is killed with SIGKILL and started again on the same data and ports
 * after `--down-ms`. Every fan reconnects as the party app does (spec backoff and jitter, `resume`,
 * REST catch-up after `resync`: see bench/reconnect/worker.ts). Measured: time from the server
 * answering HTTP again to each fan being back (p50/p99/max), whether every fan ends with every
 * stored message (no gap, no duplicate), listen-queue overflows (nstat), sheds and errors.
 * Usage: `npm run bench:storm -- --fans 5000 --rate 20`.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { integerReader } from '../lib/args.ts';
import { runChatLoad } from '../lib/chatLoad.ts';
import { signUpFans, startFanfareServer } from '../lib/fanfare.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { cpuSeconds } from '../lib/proc.ts';
import { sleep } from '../lib/processes.ts';
import { markdownTable, serverLogDir, textTable, writeResults } from '../lib/results.ts';
import { createBenchParty, fanPosters, PARTY_ID, posterCount } from '../fanout/targets.ts';
import { backPhases, backTimes, FanFleet, quantile } from '../reconnect/fleet.ts';
import { listenQueueCounters, storedSeqIds, summarizeOutcomes } from '../reconnect/outcomes.ts';

const { values: args } = parseArgs({
  options: {
    fans: { type: 'string', default: '5000' },
    rate: { type: 'string', default: '20' },
    before: { type: 'string', default: '10' },
    'down-ms': { type: 'string', default: '1000' },
    settle: { type: 'string', default: '60' },
    workers: { type: 'string', default: '2' },
    concurrency: { type: 'string', default: '200' },
    'http-connections': { type: 'string', default: '256' },
    'no-save': { type: 'boolean', default: false },
    /** A CPU profile of the restarted node, written to the log folder when it stops. */
    'cpu-prof': { type: 'boolean', default: false },
    name: { type: 'string', default: 'storm' },
  },
});
const intArg = integerReader(args);
const cfg = {
  fans: intArg('fans', 1, 20_000),
  rate: intArg('rate', 1, 200),
  beforeS: intArg('before', 2, 120),
  downMs: intArg('down-ms', 0, 60_000),
  settleS: intArg('settle', 5, 300),
  workers: intArg('workers', 1, 8),
  concurrency: intArg('concurrency', 1, 5000),
  httpConnections: intArg('http-connections', 1, 10_000),
};

const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
const load1 = () => Math.round(os.loadavg()[0]! * 100) / 100;

/** Polls `url` every 20 ms until it answers (any status); the time it first did. */
async function firstAnswer(url: string, deadlineMs: number): Promise<number> {
  while (Date.now() < deadlineMs) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return Date.now();
    } catch {
      await sleep(20);
    }
  }
  throw new Error(`${url} did not answer again`);
}

async function main(): Promise<void> {
  const machine = machineInfo();
  const when = new Date().toISOString();
  const logDir = serverLogDir();
  log(`storm bench on ${machineLine(machine)}; server logs in ${logDir}`);
  const env = { DEMO_SEED: 'false' };
  let server = await startFanfareServer({ env, logFile: path.join(logDir, 'server-1.log') });
  const { dataDir, port, cmsPort, base } = server;
  let fleet: FanFleet | null = null;
  try {
    await createBenchParty(base);
    const tokens = await signUpFans(base, PARTY_ID, Math.max(cfg.fans, posterCount(cfg.rate)), log);
    const wsBase = base.replace(/^http/, 'ws');
    const fanTokens = tokens.slice(0, cfg.fans);
    log(`== ${cfg.fans} fans connect`);
    const started = await FanFleet.start({
      fans: fanTokens.map((t) => ({ url: `${wsBase}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(t)}`, token: t })),
      workers: cfg.workers,
      httpBase: base,
      partyId: PARTY_ID,
      concurrency: cfg.concurrency,
      httpConnections: cfg.httpConnections,
      windows: [],
      log,
    });
    fleet = started.fleet;

    const listen0 = listenQueueCounters();
    const loadBefore = load1();
    const chatStart = Date.now() + 500;
    const killAt = chatStart + cfg.beforeS * 1000;
    // The chat runs until the storm has settled; its end is fixed now (open loop), generously.
    const chatEnd = killAt + cfg.downMs + cfg.settleS * 1000;
    log(`== chat at ${cfg.rate}/s; SIGKILL in ${cfg.beforeS} s, restart ${cfg.downMs} ms later`);
    const chat = runChatLoad(fanPosters([base], tokens, cfg.rate), cfg.rate, chatStart, chatEnd);
    await sleep(killAt - Date.now());
    const killedAt = Date.now();
    const exited = new Promise<void>((r) => server.child.once('exit', () => r()));
    server.child.kill('SIGKILL');
    await exited;
    log('   killed; restarting on the same data and ports');
    await sleep(Math.max(0, killedAt + cfg.downMs - Date.now()));
    const restartAt = Date.now();
    const up = firstAnswer(`${base}/api/parties/none`, Date.now() + 120_000);
    server = await startFanfareServer({ env, nodeArgs: args['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${logDir}`] : undefined, dataDir, port, cmsPort, logFile: path.join(logDir, 'server-2.log') });
    const upAt = await up;
    // The restarted node's CPU over time: what absorbing the storm cost it, whatever else ran.
    const cpuAt: { at: number; s: number; client: number }[] = [];
    const pid = server.child.pid!;
    const sampleCpu = () => {
      const s = cpuSeconds(pid);
      if (s !== null) cpuAt.push({ at: Date.now(), s, client: fleet!.cpuSeconds() });
    };
    sampleCpu();
    const cpuTimer = setInterval(sampleCpu, 250);
    log(`   answering again ${((upAt - killedAt) / 1000).toFixed(1)} s after the kill (process start took ${((upAt - restartAt) / 1000).toFixed(1)} s)`);
    const posted = await chat;
    await sleep(3000);
    clearInterval(cpuTimer);
    const listen1 = listenQueueCounters();
    const loadAfter = load1();

    const expected = await storedSeqIds(base, tokens[0]!);
    log(`== checking ${cfg.fans} fans against ${expected.length} stored messages`);
    const { fans, reports } = await fleet.verify(expected);
    const back = backTimes(fans, upAt);
    const gaps = fans.filter((f) => f.missing > 0).slice(0, 2);
    if (gaps.length) log(`   fans with gaps, e.g.: ${JSON.stringify(gaps.map((f) => ({ missing: f.missingRange, first: f.firstSeq, resynced: f.resynced, resumed: f.resumed, back: f.backAt && f.backAt - upAt, trace: f.trace })))}; stored ${expected[0]}..${expected[expected.length - 1]}`);
    const s = summarizeOutcomes(fans);
    const p99At = upAt + quantile(back, 0.99);
    const cpuBy = (t: number) => cpuAt.filter((c) => c.at <= t).at(-1) ?? cpuAt[0]!;
    const round2 = (x: number) => Math.round(x * 100) / 100;
    const stormCpuS = round2(cpuBy(p99At).s - cpuAt[0]!.s);
    const clientCpuS = round2(cpuBy(p99At).client - cpuAt[0]!.client);
    const stormWallS = round2((Math.min(p99At, cpuAt.at(-1)!.at) - cpuAt[0]!.at) / 1000);
    const pct = (ms: number) => Math.round((back.filter((b) => b <= ms).length / Math.max(1, back.length)) * 1000) / 10;
    const result = {
      fans: cfg.fans,
      connected: started.ready,
      messages_stored: expected.length,
      posts_failed: posted.failed,
      down_ms: upAt - killedAt,
      process_start_ms: upAt - restartAt,
      back_ms_from_up: { p50: quantile(back, 0.5), p99: quantile(back, 0.99), max: quantile(back, 1) },
      back_within_10s_pct: pct(10_000),
      back_phases_ms: backPhases(fans, upAt),
      server_cpu_s_until_p99: stormCpuS,
      server_cpu_ms_per_fan: round2((stormCpuS * 1000) / cfg.fans),
      client_cpu_s_until_p99: clientCpuS,
      wall_s_until_p99: stormWallS,
      ...s,
      listen_overflows: listen1.overflows - listen0.overflows,
      listen_drops: listen1.drops - listen0.drops,
      load_before: loadBefore,
      load_after: loadAfter,
      client_loop_delay_p99_ms: reports.map((r) => r.loop_delay_ms.p99),
    };
    const header = ['fans', 'dropped', 'back', 'p50 back ms', 'p99 back ms', 'max back ms', '≤ 10 s %', 'complete', 'missing', 'extra', 'dup sent', 'resynced', 'resumed', 'REST pages', 'REST errors', 'fans > 5 failures', 'sheds (4008)', 'listen overflows', 'down ms', 'server CPU s to p99', 'load before/after'];
    const row = [cfg.fans, s.dropped, s.back, result.back_ms_from_up.p50, result.back_ms_from_up.p99, result.back_ms_from_up.max, result.back_within_10s_pct, s.complete, s.missing, s.extra, s.dup_sent, s.resynced, s.resumed, s.rest_pages, s.rest_errors, s.over_retry_cap, s.shed, result.listen_overflows, result.down_ms, stormCpuS, `${loadBefore} / ${loadAfter}`];
    process.stdout.write(`\n${textTable(header, [row])}\n`);
    const ph = result.back_phases_ms;
    const phasesLine = `socket open ${ph.open.p50} / ${ph.open.p99} ms after answering again, hello ${ph.hello.p50} / ${ph.hello.p99} ms after the open, caught up ${ph.catch_up.p50} / ${ph.catch_up.p99} ms after the hello (p50 / p99)`;
    log(`phases: ${phasesLine}`);
    log(`close codes ${JSON.stringify(s.close_codes)}; attempt errors ${JSON.stringify(s.errors)}; posts failed ${JSON.stringify(posted.failed)}; nstat ${JSON.stringify({ listen0, listen1 })}`);
    if (!args['no-save']) {
      const md = [
        `# Reconnect storm, ${when}`,
        '',
        `Machine: ${machineLine(machine)}; load average (1 min) ${loadBefore} before the kill, ${loadAfter} after. Shared with other engineers' work; the load client runs on the same 2 cores.`,
        '',
        `Run: ${cfg.fans.toLocaleString('en')} fans on one node (SQLite, in-process pub/sub, \`LISTEN_BACKLOG\` default), chat ${cfg.rate} posts/s over HTTP; after ${cfg.beforeS} s the node is killed with SIGKILL and started again on the same data and ports ${cfg.downMs} ms later. Fans reconnect with the spec's backoff (0.4·(2^n−1) s + up to 1 s jitter), send \`resume\`, and after \`resync\` page \`chat/messages?after_seq_id=\` (200 a page) from their newest message, then \`chat/recent\`, as the party app does; ${cfg.workers} load-client workers, ${cfg.httpConnections} keep-alive HTTP connections each.`,
        '',
        markdownTable(header, [row]),
        '',
        `- "back": from the server answering HTTP again (first answer to a 20 ms poll) to the fan having said hello and caught up (replay through its hello, or the REST catch-up done). The node answered ${(result.down_ms / 1000).toFixed(1)} s after the kill; its process start took ${(result.process_start_ms / 1000).toFixed(1)} s.`,
        `- Phases of "back": ${phasesLine}.`,
        `- "complete": fans holding every stored message (${expected.length}, read back over \`GET chat/messages\` after the run) and nothing else; "dup sent": sequenced events the server sent a fan again (the client drops them).`,
        `- "fans > 5 failures": fans whose consecutive failed attempts went beyond 5, where the party app shows its error state (spec 5). Close codes seen: ${JSON.stringify(s.close_codes)}; why attempts failed: ${JSON.stringify(s.errors)}.`,
        `- "server CPU s to p99": CPU seconds (user + system) the restarted node used from answering again until 99 % of fans were back (${result.server_cpu_ms_per_fan} ms per fan, chat fan-out included), over ${stormWallS} s; the load client's workers used ${clientCpuS} CPU seconds meanwhile, on the same 2 cores.`,
        `- Listen-queue overflows: \`nstat -az TcpExtListenOverflows\` before and after (machine-wide): ${result.listen_overflows} (drops ${result.listen_drops}).`,
        `- Chat posts that failed (the node was down for part of the run): ${JSON.stringify(posted.failed)}.`,
        `- Load-client event-loop delay p99 per worker: ${result.client_loop_delay_p99_ms.join(', ')} ms.`,
        '',
      ].join('\n');
      const files = writeResults(String(args.name).replace(/[^\w.-]/g, '_'), { when, machine, config: cfg, result }, md);
      process.stdout.write(`\nwrote ${files.json}\nwrote ${files.md}\n`);
    }
  } finally {
    fleet?.stop();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
