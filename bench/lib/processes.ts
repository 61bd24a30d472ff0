import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/** Sleeps. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a TypeScript entry with node + tsx as a child process whose stdout/stderr go to a log
 * file (so a chatty server never blocks on a full pipe).
 */
export function spawnTs(entry: string, args: string[], opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[]; logFile: string }): ChildProcess {
  return spawnLogged([...(opts.nodeArgs ?? []), '--import', 'tsx', entry, ...args], opts);
}

/** Node with `argv`, its stdout and stderr appended to `logFile`. */
function spawnLogged(argv: string[], opts: { env?: NodeJS.ProcessEnv; logFile: string }): ChildProcess {
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

let compiled = false;

/**
 * Starts the server as production runs it: compiled once per bench run (`npm run build -w
 * @fanfare/server`, `apps/server/dist/main.js`), so a restart measures the server, not tsx.
 */
export function spawnCompiledServer(args: string[], opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[]; logFile: string }): ChildProcess {
  if (!compiled) {
    execFileSync(process.execPath, ['apps/server/scripts/build.mjs'], { cwd: ROOT, stdio: 'ignore' });
    compiled = true;
  }
  return spawnLogged([...(opts.nodeArgs ?? []), 'apps/server/dist/main.js', ...args], opts);
}

/** Polls `url` until it answers (any HTTP status) or the deadline passes. */
export async function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
    if (child && child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before ${url} answered`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
