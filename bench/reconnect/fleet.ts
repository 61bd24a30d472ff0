/**
 * The orchestrator's side of the reconnect benches' fans: forks the workers (worker.ts), hands
 * each its share of fans, waits until every fan said hello, and at the end checks every fan
 * against the stored messages and gathers the outcomes.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from '../lib/proc.ts';
import type { FanOutcome, FanSpec, FanTls, FanWorkerReport, FromFanWorker, LatencyWindow, ToFanWorker } from './protocol.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** With observers, the fans connect in this many rounds (see `FanFleet.start`). */
const CONNECT_ROUNDS = 10;

export interface FleetOptions {
  fans: FanSpec[];
  workers: number;
  httpBase: string;
  partyId: string;
  tls?: FanTls;
  /** Sockets each worker opens at once while connecting. */
  concurrency: number;
  /** Keep-alive HTTP connections per worker for the REST catch-up. */
  httpConnections: number;
  windows: LatencyWindow[];
  /**
   * The first `observers` fans get a worker of their own: a few hundred fans whose device is not
   * also busy reconnecting thousands of others, so their figures show the server, not the load
   * client's own queue (0: none).
   */
  observers?: number;
  log: (line: string) => void;
}

export class FanFleet {
  private constructor(
    private readonly children: ChildProcess[],
    private readonly hasObserver: boolean,
  ) {}

