/**
 * The write floor of a fan-out in Node: what one socket write of a pre-encoded frame costs the
 * sender, with nothing else in the process (no posts, no heartbeats, no per-socket logic), on the
 * fan-out bench's shape: 10,000 sockets to load-client processes on loopback, one frame of the
 * bench's size to every socket per 200 ms window (decision 0024's equal work).
 *
 * Two ways to write, interleaved over the rounds:
 * - `socket.write`: what the fair `ws` reference does, and Fanfare's `writeFrame` did before
 *   decision 0024 (SOCKET_HANDLE_WRITES=false);
 * - `handle`: the TCP handle's own `writeBuffer`, skipping the stream machinery of `net.Socket`,
 *   the cheapest write Node offers: Fanfare's `writeToTcpHandle`, what `writeFrame` does since
 *   decision 0024.
 *
 * It answers one question of issue 16's CPU target (decision 0024): could a Node server write
 * these frames for less than the reference does? Per delivery = per write / messages per frame.
 *
 * Usage: npm run bench:fanout:floor -- [--fans 10000] [--frame-bytes 8900] [--msgs-per-frame 20]
 *   [--batch-ms 200] [--warmup 5] [--window 15] [--rounds 3] [--no-save]
 */
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { integerReader } from '../lib/args.ts';
import { machineInfo, machineLine } from '../lib/machine.ts';
import { MachineCpu } from '../lib/proc.ts';
import { sleep } from '../lib/processes.ts';
import { markdownTable, textTable, writeResults } from '../lib/results.ts';
import { median, medianWithSpread } from '../lib/stats.ts';
import { writesToHandle, writeToTcpHandle } from '../../apps/server/src/realtime/wireFrame.ts';
import { encodeTextFrame } from './wireFrame.ts';

const MODES = ['socket.write', 'handle'] as const;
type Mode = (typeof MODES)[number];
const RECEIVERS = 2;

/** What a sender measured over its window. */
interface SenderResult {
  writes: number;
  sweeps: number;
  user_us: number;
  sys_us: number;
  /** Bytes written over the whole run (warm-up included), to check against what the receivers read. */
  bytes_total: number;
}

type FromSender = { port: number } | 'accepted' | { result: SenderResult };

/** Listens, waits for 'go', sweeps every `batchMs` for the warm-up and the window, reports the window. */
async function runSender(mode: Mode, fans: number, frameBytes: number, batchMs: number, warmupS: number, windowS: number): Promise<void> {
  const sockets: net.Socket[] = [];
  let allAccepted: () => void;
  const accepted = new Promise<void>((r) => (allAccepted = r));
  const server = net.createServer((s) => {
    s.setNoDelay(true); // as `ws` does on every upgraded socket
    s.on('error', () => {});
    if (sockets.push(s) === fans) allAccepted();
  });
  await new Promise<void>((r) => server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, r));
  process.send!({ port: (server.address() as net.AddressInfo).port } satisfies FromSender);
  // A client's connect completes before the server accepts: the bench waits for both sides.
  await accepted;
  process.send!('accepted' satisfies FromSender);
  await new Promise((r) => process.once('message', r));

  const frame = encodeTextFrame(Buffer.alloc(frameBytes - 4, 0x61));
  if (mode === 'handle' && !writesToHandle) throw new Error('this Node offers no write to the TCP handle');
  const write = mode === 'handle' ? (s: net.Socket, b: Buffer) => void writeToTcpHandle(s, b) : (s: net.Socket, b: Buffer) => void s.write(b);
  const startAt = performance.now();
  const windowFrom = startAt + warmupS * 1000;
  const windowTo = windowFrom + windowS * 1000;
  let cpu0: NodeJS.CpuUsage | null = null;
  let inWindow = { writes: 0, sweeps: 0 };
  let bytesTotal = 0;
  let sweepAt = startAt;
  for (;;) {
    const now = performance.now();
    if (now >= windowFrom && !cpu0) cpu0 = process.cpuUsage();
    if (now >= windowTo) break;
    for (const s of sockets) write(s, frame);
    bytesTotal += frame.length * sockets.length;
    if (cpu0) inWindow = { writes: inWindow.writes + sockets.length, sweeps: inWindow.sweeps + 1 };
    // The next sweep counts from this one's start (Fanfare's pacing, `BatchPacer`).
    sweepAt += batchMs;
    await sleep(Math.max(0, sweepAt - performance.now()));
  }
  const cpu = process.cpuUsage(cpu0 ?? undefined);
  process.send!({ result: { ...inWindow, user_us: cpu.user, sys_us: cpu.system, bytes_total: bytesTotal } } satisfies FromSender);
}

