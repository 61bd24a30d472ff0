/**
 * The extra services the fault tests break on purpose: a private PostgreSQL cluster and a private
 * Redis on free ports, and server nodes as child processes (the real program, as `npm start` runs
 * it), so a test can restart, hang or kill -9 any of them without touching the shared ones.
 */
import type { ChatMessageEvent, ServerEvent } from '@fanfare/protocol';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_CMS_TOKEN, createPostgresDatabase, freePort } from '../test/harness.ts';

const serverDir = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));

/** Thrown by a check to stop waiting at once (the process waited for has died). */
export class GaveUp extends Error {}

/**
 * Polls `check` until it holds; a check that throws counts as "not yet" (a refused connection),
 * except `GaveUp`. Throws after `timeoutMs` (a bound, never a measured threshold).
 */
export async function until(what: string | (() => string), check: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const held = await Promise.resolve()
      .then(check)
      .catch((err: unknown) => {
        if (err instanceof GaveUp) throw err;
        return false;
      });
    if (held) return;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function run(cmd: string, args: string[], asUser: string | null): void {
  const [file, argv] = asUser ? ['runuser', ['-u', asUser, '--', cmd, ...args]] : [cmd, args];
  const res = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${res.status}): ${res.stderr || res.stdout}`);
}

function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) {
    const p = path.join(root, v, 'bin', name);
    if (fs.existsSync(p)) return p;
  }
  return name;
}

/** A PostgreSQL cluster of our own: `initdb` in a temporary directory, `pg_ctl` on a free port. */
export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly asUser: string | null,
  ) {}

  /** `postgres://` URL of the cluster's `postgres` database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  static async start(): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-fault-pg-'));
    // PostgreSQL refuses to run as root: CI runs as root, so the cluster belongs to `postgres`.
    const asUser = process.getuid?.() === 0 ? 'postgres' : null;
    if (asUser) run('chown', [asUser, dir], null);
    run(postgresBin('initdb'), ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'], asUser);
    const pg = new PrivatePostgres(dir, await freePort(), asUser);
    pg.startServer();
    return pg;
  }

  /** Starts the server and waits until it accepts connections. */
  startServer(): void {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    run(postgresBin('pg_ctl'), ['-D', path.join(this.dir, 'data'), '-l', path.join(this.dir, 'log'), '-o', opts, '-w', '-t', '60', 'start'], this.asUser);
  }

  /** Stops the server: `fast` disconnects every client, `immediate` is a crash. */
  stopServer(mode: 'fast' | 'immediate' = 'fast'): void {
    run(postgresBin('pg_ctl'), ['-D', path.join(this.dir, 'data'), '-m', mode, '-w', '-t', '60', 'stop'], this.asUser);
  }

  /** The postmaster's process id (to freeze it with SIGSTOP: a hung database). */
  postmasterPid(): number {
    return Number(fs.readFileSync(path.join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  destroy(): void {
    try {
      this.stopServer('immediate');
    } catch {
      // Already stopped.
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Redis of our own, without persistence: a restart starts it empty. */
export class PrivateRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.startServer();
    return redis;
  }

  async startServer(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    await until('redis to answer', () => {
      if (child.exitCode !== null) throw new GaveUp(`redis-server exited with ${child.exitCode}`);
      return spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG';
    });
  }

  /** Stops Redis and waits for the process to be gone (its data goes with it). */
  async stopServer(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await gone;
  }

  async destroy(): Promise<void> {
    await this.stopServer();
  }
}

/** A server node: the real program in a child process (party surface only). */
export class ServerNode {
  readonly exited: Promise<number | null>;
  output = '';

  private constructor(
    readonly child: ChildProcess,
    readonly partyUrl: string,
    private readonly dataDir: string,
  ) {
    child.stdout!.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-20_000)));
    child.stderr!.on('data', (d: Buffer) => (this.output = (this.output + d.toString()).slice(-20_000)));
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
  }

  /** True while the process runs (it did not die of the fault). */
  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts a node; `nodeArgs` go to node after tsx's loader, before the program (e.g. `--import` of a fault preload). */
  static async start(env: Record<string, string>, port?: number, nodeArgs: string[] = []): Promise<ServerNode> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-fault-node-'));
    const partyPort = port ?? (await freePort());
    const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, 'src/main.ts', '--only', 'party'], {
      cwd: serverDir,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(partyPort),
        CMS_PORT: String(await freePort()),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        CMS_ADMIN_TOKEN: TEST_CMS_TOKEN,
        DEMO_SEED: 'false',
        ADMIN_EMAIL: '',
        ADMIN_PASSWORD: '',
        SOCKET_BATCH_MS: '10',
        TIMELINE_TICK_MS: '50',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const node = new ServerNode(child, `http://127.0.0.1:${partyPort}`, dataDir);
    await until(`node on ${partyPort} to listen`, async () => {
      if (!node.alive) throw new GaveUp(`node exited early:\n${node.output}`);
      return (await fetch(`${node.partyUrl}/healthz`)).ok;
    }, 60_000);
    return node;
  }

  /** kill -9: no shutdown, no goodbye to sockets. */
  async kill9(): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.alive) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
      await this.exited;
      clearTimeout(timer);
    }
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * A fresh database for a fault test that does not break PostgreSQL itself: on TEST_DATABASE_URL's
 * server when it is set (CI), else in a private cluster, so the test runs either way.
 */
export async function freshPostgres(): Promise<{ url: string; close: () => Promise<void> }> {
  if (process.env.TEST_DATABASE_URL) {
    const db = await createPostgresDatabase();
    return { url: db.url, close: db.drop };
  }
  const pg = await PrivatePostgres.start();
  return { url: pg.url, close: async () => pg.destroy() };
}

/** The chat messages among a fan's events (chat events carry the message kind as their `type`). */
export function chatMessagesIn(events: readonly ServerEvent[]): ChatMessageEvent[] {
  return events.filter((e): e is ChatMessageEvent => e.type === 'message' && 'id' in e);
}
