/**
 * A load-client worker of the fan-out benchmark (forked by main.ts). Opens its share of fan
 * sockets with bounded concurrency, answers heartbeats, and accounts every delivered chat message
 * per socket: latency from the message's due time (the load generator's schedule, carried in the
 * text as `@<ms>`) and from the server's `timestamp_ms`, duplicates, and (with the union of all
 * workers) losses. Sockets belong to groups (the node they talk to, in the scale-out bench).
 *
 * The load client must be cheaper than the servers it measures, on the same 2-core machine: it
 * speaks WebSocket itself over plain TCP sockets (see leanSocket.ts: one shared read buffer, no
 * per-frame objects) and decodes a frame that many sockets receive byte-identical only once.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Histogram } from '../lib/histogram.ts';
import { LeanSocket } from './leanSocket.ts';
import type { FromWorker, ToWorker, WireKind, WorkerReport } from './protocol.ts';

interface Item {
  id: string;
  ts: number;
  /** When the load generator was due to send it (NaN when the text carries no `@<ms>`). */
  due: number;
  /** Index among measured messages, or -1 for one outside the window. */
  idx: number;
}

interface Fan {
  ws: LeanSocket;
  ready: boolean;
  closed: boolean;
  counts: Uint8Array;
  distinct: number;
  group: number;
}

/** Per group of sockets: latency from due time, and what arrived during [t0, t1) by receive time. */
interface GroupStats {
  latencyDue: Histogram;
  deliveries: number;
  windowItems: number;
  windowFrames: number;
  /** Payload bytes of those frames (WebSocket headers not counted). */
  windowBytes: number;
}
const groups: GroupStats[] = [];
const groupOf = (g: number): GroupStats => (groups[g] ??= { latencyDue: new Histogram(), deliveries: 0, windowItems: 0, windowFrames: 0, windowBytes: 0 });

const send = (msg: FromWorker) => process.send?.(msg);

let wire: WireKind = 'raw';
let capacity = 4096;
let t0 = Infinity;
let t1 = Infinity;
let seriesFrom = Infinity;
const fans: Fan[] = [];
const ids = new Map<string, number>();
const latency = new Histogram();
const latencyDue = new Histogram();
const DUE_RE = / @(\d{13})$/;
const series: number[] = [];
let deliveries = 0;
let doubled = 0;
let frames = 0;
let cacheHits = 0;
let closed = 0;
const closeCodes: Record<string, number> = {};
const loop = monitorEventLoopDelay({ resolution: 10 });

/** Recently decoded frames, newest first; a hit is a byte-for-byte match (memcmp), never a guess. */
let recent: { buf: Buffer; items: Item[] }[] = [];
const RECENT_MAX = 32;

function decode(payload: Buffer): Item[] {
  for (let i = 0; i < recent.length; i++) {
    const r = recent[i]!;
    if (r.buf.length === payload.length && r.buf.equals(payload)) {
      cacheHits++;
      return r.items;
    }
  }
  // The payload is a view into the shared read buffer: keep a copy.
  const copy = Buffer.from(payload);
  const items = parse(copy);
  recent.unshift({ buf: copy, items });
  if (recent.length > RECENT_MAX) recent.pop();
  return items;
}

function parse(buf: Buffer): Item[] {
  const text = buf.toString('utf8');
  let events: unknown[] = [];
  if (wire === 'socketio') {
    if (!text.startsWith('42')) return [];
    const packet = JSON.parse(text.slice(2)) as [string, unknown];
    if (packet[0] === 'message') events = [packet[1]];
    else if (packet[0] === 'messages' && Array.isArray(packet[1])) events = packet[1] as unknown[];
  } else {
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed)) events = parsed;
  }
  const items: Item[] = [];
  for (const e of events) {
    const ev = e as { type?: unknown; id?: unknown; timestamp_ms?: unknown; text?: unknown };
    if (ev.type !== 'message' || typeof ev.id !== 'string' || typeof ev.timestamp_ms !== 'number') continue;
    const m = typeof ev.text === 'string' ? DUE_RE.exec(ev.text) : null;
    const due = m ? Number(m[1]) : NaN;
    // A message belongs to the window by its due time (by timestamp_ms when it has none).
    items.push({ id: ev.id, ts: ev.timestamp_ms, due, idx: indexOf(ev.id, Number.isNaN(due) ? ev.timestamp_ms : due) });
  }
  return items;
}

function indexOf(id: string, ts: number): number {
  if (ts < t0 || ts >= t1) return -1;
  let idx = ids.get(id);
  if (idx === undefined) {
    idx = ids.size;
    ids.set(id, idx);
  }
  return idx;
}

