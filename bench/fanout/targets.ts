/**
 * The servers the fan-out benchmark compares: Fanfare itself (the real server program, SQLite in
 * a temp DATA_DIR) and the references. Every one gets its chat load the same way: HTTP posts at
 * Fanfare's chat path from the bench's load generator (`bench/lib/chatLoad.ts`). Each is a child
 * process of the bench with its own environment.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHAT_RATE_LIMIT_MESSAGES, CHAT_RATE_LIMIT_WINDOW_MS } from '@fanfare/protocol';
import type { Poster } from '../lib/chatLoad.ts';
import { migrateToLatest, openDatabase } from '../../apps/server/src/platform/db/database.ts';
import { call, cmsHeaders, signUpFans, startFanfareServer } from '../lib/fanfare.ts';
import { freePort, spawnTs, stopProcess, waitForHttp } from '../lib/processes.ts';
import type { WireKind } from './protocol.ts';

export const TARGET_NAMES = ['fanfare', 'ws', 'ws-stored', 'ws-stored-fastify', 'socketio', 'socketio-naive'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export const TARGET_LABELS: Record<TargetName, string> = {
  fanfare: 'Fanfare',
  ws: 'ref: fair ws (same pacing, 1 frame/batch)',
  'ws-stored': 'extra: fair ws that stores each post in SQLite before answering (decision 0024)',
  'ws-stored-fastify': 'extra: ws-stored taking its posts on a bare Fastify route (decision 0024)',
  socketio: 'ref: Socket.IO, 50 ms batch to room',
  'socketio-naive': 'extra: Socket.IO, emit per message (naive)',
};

export const PARTY_ID = 'bench';

/**
 * Fans taking turns to post, for `rate` messages/s: each posts at most half the chat rate limit
 * (5 per 10 s), so no post is refused for the limit.
 */
export function posterCount(rate: number): number {
  return Math.ceil((rate * 2 * CHAT_RATE_LIMIT_WINDOW_MS) / 1000 / CHAT_RATE_LIMIT_MESSAGES);
}

export interface TargetOptions {
  fans: number;
  rate: number;
  batchMs: number;
  /** Open the server's inspector on this port (garbage collection before memory readings, CPU profiles). */
  inspectPort: number;
  logDir: string;
  log: (line: string) => void;
  /** More Node flags for the measured server process (e.g. `--perf-basic-prof`). */
  nodeArgs?: string[];
}

/** A started server, ready for sockets. */
export interface RunningTarget {
  name: TargetName;
  pid: number;
  wire: WireKind;
  /** One socket URL per fan. */
  urls: string[];
  /** Who posts the chat load, in turn. */
  posters: Poster[];
  /** Seconds spent preparing (sign-ups and the like), not counting the server start. */
  prepareS: number;
  stop(): Promise<void>;
}

/** Starts one target. */
export async function startTarget(name: TargetName, opts: TargetOptions): Promise<RunningTarget> {
  if (name === 'fanfare') return startFanfare(opts);
  return startReference(name, opts);
}