  /** Forks the workers and connects every fan; resolves once each said hello (or failed). */
  static async start(o: FleetOptions): Promise<{ fleet: FanFleet; ready: number; failed: number; ms: number; firstError: string | null }> {
    const observers = Math.min(o.observers ?? 0, o.fans.length);
    const bulk = o.fans.slice(observers);
    const shares = Array.from({ length: o.workers }, (_, w) => bulk.filter((_, i) => i % o.workers === w));
    if (observers > 0) shares.push(o.fans.slice(0, observers));
    // BENCH_CLIENT_CPU_PROF=dir: a CPU profile of each worker, as BENCH_NODE_CPU_PROF for the nodes.
    const prof = process.env.BENCH_CLIENT_CPU_PROF;
    const execArgv = ['--import', 'tsx', ...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [])];
    const children = shares.map(() => fork(path.join(HERE, 'worker.ts'), [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
    const fleet = new FanFleet(children, observers > 0);
    // Every worker connects a tenth of its fans per round, so the observers sit all through each
    // node's order of sockets: a draining node closes them in that order, and observers connected
    // first would all leave (and come back) ahead of the crowd.
    const rounds = observers > 0 ? CONNECT_ROUNDS : 1;
    const sum = { ready: 0, failed: 0, ms: 0, firstError: null as string | null };
    for (let round = 0; round < rounds; round++) {
      const results = await Promise.all(
        children.map((child, w) => {
          const share = shares[w]!;
          const fans = share.slice(Math.floor((share.length * round) / rounds), Math.floor((share.length * (round + 1)) / rounds));
          const msg: ToFanWorker =
            round === 0
              ? { type: 'init', fans, httpBase: o.httpBase, partyId: o.partyId, tls: o.tls, concurrency: o.concurrency, httpConnections: o.httpConnections, windows: o.windows }
              : { type: 'connect', fans, concurrency: o.concurrency };
          return fleet.ask(child, msg, 'connected', 600_000);
        }),
      );
      let roundMs = 0;
      for (const r of results) {
        if (r.type !== 'connected') continue;
        sum.ready += r.ready;
        sum.failed += r.failed;
        roundMs = Math.max(roundMs, r.ms);
        sum.firstError ??= r.firstError;
      }
      sum.ms += roundMs;
    }
    o.log(`   ${sum.ready} fans connected in ${(sum.ms / 1000).toFixed(1)} s (${sum.failed} failed${sum.firstError ? `: ${sum.firstError}` : ''})`);
    return { fleet, ...sum };
  }

  /** Sets the windows of due times whose live latency is kept. */
  setWindows(windows: LatencyWindow[]): void {
    for (const c of this.children) c.send({ type: 'windows', windows } satisfies ToFanWorker);
  }

  /** The workers' pids: the bulk workers, then the observers' worker if there is one. */
  pids(): { bulk: number[]; observers: number[] } {
    const pids = this.children.map((c) => c.pid!);
    return this.hasObserver ? { bulk: pids.slice(0, -1), observers: pids.slice(-1) } : { bulk: pids, observers: [] };
  }

  /** CPU seconds of the workers so far. */
  cpuSeconds(): number {
    return this.children.reduce((a, c) => a + (cpuSeconds(c.pid!) ?? 0), 0);
  }

  /** Checks every fan against `expected` (the stored messages' seq_ids, ascending). */
  async verify(expected: number[]): Promise<{ fans: FanOutcome[]; reports: FanWorkerReport[]; observer: FanWorkerReport | null }> {
    const reports = await Promise.all(this.children.map((c) => this.ask(c, { type: 'verify', expected }, 'report', 300_000)));
    const rs = reports.flatMap((r) => (r.type === 'report' ? [r.report] : []));
    return { fans: rs.flatMap((r) => r.fans), reports: rs, observer: this.hasObserver ? (rs.at(-1) ?? null) : null };
  }

  stop(): void {
    for (const c of this.children) {
      try {
        c.send({ type: 'exit' } satisfies ToFanWorker);
      } catch {
        c.kill();
      }
    }
  }

  private ask(child: ChildProcess, msg: ToFanWorker, answer: FromFanWorker['type'], timeoutMs: number): Promise<FromFanWorker> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fan worker gave no ${answer} within ${timeoutMs} ms`)), timeoutMs);
      const onExit = (code: number | null) => reject(new Error(`fan worker exited with ${code}`));
      const onMsg = (m: FromFanWorker) => {
        if (m.type !== answer) return;
        clearTimeout(timer);
        child.off('message', onMsg);
        child.off('exit', onExit);
        resolve(m);
      };
      child.on('message', onMsg);
      child.once('exit', onExit);
      child.send(msg);
    });
  }
}

/** The time from `t0` to each dropped fan being back, in ms ascending (Infinity for fans never back). */
export function backTimes(fans: FanOutcome[], t0: number): number[] {
  return fans.filter((f) => f.droppedAt !== null).map((f) => (f.backAt === null ? Infinity : f.backAt - t0)).sort((a, b) => a - b);
}

/**
 * Where "back" went, p50 / p99 ms over the fans that came back: the drop (from t0), the backoff
 * until the attempt that worked began, its connection and TLS handshake, its upgrade (to the 101), the
 * open itself (from t0), its hello (after the open), and the rest of the catch-up (after the hello).
 */
export function backPhases(fans: FanOutcome[], t0: number): Record<'dropped' | 'attempt' | 'tls' | 'upgrade' | 'open' | 'hello' | 'catch_up', { p50: number; p99: number }> {
  const back = fans.filter((f) => f.backAt !== null && f.droppedAt !== null && f.attemptAt !== null && f.connectedAt !== null && f.openAt !== null && f.helloAt !== null);
  const phase = (d: (f: FanOutcome) => number) => {
    const sorted = back.map(d).sort((a, b) => a - b);
    return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
  };
  return {
    dropped: phase((f) => f.droppedAt! - t0),
    attempt: phase((f) => f.attemptAt! - f.droppedAt!),
    tls: phase((f) => f.connectedAt! - f.attemptAt!),
    upgrade: phase((f) => f.openAt! - f.connectedAt!),
    open: phase((f) => f.openAt! - t0),
    hello: phase((f) => f.helloAt! - f.openAt!),
    catch_up: phase((f) => f.backAt! - f.helloAt!),
  };
}

/** The value at quantile q of ascending values (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
