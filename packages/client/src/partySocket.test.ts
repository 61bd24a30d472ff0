import { describe, expect, it } from 'vitest';
import type { PlayerStatus, SequencedEvent } from '@fanfare/protocol';
import {
  CLOCK_BURST_INTERVAL_MS,
  CLOCK_BURST_SAMPLES,
  CLOCK_FILL_INTERVAL_MS,
  CLOCK_RTT_FACTOR,
  CLOCK_RTT_SLACK_MS,
  CLOCK_SAMPLES_KEPT,
  ClockOffsetEstimator,
  PartySocket,
  giveUpReason,
  heartbeatDelayMs,
  partySocketUrl,
  reconnectDelayMs,
  type SocketState,
  type Timers,
  type WebSocketLike,
} from './partySocket.ts';

/** A controllable WebSocket double. */
class FakeSocket implements WebSocketLike {
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(code?: number): void {
    this.closedWith = code ?? 1000;
    this.readyState = 3;
  }
  serverOpen(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverSend(data: unknown): void {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
  serverClose(code: number): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

/** Timers that only run when the test says so. */
class ManualTimers implements Timers {
  private next = 1;
  pending = new Map<number, { fn: () => void; ms: number }>();
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Runs the earliest-registered pending timer; returns its delay. */
  runNext(): number {
    const first = this.pending.entries().next();
    if (first.done) throw new Error('no pending timer');
    const [id, t] = first.value;
    this.pending.delete(id);
    t.fn();
    return t.ms;
  }
  /** Runs the earliest-registered pending timer of this delay; false when there is none. */
  runFirstOf(ms: number): boolean {
    const found = [...this.pending.entries()].find(([, t]) => t.ms === ms);
    if (!found) return false;
    this.pending.delete(found[0]);
    found[1].fn();
    return true;
  }
}

const status: PlayerStatus = {
  track: { id: 't1', name: 'One', artists: ['A'], album: 'Al', duration_ms: 180_000, image: null, service: 'umg_hls', hls_url: '/x.m3u8' },
  progress_ms: 1000,
  is_paused: false,
  timestamp_ms: 5000,
};

function setup(opts: { random?: () => number; now?: () => number; lastSeqId?: number } = {}) {
  FakeSocket.instances = [];
  const timers = new ManualTimers();
  const states: SocketState[] = [];
  const events: SequencedEvent[] = [];
  const socket = new PartySocket({
    baseUrl: 'http://127.0.0.1:8080',
    partyId: 'demo',
    accessToken: 'tok',
    WebSocket: FakeSocket,
    timers,
    random: opts.random ?? (() => 0),
    now: opts.now,
    lastSeqId: opts.lastSeqId,
    onState: (s) => states.push(s),
    onEvent: (e) => events.push(e),
  });
  socket.connect();
  const current = () => FakeSocket.instances[FakeSocket.instances.length - 1]!;
  return { socket, timers, states, events, current };
}

describe('reconnect delay rule: 0.4*(2^n-1) s plus up to 1 s jitter (spec 4)', () => {
  it('gives 0.4*(2^n-1) s without jitter', () => {
    expect(reconnectDelayMs(0, () => 0)).toBe(0);
    expect(reconnectDelayMs(1, () => 0)).toBe(400);
    expect(reconnectDelayMs(2, () => 0)).toBe(1200);
    expect(reconnectDelayMs(3, () => 0)).toBe(2800);
    expect(reconnectDelayMs(5, () => 0)).toBe(12_400);
  });
  it('adds at most 1 s of jitter', () => {
    expect(reconnectDelayMs(1, () => 0.999)).toBeCloseTo(1399, 0);
    expect(reconnectDelayMs(1, () => 0.5)).toBe(900);
  });
});

describe('heartbeat rule: a ping about every 20 s plus jitter (spec 4 and 9)', () => {
  it('waits 20 s plus a bounded random extra', () => {
    expect(heartbeatDelayMs(() => 0)).toBe(20_000);
    expect(heartbeatDelayMs(() => 0.999)).toBeLessThan(25_000);
  });
  it('sends the ping text when the heartbeat timer fires, then schedules the next one', () => {
    const { timers, current } = setup();
    current().serverOpen();
    // The opening clock burst runs out first; then only the heartbeat is left.
    for (let i = 1; i < CLOCK_BURST_SAMPLES; i++) expect(timers.runFirstOf(CLOCK_BURST_INTERVAL_MS)).toBe(true);
    const heartbeats = () => [...timers.pending.values()].filter((t) => t.ms >= 20_000).length;
    expect(heartbeats()).toBe(1);
    expect(timers.runFirstOf(20_000)).toBe(true);
    expect(current().sent).toContain('ping');
    expect(heartbeats()).toBe(1);
  });
  it('answers a server ping with pong', () => {
    const { current } = setup();
    current().serverOpen();
    current().serverSend('ping');
    expect(current().sent).toContain('pong');
  });
});

describe('retry cap rule: global error after more than 5 consecutive closes (spec 5 and 9)', () => {
  it('keeps reconnecting up to 5 failures and gives up on the 6th', () => {
    expect(giveUpReason(5, 1006)).toBeNull();
    expect(giveUpReason(6, 1006)).toBe('retry_cap_exceeded');
  });
  it('drives the state machine to error after the 6th consecutive close', () => {
    const { timers, states, current } = setup();
    for (let i = 1; i <= 5; i++) {
      current().serverClose(1006);
      expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', failures: i });
      expect(timers.runNext()).toBe(400 * (2 ** i - 1));
    }
    current().serverClose(1006);
    expect(states.at(-1)).toEqual({ kind: 'error', reason: 'retry_cap_exceeded', closeCode: 1006 });
    expect(timers.pending.size).toBe(0);
  });
  it('counts only consecutive closes: a working session resets the count', () => {
    const { timers, states, current } = setup();
    current().serverClose(1006);
    timers.runNext();
    current().serverClose(1006);
    timers.runNext();
    current().serverOpen();
    current().serverSend('pong');
    current().serverClose(1006);
    expect(states.at(-1)).toMatchObject({ kind: 'reconnecting', failures: 1 });
  });
});

describe('close code 1008 rule: policy violation goes straight to the global error (spec 5)', () => {
  it('does not reconnect after 1008', () => {
    const { timers, states, current } = setup();
    current().serverOpen();
    current().serverClose(1008);
    expect(states.at(-1)).toEqual({ kind: 'error', reason: 'policy_violation', closeCode: 1008 });
    expect(timers.pending.size).toBe(0);
  });
  it('names the rule for any failure count', () => {
    expect(giveUpReason(1, 1008)).toBe('policy_violation');
  });
});

describe('connection states: connecting, live, reconnecting, ended', () => {
  it('walks connecting → live → reconnecting → connecting → ended', () => {
    const { socket, timers, states, current } = setup();
    current().serverOpen();
    current().serverClose(1001);
    timers.runNext();
    socket.close();
    expect(states.map((s) => s.kind)).toEqual(['connecting', 'live', 'reconnecting', 'connecting', 'ended']);
    expect(timers.pending.size).toBe(0);
  });
  it('builds the socket URL on the same host with the access token (spec 7)', () => {
    expect(partySocketUrl('https://party.example/', 'demo', 'a b')).toBe('wss://party.example/api/parties/demo?access_token=a+b');
    expect(partySocketUrl('http://127.0.0.1:8080', 'p/1', 't')).toBe('ws://127.0.0.1:8080/api/parties/p%2F1?access_token=t');
  });

  it("carries the rest of the socket's query: the dashboard view of the hosts' aggregated stream", () => {
    expect(partySocketUrl('https://party.example', 'demo', 't', { view: 'dashboard' })).toBe('wss://party.example/api/parties/demo?access_token=t&view=dashboard');
  });
});

describe('resume rule: after a reconnect the client asks for events after its last seq_id', () => {
  it('sends resume with the last applied seq_id and applies each seq_id once', () => {
    const { timers, events, current } = setup();
    current().serverOpen();
    current().serverSend([{ type: 'hello', seq_id: 10, server_time_ms: 1, user_id: 'u', role: 'listener' }]);
    current().serverSend([{ type: 'queue_change', seq_id: 11, server_time_ms: 2, queue: ['a'] }]);
    current().serverClose(1006);
    timers.runNext();
    current().serverOpen();
    expect(current().sent[0]).toBe(JSON.stringify({ type: 'resume', last_seq_id: 11 }));
    // Replay overlaps with what we had: 11 is dropped, 12 applied.
    current().serverSend([
      { type: 'queue_change', seq_id: 11, server_time_ms: 2, queue: ['a'] },
      { type: 'track_change', seq_id: 12, server_time_ms: 3, status },
    ]);
    expect(events.map((e) => e.seq_id)).toEqual([11, 12]);
  });
  it('listening-party §4 resume: live events that arrive before the replay do not make the client drop the replay', () => {
    const { timers, events, current } = setup();
    current().serverOpen();
    current().serverSend([{ type: 'hello', seq_id: 10, server_time_ms: 1, user_id: 'u', role: 'listener' }]);
    current().serverClose(1006);
    timers.runNext();
    current().serverOpen();
    expect(JSON.parse(current().sent[0]!)).toEqual({ type: 'resume', last_seq_id: 10 });
    // The node says hello at 12, a live event goes out before the resume is read, then the replay.
    current().serverSend([{ type: 'hello', seq_id: 12, server_time_ms: 1, user_id: 'u', role: 'listener' }]);
    current().serverSend([{ type: 'queue_change', seq_id: 13, server_time_ms: 4, queue: ['c'] }]);
    current().serverSend([
      { type: 'queue_change', seq_id: 11, server_time_ms: 2, queue: ['a'] },
      { type: 'queue_change', seq_id: 12, server_time_ms: 3, queue: ['b'] },
      { type: 'queue_change', seq_id: 13, server_time_ms: 4, queue: ['c'] },
    ]);
    expect(events.map((e) => e.seq_id)).toEqual([13, 11, 12]);
  });
  it('resumes on the first connect when given the seq of the REST state', () => {
    const { current } = setup({ lastSeqId: 42 });
    current().serverOpen();
    expect(JSON.parse(current().sent[0]!)).toEqual({ type: 'resume', last_seq_id: 42 });
  });
  it('drops invalid events but keeps the valid ones of the same frame', () => {
    const { events, current } = setup();
    current().serverOpen();
    current().serverSend([{ type: 'nope', seq_id: 1 }, { type: 'queue_change', seq_id: 2, server_time_ms: 2, queue: [] }]);
    expect(events.map((e) => e.type)).toEqual(['queue_change']);
  });
});

describe('clock offset rule: estimated from time frames, offset = server - midpoint', () => {
  it('sends a time frame on open and takes the answer as a sample', () => {
    let clientNow = 1000;
    const { socket, current } = setup({ now: () => clientNow });
    current().serverOpen();
    expect(JSON.parse(current().sent.at(-1)!)).toEqual({ type: 'time', client_time_ms: 1000 });
    clientNow = 1100;
    current().serverSend([{ type: 'time', client_time_ms: 1000, server_time_ms: 6050 }]);
    expect(socket.clockOffsetMs).toBe(5000);
  });
  it('trusts the sample with the shortest round trip', () => {
    const est = new ClockOffsetEstimator();
    est.add({ sentMs: 0, receivedMs: 1000, serverMs: 900 }); // rtt 1000, offset 400
    est.add({ sentMs: 2000, receivedMs: 2020, serverMs: 2110 }); // rtt 20, offset 100
    est.add({ sentMs: 3000, receivedMs: 3500, serverMs: 3000 }); // rtt 500, offset -250
    expect(est.offsetMs).toBe(100);
  });
  it('is 0 before any sample', () => {
    expect(new ClockOffsetEstimator().offsetMs).toBe(0);
  });
  it(`averages the samples whose round trip is within CLOCK_RTT_FACTOR (${CLOCK_RTT_FACTOR}) x the shortest + ${CLOCK_RTT_SLACK_MS} ms (jitter either way cancels)`, () => {
    const est = new ClockOffsetEstimator();
    est.add({ sentMs: 0, receivedMs: 100, serverMs: 70 }); // rtt 100, offset 20 (slow way back)
    est.add({ sentMs: 1000, receivedMs: 1120, serverMs: 1040 }); // rtt 120, offset -20 (slow way out)
    est.add({ sentMs: 2000, receivedMs: 2300, serverMs: 2290 }); // rtt 300 (queued): left out
    expect(est.offsetMs).toBe(0);
  });
  it(`keeps the newest CLOCK_SAMPLES_KEPT (${CLOCK_SAMPLES_KEPT}) samples`, () => {
    const est = new ClockOffsetEstimator();
    est.add({ sentMs: 0, receivedMs: 2, serverMs: 1 + 500 }); // the fastest, offset 500, but oldest
    for (let i = 1; i <= CLOCK_SAMPLES_KEPT; i++) est.add({ sentMs: i * 1000, receivedMs: i * 1000 + 10, serverMs: i * 1000 + 5 });
    expect(est.sampleCount).toBe(CLOCK_SAMPLES_KEPT);
    expect(est.offsetMs).toBe(0);
  });
  it(`sends CLOCK_BURST_SAMPLES (${CLOCK_BURST_SAMPLES}) time frames, CLOCK_BURST_INTERVAL_MS apart, once the socket opens`, () => {
    const { timers, current } = setup();
    current().serverOpen();
    for (let i = 1; i < CLOCK_BURST_SAMPLES; i++) expect(timers.runFirstOf(CLOCK_BURST_INTERVAL_MS)).toBe(true);
    expect(timers.runFirstOf(CLOCK_BURST_INTERVAL_MS)).toBe(false);
    const times = current().sent.filter((t) => t.includes('"time"'));
    expect(times).toHaveLength(CLOCK_BURST_SAMPLES);
  });
  it(`then sends one every CLOCK_FILL_INTERVAL_MS (${CLOCK_FILL_INTERVAL_MS} ms) until CLOCK_SAMPLES_KEPT samples arrived, and stops`, () => {
    let clientNow = 0;
    const { socket, timers, current } = setup({ now: () => clientNow });
    current().serverOpen();
    const answer = () => {
      const last = JSON.parse(current().sent.filter((t) => t.includes('"time"')).at(-1)!) as { client_time_ms: number };
      clientNow += 10;
      current().serverSend([{ type: 'time', client_time_ms: last.client_time_ms, server_time_ms: last.client_time_ms + 5 }]);
    };
    answer();
    for (let i = 1; i < CLOCK_BURST_SAMPLES; i++) {
      timers.runFirstOf(CLOCK_BURST_INTERVAL_MS);
      answer();
    }
    const timeFrames = () => current().sent.filter((t) => t.includes('"time"')).length;
    for (let i = 0; i < 100 && timers.runFirstOf(CLOCK_FILL_INTERVAL_MS); i++) if (timeFrames() > CLOCK_BURST_SAMPLES + i) answer();
    expect(timeFrames()).toBe(CLOCK_SAMPLES_KEPT);
    expect(timers.runFirstOf(CLOCK_FILL_INTERVAL_MS)).toBe(false);
    expect(socket.clockOffsetMs).toBe(0);
  });
});

describe('effective source: the fan tells the server what they hear, again after every reconnect', () => {
  it('sends the source frame when live, and again first thing on the next connection', () => {
    const { socket, timers, current } = setup();
    // Reported before the socket is open: sent once it is.
    socket.reportSource({ source: 'label_stream', reason: 'free_tier' });
    expect(current().sent).toEqual([]);
    current().serverOpen();
    const frames = () => current().sent.filter((t) => t.startsWith('{')).map((t) => JSON.parse(t) as { type: string });
    expect(frames()).toContainEqual({ type: 'source', source: 'label_stream', reason: 'free_tier' });
    socket.reportSource({ source: 'preview', reason: 'free_tier' });
    expect(frames().at(-1)).toEqual({ type: 'source', source: 'preview', reason: 'free_tier' });
    current().serverClose(1006);
    timers.runNext();
    current().serverOpen();
    expect(frames().filter((f) => f.type === 'source')).toEqual([{ type: 'source', source: 'preview', reason: 'free_tier' }]);
  });
});