async function startFanfare(opts: TargetOptions): Promise<RunningTarget> {
  const name = 'fanfare';
  const env = { DEMO_SEED: 'false', SOCKET_BATCH_MS: String(opts.batchMs) };
  const logFile = path.join(opts.logDir, `${name}-server.log`);
  const started = Date.now();
  // Sign-ups run on a first process; the measured one restarts on the same data, so the garbage
  // of 10,000 sign-ups is not in its memory before the sockets open (the references have none).
  const setup = await startFanfareServer({ env, logFile });
  let tokens: string[];
  try {
    await createBenchParty(setup.base);
    tokens = await signUpFans(setup.base, PARTY_ID, Math.max(opts.fans, posterCount(opts.rate)), opts.log);
  } catch (e) {
    await setup.stop();
    throw e;
  }
  await setup.stopKeepingData();
  const server = await startFanfareServer({ env, logFile, dataDir: setup.dataDir, nodeArgs: [`--inspect=127.0.0.1:${opts.inspectPort}`, ...(opts.nodeArgs ?? [])] });
  const { base } = server;
  try {
    const wsBase = base.replace(/^http/, 'ws');
    return {
      name,
      pid: server.pid,
      wire: 'fanfare',
      urls: tokens.slice(0, opts.fans).map((t) => `${wsBase}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(t)}`),
      posters: fanPosters([base], tokens, opts.rate),
      prepareS: (Date.now() - started) / 1000,
      stop: () => server.stop(),
    };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** Creates the open bench party (started a minute ago) through the CMS call. */
export async function createBenchParty(base: string): Promise<void> {
  await call(`${base}/api/parties/${PARTY_ID}`, {
    method: 'PUT',
    headers: cmsHeaders,
    body: JSON.stringify({ name: 'Fan-out bench', login_required: false, starts_at: new Date(Date.now() - 60_000).toISOString() }),
  });
}

/** The first posterCount(rate) fans post, each through the node `bases[i % bases.length]`. */
export function fanPosters(bases: string[], tokens: string[], rate: number): Poster[] {
  return tokens.slice(0, posterCount(rate)).map((t, i) => ({
    url: `${bases[i % bases.length]!}/api/parties/${PARTY_ID}/chat/messages`,
    headers: { authorization: `Bearer ${t}` },
  }));
}

async function startReference(name: Exclude<TargetName, 'fanfare'>, opts: TargetOptions): Promise<RunningTarget> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const stores = name === 'ws-stored' || name === 'ws-stored-fastify';
  const isWs = name === 'ws' || stores;
  const entry = isWs ? 'bench/fanout/refs/wsServer.ts' : 'bench/fanout/refs/socketioServer.ts';
  const batchMs = name === 'socketio-naive' ? 0 : opts.batchMs;
  // The storing references keep their posts in a SQLite file of their own, removed with the process.
  const dataDir = stores ? mkdtempSync(path.join(os.tmpdir(), 'fanfare-bench-ref-')) : null;
  const storeFile = dataDir
    ? await fanfareSchemaFile(dataDir).catch((e: unknown) => {
        rmSync(dataDir, { recursive: true, force: true });
        throw e;
      })
    : null;
  const env = { ...process.env, PORT: String(port), BATCH_MS: String(batchMs), NODE_ENV: 'production', ...(storeFile ? { STORE_POSTS: storeFile } : {}), ...(name === 'ws-stored-fastify' ? { HTTP_FRAMEWORK: 'fastify' } : {}) };
  const child: ChildProcess = spawnTs(entry, [], { env, nodeArgs: [`--inspect=127.0.0.1:${opts.inspectPort}`, ...(opts.nodeArgs ?? [])], logFile: path.join(opts.logDir, `${name}-server.log`) });
  const stop = async () => {
    await stopProcess(child);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp(`${base}/health`, 30_000, child);
  } catch (e) {
    await stop();
    throw e;
  }
  const url = isWs ? `ws://127.0.0.1:${port}/` : `ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`;
  return {
    name,
    pid: child.pid!,
    wire: isWs ? 'raw' : 'socketio',
    urls: Array.from({ length: opts.fans }, () => url),
    posters: Array.from({ length: posterCount(opts.rate) }, (_, i) => ({ url: `${base}/api/parties/${PARTY_ID}/chat/messages`, headers: { authorization: `Bearer poster-${i}` } })),
    prepareS: 0,
    stop,
  };
}

/**
 * A SQLite file with Fanfare's schema, made here by its own migrations: ws-stored stores into the
 * same table and indexes without a copy of them, and its process loads no Kysely.
 */
async function fanfareSchemaFile(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'posts.sqlite');
  const handle = openDatabase(`sqlite:${file}`);
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  return file;
}
