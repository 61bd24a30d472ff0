/**
 * A fan worker of the reconnect benches (forked by fleet.ts). Each fan behaves as the party app
 * does (`packages/client/src/partySocket.ts`, `apps/party-web/src/live/liveSession.ts`): on a close
 * it reconnects after the spec's backoff and jitter (`reconnectDelayMs`), sends `resume` with its
 * last seq_id as soon as the socket opens, drops sequenced events it already has, and on `resync`
 * pages `GET chat/messages?after_seq_id=` from its newest message, reading `chat/recent` alongside.
 * Each fan records when it dropped and when it was back (caught up to its `hello`, or through the
 * REST catch-up after a `resync`) and which stored messages it holds; at the end it is checked
 * against the stored list.
 */
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gunzipSync } from 'node:zlib';
import { reconnectDelayMs } from '@fanfare/client';
import { CHAT_FETCH_MAX_LIMIT } from '@fanfare/protocol';
import { Histogram } from '../lib/histogram.ts';
import { LeanSocket, type LeanTlsOptions } from '../fanout/leanSocket.ts';
import type { FanOutcome, FanSpec, FromFanWorker, LatencyWindow, ToFanWorker } from './protocol.ts';

const DUE_RE = / @(\d{13})$/;
/** Control events carry a seq_id too but are not part of the sequence. */
const CONTROL_TYPES = new Set(['hello', 'resync', 'presence', 'reactions', 'time', 'error', 'party_stats']);
/** A REST page that fails is tried again after this, at most REST_TRIES times. */
const REST_RETRY_MS = 1000;
const REST_TRIES = 30;

interface Item {
  seq: number;
  type: string;
  /** Message index in this worker (-1 for other events), due time (NaN without one). */
  idx: number;
  due: number;
}

const send = (msg: FromFanWorker) => process.send?.(msg);
const loop = monitorEventLoopDelay({ resolution: 10 });
/** The worst lateness of a 10 ms timer per wall-clock second: when the client itself held frames back. */
const lateBySecond = new Map<number, number>();
let tickDue = Date.now() + 10;
setInterval(() => {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  lateBySecond.set(s, Math.max(lateBySecond.get(s) ?? 0, now - tickDue));
  tickDue = now + 10;
}, 10).unref();
loop.enable();

let partyId = '';
let httpBase = '';
let tlsOptions: LeanTlsOptions = {};
let agent: http.Agent = new http.Agent({ keepAlive: true });
let windows: LatencyWindow[] = [];
let exiting = false;
/** seq_id → dense message index, shared by the fans of this worker. */
const msgIndex = new Map<number, number>();
const indexOf = (seq: number): number => {
  let i = msgIndex.get(seq);
  if (i === undefined) msgIndex.set(seq, (i = msgIndex.size));
  return i;
};

/** Recently decoded frames: thousands of fans receive the same bytes; decode them once. */
let recent: { buf: Buffer; items: Item[]; control: { type: string; seq_id?: number }[] }[] = [];
function decode(payload: Buffer): (typeof recent)[number] {
  for (const r of recent) if (r.buf.length === payload.length && r.buf.equals(payload)) return r;
  const buf = Buffer.from(payload);
  const items: Item[] = [];
  const control: { type: string; seq_id?: number }[] = [];
  const parsed = JSON.parse(buf.toString('utf8')) as unknown;
  for (const raw of Array.isArray(parsed) ? parsed : []) {
    const e = raw as { type?: unknown; seq_id?: unknown; text?: unknown };
    const type = typeof e.type === 'string' ? e.type : '';
    if (CONTROL_TYPES.has(type)) {
      control.push({ type, seq_id: typeof e.seq_id === 'number' ? e.seq_id : undefined });
      continue;
    }
    if (typeof e.seq_id !== 'number') continue;
    const m = type === 'message' && typeof e.text === 'string' ? DUE_RE.exec(e.text) : null;
    items.push({ seq: e.seq_id, type, idx: type === 'message' ? indexOf(e.seq_id) : -1, due: m ? Number(m[1]) : NaN });
  }
  const entry = { buf, items, control };
  // Hello frames differ per fan: keep only frames of events, which everyone shares.
  if (control.length === 0) {
    recent.unshift(entry);
    if (recent.length > 32) recent.pop();
  }
  return entry;
}

