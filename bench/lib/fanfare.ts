/**
 * Starts the real Fanfare server program (apps/server/src/main.ts compiled, party surface) as a child
 * process for a benchmark: SQLite in a fresh temp DATA_DIR, in-process pub/sub, warn-level logs,
 * a CMS admin token, free ports on 127.0.0.1.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SignupResponse } from '@fanfare/protocol';
import { freePort, spawnCompiledServer, stopProcess, waitForHttp } from './processes.ts';

/** The X-Cms-Token the bench servers accept (CMS_ADMIN_TOKEN). */
export const BENCH_CMS_TOKEN = 'bench-cms-token-0123456789abcdef';

export interface FanfareServer {
  base: string;
  child: ChildProcess;
  pid: number;
  stop(): Promise<void>;
  /** Stops the process but keeps its DATA_DIR (see `dataDir` of startFanfareServer). */
  stopKeepingData(): Promise<void>;
}

/** Starts the server with `env` on top of the bench defaults; resolves once it answers HTTP. */
export async function startFanfareServer(opts: {
  env?: NodeJS.ProcessEnv;
  nodeArgs?: string[];
  logFile: string;
  /** Reuse this DATA_DIR (a restart over the same SQLite data); it is removed on stop either way. */
  dataDir?: string;
  /** Fixed ports (a restart that comes back where its fans look for it); free ones otherwise. */
  port?: number;
  cmsPort?: number;
}): Promise<FanfareServer & { dataDir: string; port: number; cmsPort: number }> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'fanfare-bench-'));
  const port = opts.port ?? (await freePort());
  const cmsPort = opts.cmsPort ?? (await freePort());
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    CMS_PORT: String(cmsPort),
    DATA_DIR: dataDir,
    // Empty counts as unset: SQLite under DATA_DIR and in-process pub/sub, whatever the shell has.
    DATABASE_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    CMS_ADMIN_TOKEN: BENCH_CMS_TOKEN,
    // The bench signs up thousands of anonymous fans from one address.
    ANON_SIGNUP_RATE_LIMIT: '1000000',
    NODE_ENV: 'production',
    // What production mode asks for, on this machine: loopback public URLs (the defaults, named),
    // a fixed session secret, the emulators and the demo seed by name, a first admin's password.
    PUBLIC_URL: base,
    CMS_PUBLIC_URL: `http://127.0.0.1:${cmsPort}`,
    SESSION_SECRET: 'bench-session-secret-0123456789',
    EMULATORS: 'spotify,apple',
    DEMO_SEED: 'true',
    ADMIN_PASSWORD: 'bench-admin-password-0123',
    ...opts.env,
  };
  const child = spawnCompiledServer(['--only', 'party'], { env, nodeArgs: opts.nodeArgs, logFile: opts.logFile });
  let keepData = false;
  const stop = async () => {
    await stopProcess(child);
    if (!keepData) rmSync(dataDir, { recursive: true, force: true });
  };
  /** Stops the process but keeps DATA_DIR, for a restart with `dataDir`. */
  const stopKeepingData = async () => {
    keepData = true;
    await stopProcess(child);
  };
  try {
    await waitForHttp(`${base}/api/parties/none`, 90_000, child);
  } catch (e) {
    await stop();
    throw e;
  }
  return { base, child, pid: child.pid!, stop, stopKeepingData, dataDir, port, cmsPort };
}

/** fetch with a timeout that throws unless the status is one of `expect` (2xx by default). */
export async function call(url: string, init: RequestInit & { expect?: number[] } = {}): Promise<Response> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  const ok = init.expect ?? [200, 201, 204];
  if (!ok.includes(res.status)) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${await res.text()}`);
  return res;
}

/** JSON headers with the CMS token. */
export const cmsHeaders = { 'content-type': 'application/json', 'x-cms-token': BENCH_CMS_TOKEN };

/** Anonymous sign-ups through the API (the party must have login_required false); one bearer token per fan. */
export async function signUpFans(base: string, partyId: string, n: number, log: (line: string) => void, concurrency = 16): Promise<string[]> {
  const tokens: string[] = new Array<string>(n);
  let done = 0;
  const started = Date.now();
  await inPool(n, concurrency, async (i) => {
    const res = await call(`${base}/api/parties/${encodeURIComponent(partyId)}/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ real_name: `Bench Fan ${i}`, display_name: `bench-fan-${i}` }),
    });
    const body = (await res.json()) as SignupResponse;
    if (!body.access_token) throw new Error('anonymous signup gave no access_token');
    tokens[i] = body.access_token;
    if (++done % 2000 === 0) log(`   signed up ${done}/${n} fans (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  });
  return tokens;
}

/** Runs `job(0..n-1)` with at most `concurrency` at once. */
export async function inPool(n: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) await job(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}