function onFrame(fan: Fan, data: Buffer): void {
  const now = Date.now();
  frames++;
  // Heartbeats and handshakes first: they are short and never cached.
  if (data.length <= 4) {
    const t = data.toString('latin1');
    if (wire === 'socketio') {
      if (t === '2') fan.ws.send('3');
      else if (t === '40' || t.startsWith('40')) fan.ready = true;
      return;
    }
    if (t === 'ping') fan.ws.send('pong');
    return;
  }
  if (wire === 'socketio') {
    const head = data[0];
    if (head === 0x30 /* '0' open */) return void fan.ws.send('40');
    if (data[0] === 0x34 && data[1] === 0x30 /* '40{sid}' connected */) {
      fan.ready = true;
      return;
    }
  } else if (!fan.ready && data.includes('"hello"')) {
    fan.ready = true;
  }
  const items = decode(data);
  if (items.length === 0) return;
  const sec = Math.floor((now - seriesFrom) / 1000);
  if (sec >= 0 && sec < 600) series[sec] = (series[sec] ?? 0) + items.length;
  const g = groupOf(fan.group);
  if (now >= t0 && now < t1) {
    g.windowFrames++;
    g.windowItems += items.length;
    g.windowBytes += data.length;
  }
  for (const item of items) {
    if (item.idx < 0) continue;
    deliveries++;
    g.deliveries++;
    latency.add(now - item.ts);
    if (!Number.isNaN(item.due)) {
      latencyDue.add(now - item.due);
      g.latencyDue.add(now - item.due);
    }
    let counts = fan.counts;
    if (item.idx >= counts.length) {
      const grown = new Uint8Array(Math.max(counts.length * 2, item.idx + 1));
      grown.set(counts);
      fan.counts = counts = grown;
    }
    if (counts[item.idx] === 0) fan.distinct++;
    else doubled++;
    if (counts[item.idx]! < 255) counts[item.idx]!++;
  }
}

function connectOne(url: string, group: number, timeoutMs: number, done: (fan: Fan | null, why?: string) => void): void {
  let settled = false;
  const fan: Fan = { ws: null as unknown as LeanSocket, ready: false, closed: false, counts: new Uint8Array(capacity), distinct: 0, group };
  const settle = (ok: boolean, why?: string) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    if (!ok) fan.ws.destroy();
    done(ok ? fan : null, why);
  };
  const timer = setTimeout(() => settle(false, 'timeout waiting for the first frame'), timeoutMs);
  fan.ws = new LeanSocket(url, {
    onText: (payload) => {
      onFrame(fan, payload);
      if (fan.ready && !settled) settle(true);
    },
    onError: (why) => settle(false, why),
    onClose: (code) => {
      if (!settled) return settle(false, `closed with ${code} before ready`);
      if (!fan.closed) {
        fan.closed = true;
        closed++;
        closeCodes[code] = (closeCodes[code] ?? 0) + 1;
      }
    },
  });
}

async function connectAll(urls: string[], urlGroups: number[], concurrency: number, timeoutMs: number): Promise<void> {
  const started = Date.now();
  let next = 0;
  let ready = 0;
  let failed = 0;
  let firstError: string | null = null;
  let lastProgress = 0;
  await new Promise<void>((resolveAll) => {
    const openOne = (): void => {
      if (next >= urls.length) {
        if (ready + failed >= urls.length) resolveAll();
        return;
      }
      const i = next++;
      connectOne(urls[i]!, urlGroups[i] ?? 0, timeoutMs, (fan, why) => {
        if (fan) {
          ready++;
          fans.push(fan);
        } else {
          failed++;
          firstError ??= why ?? 'failed';
        }
        if (Date.now() - lastProgress > 1000) {
          lastProgress = Date.now();
          send({ type: 'progress', ready, failed });
        }
        openOne();
      });
    };
    for (let i = 0; i < Math.min(concurrency, urls.length); i++) openOne();
    if (urls.length === 0) resolveAll();
  });
  send({ type: 'connected', ready, failed, ms: Date.now() - started, firstError });
}

function report(): WorkerReport {
  loop.disable();
  const perSocket = new Map<number, number>();
  for (const f of fans) perSocket.set(f.distinct, (perSocket.get(f.distinct) ?? 0) + 1);
  const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
  return {
    sockets: fans.length,
    ready: fans.length,
    failed: 0,
    closed,
    close_codes: closeCodes,
    ids: [...ids.keys()],
    distinct_per_socket: [...perSocket.entries()],
    doubled,
    deliveries,
    latency: latency.toSparse(),
    latency_due: latencyDue.toSparse(),
    groups: Array.from(groups, (g, i) => ({
      group: i,
      sockets: fans.filter((f) => f.group === i).length,
      deliveries: g?.deliveries ?? 0,
      latency_due: g?.latencyDue.toSparse() ?? [],
      window_items: g?.windowItems ?? 0,
      window_frames: g?.windowFrames ?? 0,
      window_bytes: g?.windowBytes ?? 0,
    })),
    series: Array.from(series, (v) => v ?? 0),
    frames,
    decode_cache_hits: cacheHits,
    loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
  };
}

process.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'connect':
      wire = msg.wire;
      capacity = msg.capacity;
      void connectAll(msg.urls, msg.groups ?? [], msg.concurrency, msg.timeoutMs);
      return;
    case 'window':
      t0 = msg.t0;
      t1 = msg.t1;
      seriesFrom = msg.seriesFrom;
      recent = [];
      loop.reset();
      loop.enable();
      return;
    case 'report':
      send({ type: 'report', report: report() });
      return;
    case 'exit':
      for (const f of fans) f.ws.destroy();
      setTimeout(() => process.exit(0), 200);
      return;
  }
});
// Never outlive the orchestrator.
process.on('disconnect', () => process.exit(0));