/** GETs JSON with the fan's bearer token, gzip accepted as a browser does; rejects unless 2xx. Over TLS it connects to `connectHost` with the URL's host name as SNI and `Host`. */
function getJson(url: string, token: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    const options: https.RequestOptions = {
      agent,
      method: 'GET',
      hostname: secure ? (tlsOptions.connectHost ?? u.hostname) : u.hostname,
      port: u.port,
      path: `${u.pathname}${u.search}`,
      servername: u.hostname,
      headers: { authorization: `Bearer ${token}`, host: u.host, 'accept-encoding': 'gzip' },
      timeout: 30_000,
    };
    const req = (secure ? https : http).request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if ((res.statusCode ?? 0) >= 300) return reject(new Error(`HTTP ${res.statusCode}`));
        try {
          const body = Buffer.concat(chunks);
          resolve(JSON.parse((res.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8')));
        } catch (e) {
          reject(e as Error);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

class Fan {
  ws: LeanSocket | null = null;
  hello = false;
  helloSeq = 0;
  lastSeq: number | null = null;
  /** The seq_id the current connection resumed from (as PartySocket.resumedFromSeqId). */
  resumedFrom: number | null = null;
  /** The replay a resume asked for, (from, to], applied even after newer live events (as PartySocket). */
  replay: { from: number; to: number } | null = null;
  firstSeq: number | null = null;
  /** What happened after the drop, briefly (shown for fans with a gap). */
  trace: string[] = [];
  private note(what: string): void {
    if (this.droppedAt !== null && this.trace.length < 24) this.trace.push(`${Date.now() - this.droppedAt} ${what}`);
  }
  maxChatSeq = 0;
  failures = 0;
  pendingBack = false;
  catchingUp = false;
  droppedAt: number | null = null;
  backAt: number | null = null;
  openAt: number | null = null;
  /** When the attempt that brought the fan back started (its connect, after the backoff). */
  attemptAt: number | null = null;
  /** When that attempt's connection and TLS were up (its upgrade request went out). */
  connectedAt: number | null = null;
  helloAt: number | null = null;
  attempts = 0;
  maxFailures = 0;
  resynced = 0;
  resumed = 0;
  restPages = 0;
  restErrors = 0;
  dupSent = 0;
  closeCodes: Record<string, number> = {};
  errors: Record<string, number> = {};
  have = new Uint8Array(4096);
  /** Live latency samples (ms from due, capped) per latency window. */
  samples: Uint16Array[] = windows.map(() => new Uint16Array(256));
  sampleCounts: number[] = windows.map(() => 0);

  constructor(
    readonly spec: FanSpec,
    private readonly onFirstHello: (ok: boolean, why?: string) => void,
  ) {}

  connect(): void {
    if (exiting) return;
    this.hello = false;
    if (this.pendingBack) this.attemptAt = Date.now();
    const ws: LeanSocket = new LeanSocket(
      this.spec.url,
      {
        onConnected: () => {
          if (this.pendingBack) this.connectedAt = Date.now();
        },
        onOpen: () => {
          if (this.pendingBack) this.openAt = Date.now();
          this.resumedFrom = this.lastSeq;
          this.replay = null;
          if (this.lastSeq !== null) ws.send(JSON.stringify({ type: 'resume', last_seq_id: this.lastSeq }));
        },
        onText: (payload) => this.onFrame(ws, payload),
        onError: (why) => {
          const kind = why.replace(/\d+/g, 'N').slice(0, 60);
          this.errors[kind] = (this.errors[kind] ?? 0) + 1;
        },
        onClose: (code) => this.onClose(ws, code),
      },
      tlsOptions,
    );
    this.ws = ws;
  }

  private onFrame(ws: LeanSocket, payload: Buffer): void {
    if (payload.length <= 4) {
      if (payload.toString('latin1') === 'ping') ws.send('pong');
      this.failures = 0;
      return;
    }
    let frame: (typeof recent)[number];
    try {
      frame = decode(payload);
    } catch {
      return;
    }
    this.failures = 0;
    const now = Date.now();
    for (const c of frame.control) {
      if (c.type === 'hello') {
        const first = this.lastSeq === null;
        this.hello = true;
        if (this.pendingBack) this.helloAt = now;
        this.helloSeq = c.seq_id ?? 0;
        if (!first && this.resumedFrom !== null && this.helloSeq > this.resumedFrom) this.replay = { from: this.resumedFrom, to: this.helloSeq };
        this.note(`hello ${this.helloSeq} last ${this.lastSeq}`);
        if (first) {
          this.lastSeq = this.firstSeq = this.helloSeq;
          this.onFirstHello(true);
        }
      } else if (c.type === 'resync') {
        this.note(`resync ${c.seq_id} last ${this.lastSeq} chat ${this.maxChatSeq}`);
        this.lastSeq = c.seq_id ?? this.lastSeq;
        this.replay = null;
        this.resynced++;
        this.pendingBack = this.droppedAt !== null;
        void this.catchUp();
      }
    }
    for (const it of frame.items) {
      const r = this.replay;
      if (r && it.seq > r.from && it.seq <= r.to) {
        r.from = it.seq;
        if (r.from >= r.to) this.replay = null;
        if (it.idx >= 0) this.mark(it.idx, it.seq);
        continue;
      }
      if (this.lastSeq !== null && it.seq <= this.lastSeq) {
        this.dupSent++;
        continue;
      }
      if (this.pendingBack) this.note(`event ${it.type} ${it.seq}`);
      this.lastSeq = it.seq;
      if (it.idx < 0) continue;
      this.mark(it.idx, it.seq);
      if (!this.pendingBack && !Number.isNaN(it.due)) this.sample(it.due, now - it.due);
    }
    this.checkBack(now);
  }

  /** Back: the socket said hello, no REST catch-up is under way, and the fan has what the node had at hello. */
  private checkBack(now: number): void {
    if (!this.pendingBack || !this.hello || this.catchingUp || this.replay || this.lastSeq === null || this.lastSeq < this.helloSeq) return;
    this.pendingBack = false;
    this.backAt = now;
    if (this.resynced === 0) this.resumed++;
  }

  private mark(idx: number, seq: number): void {
    if (idx >= this.have.length) {
      const grown = new Uint8Array(Math.max(this.have.length * 2, idx + 1));
      grown.set(this.have);
      this.have = grown;
    }
    this.have[idx] = 1;
    if (seq > this.maxChatSeq) this.maxChatSeq = seq;
  }

  private sample(due: number, ms: number): void {
    for (let w = 0; w < windows.length; w++) {
      if (due < windows[w]!.t0 || due >= windows[w]!.t1) continue;
      let arr = this.samples[w]!;
      const n = this.sampleCounts[w]!;
      if (n >= arr.length) {
        const grown = new Uint16Array(arr.length * 2);
        grown.set(arr);
        this.samples[w] = arr = grown;
      }
      arr[n] = Math.min(65_535, Math.max(0, ms));
      this.sampleCounts[w] = n + 1;
    }
  }

  private onClose(ws: LeanSocket, code: number): void {
    if (this.ws !== ws || exiting) return;
    this.ws = null;
    this.closeCodes[code] = (this.closeCodes[code] ?? 0) + 1;
    if (this.lastSeq === null) return this.onFirstHello(false, `closed with ${code} before hello`);
    if (this.droppedAt === null) {
      this.droppedAt = Date.now();
      this.pendingBack = true;
    }
    this.failures++;
    this.attempts++;
    this.maxFailures = Math.max(this.maxFailures, this.failures);
    setTimeout(() => this.connect(), reconnectDelayMs(this.failures));
  }

  /** The party app's catch-up after `resync`: pages after its newest message, and the recent page alongside. */
  private async catchUp(): Promise<void> {
    if (this.catchingUp) return;
    this.catchingUp = true;
    const base = `${httpBase}/api/parties/${encodeURIComponent(partyId)}/chat`;
    // As the party app: from the newest message, or where the socket resumed if that is older.
    let cursor = this.resumedFrom === null ? this.maxChatSeq : Math.min(this.maxChatSeq, this.resumedFrom);
    const recentPage = getJson(`${base}/recent`, this.spec.token).catch(() => this.restErrors++);
    for (let tries = 0, pages = 0; tries < REST_TRIES && pages < 100 && !exiting; ) {
      try {
        const page = (await getJson(`${base}/messages?after_seq_id=${cursor}&limit=${CHAT_FETCH_MAX_LIMIT}`, this.spec.token)) as { items: { seq_id: number }[] };
        this.restPages++;
        pages++;
        this.note(`page after ${cursor}: ${page.items.length} ${page.items[0]?.seq_id}..${page.items[page.items.length - 1]?.seq_id}`);
        for (const m of page.items) this.mark(indexOf(m.seq_id), m.seq_id);
        if (page.items.length < CHAT_FETCH_MAX_LIMIT) break;
        cursor = page.items[page.items.length - 1]!.seq_id;
      } catch {
        this.restErrors++;
        tries++;
        await new Promise((r) => setTimeout(r, REST_RETRY_MS));
      }
    }
    await recentPage;
    this.catchingUp = false;
    this.checkBack(Date.now());
  }

  outcome(expected: Set<number>, expectedSeqs: number[], expectedIdx: number[]): FanOutcome {
    let missing = 0;
    let missingFrom: number | null = null;
    let missingTo: number | null = null;
    // A fan is owed every message after its first hello.
    const owedFrom = this.firstSeq ?? Infinity;
    expectedIdx.forEach((idx, i) => {
      if (expectedSeqs[i]! <= owedFrom || (idx >= 0 && this.have[idx])) return;
      missing++;
      missingFrom ??= expectedSeqs[i]!;
      missingTo = expectedSeqs[i]!;
    });
    let extra = 0;
    for (const [seq, idx] of msgIndex) if (this.have[idx] && seq > owedFrom && !expected.has(seq)) extra++;
    return {
      droppedAt: this.droppedAt,
      backAt: this.droppedAt === null ? null : this.pendingBack ? null : this.backAt,
      openAt: this.openAt,
      attemptAt: this.attemptAt,
      connectedAt: this.connectedAt,
      helloAt: this.helloAt,
      attempts: this.attempts,
      maxFailures: this.maxFailures,
      resynced: this.resynced,
      resumed: this.resumed,
      restPages: this.restPages,
      restErrors: this.restErrors,
      dupSent: this.dupSent,
      missing,
      trace: missing ? this.trace : undefined,
      missingRange: missing ? [missingFrom!, missingTo!] : null,
      firstSeq: this.firstSeq,
      extra,
      closeCodes: this.closeCodes,
      errors: this.errors,
    };
  }
}

const fans: Fan[] = [];

async function connectAll(specs: FanSpec[], concurrency: number): Promise<void> {
  const started = Date.now();
  let next = 0;
  let ready = 0;
  let failed = 0;
  let firstError: string | null = null;
  await new Promise<void>((resolveAll) => {
    const openOne = (): void => {
      if (next >= specs.length) {
        if (ready + failed >= specs.length) resolveAll();
        return;
      }
      let settled = false;
      const fan = new Fan(specs[next++]!, (ok, why) => {
        if (settled) return;
        settled = true;
        if (ok) ready++;
        else {
          failed++;
          firstError ??= why ?? 'failed';
        }
        openOne();
      });
      fans.push(fan);
      fan.connect();
    };
    for (let i = 0; i < Math.min(concurrency, specs.length); i++) openOne();
    if (specs.length === 0) resolveAll();
  });
  send({ type: 'connected', ready, failed, ms: Date.now() - started, firstError });
}

function verify(expectedSeqs: number[]): void {
  const expected = new Set(expectedSeqs);
  const expectedIdx = expectedSeqs.map((s) => msgIndex.get(s) ?? -1);
  const steady: Histogram[] = windows.map(() => new Histogram(65_535));
  const dropped: Histogram[] = windows.map(() => new Histogram(65_535));
  for (const f of fans) {
    const into = f.droppedAt === null ? steady : dropped;
    for (let w = 0; w < windows.length; w++) for (let i = 0; i < f.sampleCounts[w]!; i++) into[w]!.add(f.samples[w]![i]!);
  }
  const sparse = (hs: Histogram[]) => Object.fromEntries(windows.map((w, i) => [w.name, hs[i]!.toSparse()]));
  const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
  send({
    type: 'report',
    report: {
      fans: fans.map((f) => f.outcome(expected, expectedSeqs, expectedIdx)),
      latency: { steady_fans: sparse(steady), dropped_fans: sparse(dropped) },
      loop_delay_ms: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
      late_by_second: [...lateBySecond],
    },
  });
}

process.on('message', (msg: ToFanWorker) => {
  switch (msg.type) {
    case 'init':
      partyId = msg.partyId;
      httpBase = msg.httpBase;
      windows = msg.windows;
      if (msg.tls) {
        const ca = Buffer.from(msg.tls.caPem);
        let session: Buffer | undefined;
        // One TLS session for every fan of the worker: a reconnect resumes it instead of a full handshake.
        tlsOptions = { secureContext: tls.createSecureContext({ ca }), connectHost: msg.tls.connectHost, onSession: (s) => (tlsOptions.session = session = s), session };
        agent = new https.Agent({ keepAlive: true, maxSockets: msg.httpConnections, ca });
      } else {
        agent = new http.Agent({ keepAlive: true, maxSockets: msg.httpConnections });
      }
      void connectAll(msg.fans, msg.concurrency);
      return;
    case 'connect':
      void connectAll(msg.fans, msg.concurrency);
      return;
    case 'windows':
      windows = msg.windows;
      for (const f of fans) {
        f.samples = windows.map(() => new Uint16Array(256));
        f.sampleCounts = windows.map(() => 0);
      }
      return;
    case 'verify':
      recent = [];
      verify(msg.expected);
      return;
    case 'exit':
      exiting = true;
      for (const f of fans) f.ws?.destroy();
      setTimeout(() => process.exit(0), 200);
      return;
  }
});
// Never outlive the orchestrator.
process.on('disconnect', () => process.exit(0));