/**
 * Opens `count` sockets, reads and drops every byte, and answers 'bytes' with how many it read.
 * Its sockets read into one shared buffer, as the fan-out bench's load clients do (`LeanSocket`).
 */
function runReceiver(port: number, count: number): void {
  const shared = Buffer.allocUnsafe(256 * 1024);
  let open = 0;
  let bytes = 0;
  const onread = {
    buffer: shared,
    callback: (n: number) => {
      bytes += n;
      return true;
    },
  };
  for (let i = 0; i < count; i++) {
    const s = net.connect({ port, host: '127.0.0.1', onread }, () => {
      if (++open === count) process.send!('connected');
    });
    s.on('error', () => {});
  }
  process.on('message', (m) => {
    if (m === 'bytes') process.send!({ bytes });
  });
}

function forkRole(args: string[]): ChildProcess {
  return fork(new URL(import.meta.url).pathname, args, { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The child's next message; rejects when it exits first or stays silent for `timeoutMs`. */
function next<T>(child: ChildProcess, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const settle = (fn: () => void) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      fn();
    };
    const onMessage = (m: unknown) => settle(() => resolve(m as T));
    const onExit = (code: number | null) => settle(() => reject(new Error(`child ${child.pid} exited (${code})`)));
    const timer = setTimeout(() => settle(() => reject(new Error(`no message from child ${child.pid} in ${timeoutMs} ms`))), timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

interface RunRow {
  round: number;
  mode: Mode;
  result: SenderResult;
  received_bytes: number;
  machine: ReturnType<MachineCpu['stop']>;
}

async function runOnce(cfg: Config, mode: Mode, round: number): Promise<RunRow> {
  const sender = forkRole(['send', mode, String(cfg.fans), String(cfg.frameBytes), String(cfg.batchMs), String(cfg.warmupS), String(cfg.windowS)]);
  const receivers: ChildProcess[] = [];
  try {
    const { port } = await next<{ port: number }>(sender, 30_000);
    for (let i = 0; i < RECEIVERS; i++) receivers.push(forkRole(['receive', String(port), String(Math.floor(cfg.fans / RECEIVERS) + (i < cfg.fans % RECEIVERS ? 1 : 0))]));
    await Promise.all([next(sender, 120_000), ...receivers.map((r) => next(r, 120_000))]);
    const machine = new MachineCpu();
    const done = next<{ result: SenderResult }>(sender, (cfg.warmupS + cfg.windowS + 60) * 1000);
    sender.send('go');
    await sleep(cfg.warmupS * 1000);
    machine.start();
    const { result } = await done;
    const busy = machine.stop();
    await sleep(1000); // the last sweep's bytes reach the receivers
    const counts = await Promise.all(receivers.map(async (r) => { const reply = next<{ bytes: number }>(r, 10_000); r.send('bytes'); return (await reply).bytes; }));
    return { round, mode, result, received_bytes: counts.reduce((a, b) => a + b, 0), machine: busy };
  } finally {
    for (const c of [sender, ...receivers]) c.kill('SIGKILL');
  }
}

interface Config {
  fans: number;
  frameBytes: number;
  msgsPerFrame: number;
  batchMs: number;
  warmupS: number;
  windowS: number;
  rounds: number;
  save: boolean;
}

const perWrite = (r: SenderResult) => (r.user_us + r.sys_us) / r.writes;
const round2 = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      fans: { type: 'string', default: '10000' },
      'frame-bytes': { type: 'string', default: '8900' },
      'msgs-per-frame': { type: 'string', default: '20' },
      'batch-ms': { type: 'string', default: '200' },
      warmup: { type: 'string', default: '5' },
      window: { type: 'string', default: '15' },
      rounds: { type: 'string', default: '3' },
      'no-save': { type: 'boolean', default: false },
    },
  });
  const int = integerReader(values);
  const cfg: Config = {
    fans: int('fans', 2, 50_000),
    frameBytes: int('frame-bytes', 200, 60_000),
    msgsPerFrame: int('msgs-per-frame', 1, 1000),
    batchMs: int('batch-ms', 10, 1000),
    warmupS: int('warmup', 0, 60),
    windowS: int('window', 1, 120),
    rounds: int('rounds', 1, 10),
    save: !values['no-save'],
  };
  const machine = machineInfo();
  const rows: RunRow[] = [];
  for (let round = 1; round <= cfg.rounds; round++) {
    for (const mode of MODES) {
      const row = await runOnce(cfg, mode, round);
      rows.push(row);
      process.stdout.write(`round ${round} ${mode}: ${round2(perWrite(row.result))} µs/write over ${row.result.writes} writes\n`);
    }
  }
  const runHeader = ['round', 'write', 'sweeps', 'writes', 'user µs/write', 'sys µs/write', 'CPU µs/write', `CPU µs/delivery (${cfg.msgsPerFrame} msgs/frame)`, 'bytes lost', 'machine busy %'];
  const runRows = rows.map((r) => [
    r.round,
    r.mode,
    r.result.sweeps,
    r.result.writes,
    round2(r.result.user_us / r.result.writes),
    round2(r.result.sys_us / r.result.writes),
    round2(perWrite(r.result)),
    round2(perWrite(r.result) / cfg.msgsPerFrame),
    r.result.bytes_total - r.received_bytes,
    r.machine.busy_pct,
  ]);
  const summaryHeader = ['write', 'runs', 'CPU µs/write', `CPU µs/delivery (${cfg.msgsPerFrame} msgs/frame)`, 'user µs/write', 'sys µs/write'];
  const summary = MODES.map((mode) => {
    const mine = rows.filter((r) => r.mode === mode).map((r) => r.result);
    const all = mine.map(perWrite);
    return {
      mode,
      runs: mine.length,
      us_per_write: { median: round2(median(all)), all: all.map(round2) },
      us_per_delivery: { median: round2(median(all) / cfg.msgsPerFrame), all: all.map((x) => round2(x / cfg.msgsPerFrame)) },
      user_us_per_write: round2(median(mine.map((r) => r.user_us / r.writes))),
      sys_us_per_write: round2(median(mine.map((r) => r.sys_us / r.writes))),
    };
  });
  const summaryRows = summary.map((s) => [s.mode, s.runs, medianWithSpread(s.us_per_write.all), medianWithSpread(s.us_per_delivery.all), s.user_us_per_write, s.sys_us_per_write]);
  process.stdout.write(`\n${textTable(summaryHeader, summaryRows)}\n\n${textTable(runHeader, runRows)}\n`);
  if (!cfg.save) return;
  const md = [
    `# The write floor of a fan-out, ${new Date().toISOString()}`,
    '',
    `Machine: ${machineLine(machine)}.`,
    '',
    `Run: ${cfg.fans.toLocaleString('en')} loopback sockets to ${RECEIVERS} receiver processes, one ${cfg.frameBytes}-byte pre-encoded frame to every socket every ${cfg.batchMs} ms, ${cfg.warmupS} s warm-up, ${cfg.windowS} s measured, ${cfg.rounds} interleaved round(s). Nothing else runs in the sender: no posts, no heartbeats, no per-socket logic. Per delivery assumes ${cfg.msgsPerFrame} messages a frame (the fan-out bench's 100 posts/s in 200 ms windows). Decision 0024.`,
    '',
    '## Median (min–max) over the rounds',
    '',
    markdownTable(summaryHeader, summaryRows),
    '',
    '- **socket.write**: the write of the fair `ws` reference, and of Fanfare before decision 0024. **handle**: the TCP handle\'s `writeBuffer`, without `net.Socket`\'s stream state: the cheapest write Node offers, and Fanfare\'s `writeFrame` since decision 0024.',
    '- **CPU**: the sender\'s user + system time over the window (every thread), divided by its writes. On loopback it includes the receivers\' side of TCP, which the kernel runs inside the sender\'s write (decision 0024).',
    '- **bytes lost**: bytes written over the whole run minus bytes the receivers read; 0 means every write arrived.',
    '',
    '## Every run',
    '',
    markdownTable(runHeader, runRows),
    '',
  ].join('\n');
  const files = writeResults('fanout-floor', { machine, config: cfg, summary, runs: rows }, md);
  process.stdout.write(`\nwrote ${files.md}\n`);
}

// One file, three roles: the bench, a sender (one per run), the receivers (the load clients).
const role = process.argv[2];
// A sender or receiver whose bench has gone (a crash, Ctrl-C) goes too, never left holding sockets.
if (role === 'send' || role === 'receive') process.on('disconnect', () => process.exit(0));
if (role === 'send') await runSender(process.argv[3] as Mode, Number(process.argv[4]), Number(process.argv[5]), Number(process.argv[6]), Number(process.argv[7]), Number(process.argv[8]));
else if (role === 'receive') runReceiver(Number(process.argv[3]), Number(process.argv[4]));
else await main();
