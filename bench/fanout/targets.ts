/**
 * The servers the fan-out benchmark compares: Fanfare itself (the real server program, SQLite in
 * a temp DATA_DIR, messages through the real fake-traffic call) and the two references. Each is a
 * child process of the bench with its own environment.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ChatMessagesResponse, FakeChatBody } from '@fanfare/protocol';
import { call, cmsHeaders, signUpFans, startFanfareServer } from '../lib/fanfare.ts';
import { freePort, spawnTs, stopProcess, waitForHttp } from '../lib/processes.ts';
import type { WireKind } from './protocol.ts';

export const TARGET_NAMES = ['fanfare', 'raw', 'socketio'] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export const TARGET_LABELS: Record<TargetName, string> = {
  fanfare: 'Fanfare',
  raw: 'raw ws (batched)',
  socketio: 'Socket.IO room',
};

const PARTY_ID = 'bench';

export interface TargetOptions {
  fans: number;
  batchMs: number;
  /** Open the server's inspector on this port, for a CPU profile of the window (Fanfare only). */
  inspectPort: number | null;
  logDir: string;
  log: (line: string) => void;
}

/** A started server, ready for sockets. */
export interface RunningTarget {
  name: TargetName;
  pid: number;
  wire: WireKind;
  /** One socket URL per fan. */
  urls: string[];
  /** Seconds spent preparing (sign-ups and the like), not counting the server start. */
  prepareS: number;
  startTraffic(body: FakeChatBody): Promise<void>;
  stopTraffic(): Promise<void>;
  /** Every chat message the server made: id and `timestamp_ms`. */
  listMessages(from: number, to: number): Promise<{ id: string; timestamp_ms: number }[]>;
  stop(): Promise<void>;
}

/** Starts one target. */
export async function startTarget(name: TargetName, opts: TargetOptions): Promise<RunningTarget> {
  return name === 'fanfare' ? startFanfare(opts) : startReference(name, opts);
}

async function startFanfare(opts: TargetOptions): Promise<RunningTarget> {
  const server = await startFanfareServer({
    env: { DEMO_SEED: 'false', SOCKET_BATCH_MS: String(opts.batchMs) },
    nodeArgs: opts.inspectPort ? [`--inspect=127.0.0.1:${opts.inspectPort}`] : [],
    logFile: path.join(opts.logDir, 'fanfare-server.log'),
  });
  const { base } = server;
  try {
    const started = Date.now();
    await call(`${base}/api/parties/${PARTY_ID}`, {
      method: 'PUT',
      headers: cmsHeaders,
      body: JSON.stringify({ name: 'Fan-out bench', login_required: false, starts_at: new Date(Date.now() - 60_000).toISOString() }),
    });
    const tokens = await signUpFans(base, PARTY_ID, opts.fans, opts.log);
    const prepareS = (Date.now() - started) / 1000;
    const wsBase = base.replace(/^http/, 'ws');
    const fake = `${base}/api/parties/${PARTY_ID}/chat/fake`;
    return {
      name: 'fanfare',
      pid: server.pid,
      wire: 'fanfare',
      urls: tokens.map((t) => `${wsBase}/api/parties/${PARTY_ID}?access_token=${encodeURIComponent(t)}`),
      prepareS,
      startTraffic: async (body) => void (await call(fake, { method: 'POST', headers: cmsHeaders, body: JSON.stringify(body) })),
      stopTraffic: async () => void (await call(fake, { method: 'DELETE', headers: { 'x-cms-token': cmsHeaders['x-cms-token'] } })),
      listMessages: (from, to) => listFanfareMessages(base, tokens[0]!, from, to),
      stop: () => server.stop(),
    };
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** Pages back through `GET .../chat/messages` from `to` to `from` (ids deduplicated). */
async function listFanfareMessages(base: string, token: string, from: number, to: number): Promise<{ id: string; timestamp_ms: number }[]> {
  const seen = new Map<string, number>();
  let before = to + 1;
  for (let page = 0; page < 100_000; page++) {
    const res = await call(`${base}/api/parties/${PARTY_ID}/chat/messages?limit=100&before=${before}`, { headers: { authorization: `Bearer ${token}` } });
    const { items } = (await res.json()) as ChatMessagesResponse;
    let fresh = 0;
    let oldest = before;
    for (const m of items) {
      if (!seen.has(m.id)) {
        seen.set(m.id, m.timestamp_ms);
        fresh++;
      }
      oldest = Math.min(oldest, m.timestamp_ms);
    }
    if (items.length === 0 || oldest < from) break;
    // Messages sharing the boundary millisecond are fetched again (deduplicated above).
    before = fresh === 0 ? oldest : oldest + 1;
  }
  return [...seen.entries()].map(([id, timestamp_ms]) => ({ id, timestamp_ms }));
}

async function startReference(name: 'raw' | 'socketio', opts: TargetOptions): Promise<RunningTarget> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const entry = name === 'raw' ? 'bench/fanout/refs/rawServer.ts' : 'bench/fanout/refs/socketioServer.ts';
  const env = { ...process.env, PORT: String(port), BATCH_MS: String(opts.batchMs), NODE_ENV: 'production' };
  const child: ChildProcess = spawnTs(entry, [], { env, logFile: path.join(opts.logDir, `${name}-server.log`) });
  await waitForHttp(`${base}/health`, 30_000, child);
  const url = name === 'raw' ? `ws://127.0.0.1:${port}/` : `ws://127.0.0.1:${port}/socket.io/?EIO=4&transport=websocket`;
  return {
    name,
    pid: child.pid!,
    wire: name,
    urls: Array.from({ length: opts.fans }, () => url),
    prepareS: 0,
    startTraffic: async (body) =>
      void (await call(`${base}/api/parties/${PARTY_ID}/chat/fake`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
    stopTraffic: async () => void (await call(`${base}/api/parties/${PARTY_ID}/chat/fake`, { method: 'DELETE' })),
    listMessages: async (from, to) => {
      const { items } = (await (await call(`${base}/bench/messages`)).json()) as { items: { id: string; timestamp_ms: number }[] };
      return items.filter((m) => m.timestamp_ms >= from && m.timestamp_ms <= to);
    },
    stop: () => stopProcess(child),
  };
}
