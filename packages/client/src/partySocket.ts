/**
 * The party socket client (spec `listening-party.md`, sections 4 "Socket connection", 5 and 8),
 * for browsers and Node: pass the WebSocket constructor (`window.WebSocket`, or `ws`).
 *
 * The connection is a state machine the UI reads (`connecting` → `live` → `reconnecting` → ...,
 * ending in `ended` or `error` with a named reason), never a set of scattered booleans.
 */
import {
  CloseCode,
  PING_TEXT,
  PONG_TEXT,
  RECONNECT_RETRY_CAP,
  SOCKET_HEARTBEAT_MS,
  SOCKET_PATH,
  ServerEvent,
  isSequencedEvent,
  type ClientFrame,
  type SequencedEvent,
  type SourceFrame,
  type SourceReport,
  type SocketQuery,
  type ServerEvent as ServerEventT,
  type TimeEvent,
} from '@fanfare/protocol';

// ---------------------------------------------------------------------------------------------
// Rules (pure, unit-tested one by one)
// ---------------------------------------------------------------------------------------------

/** Largest random extra added to the heartbeat interval ("about 20 s plus jitter"). */
export const HEARTBEAT_JITTER_MS = 5_000;

/** Largest random extra added to a reconnect delay (spec 4: "plus up to 1 s jitter"). */
export const RECONNECT_JITTER_MS = 1_000;

/**
 * Delay before reconnect attempt after `failures` consecutive closes (spec 4):
 * 0.4 * (2^n - 1) seconds plus up to 1 s jitter. `random` returns a value in [0, 1).
 */
export function reconnectDelayMs(failures: number, random: () => number = Math.random): number {
  const n = Math.max(0, failures);
  return 400 * (2 ** n - 1) + random() * RECONNECT_JITTER_MS;
}

/** Delay until the next client `ping` (spec 4: roughly every 20 s plus jitter). */
export function heartbeatDelayMs(random: () => number = Math.random): number {
  return SOCKET_HEARTBEAT_MS + random() * HEARTBEAT_JITTER_MS;
}

/** Names of the reasons a socket stops for good. */
export const SOCKET_ERROR_REASONS = ['retry_cap_exceeded', 'policy_violation'] as const;
export type SocketErrorReason = (typeof SOCKET_ERROR_REASONS)[number];

/**
 * Whether a close ends the connection in the global error state (spec 5 and 8): close code 1008,
 * or MORE than `RECONNECT_RETRY_CAP` (5) consecutive closes. Null means: reconnect.
 */
export function giveUpReason(consecutiveFailures: number, closeCode: number): SocketErrorReason | null {
  if (closeCode === CloseCode.POLICY_VIOLATION) return 'policy_violation';
  if (consecutiveFailures > RECONNECT_RETRY_CAP) return 'retry_cap_exceeded';
  return null;
}

/** One clock-sync round trip: client send and receive times, and the server time in between. */
export interface ClockSample {
  sentMs: number;
  receivedMs: number;
  serverMs: number;
}

/** The clock offset one sample gives: server time minus the midpoint of the round trip. */
export function offsetFromSample(s: ClockSample): number {
  return s.serverMs - (s.sentMs + s.receivedMs) / 2;
}

/** Clock samples kept (the newest). */
export const CLOCK_SAMPLES_KEPT = 16;
/**
 * A sample counts when its round trip is within this factor (plus CLOCK_RTT_SLACK_MS) of the
 * shortest kept. One sample's error is at most rtt / 2 and comes from the two directions taking
 * different times; among round trips near the shortest, those differences go either way, so
 * averaging them beats trusting the single shortest (issue 16: on a link with 40-120 ms of
 * jitter each way, the shortest of 8 was off by up to ~22 ms at p95 in simulation, the mean of the
 * near-shortest of 16 by ~11 ms). Queued, slow samples stay out.
 */
export const CLOCK_RTT_FACTOR = 1.5;
export const CLOCK_RTT_SLACK_MS = 5;
/** Time frames sent right after the socket opens, this far apart, so a fan starts with several samples. */
export const CLOCK_BURST_SAMPLES = 6;
export const CLOCK_BURST_INTERVAL_MS = 250;
/**
 * After the burst, one time frame this often until CLOCK_SAMPLES_KEPT samples are held: quick
 * samples share one moment of the link, and on a jittery link (issue 16 bench) the burst alone
 * left the estimate 11-17 ms off until heartbeats a minute later brought it within 2 ms.
 */
export const CLOCK_FILL_INTERVAL_MS = 2_000;

/**
 * Estimates `serverNow - clientNow` from `time` frames. Keeps the last `size` samples and averages
 * the offsets of those whose round trip is near the shortest (CLOCK_RTT_FACTOR).
 */
export class ClockOffsetEstimator {
  private readonly samples: ClockSample[] = [];

  constructor(private readonly size = CLOCK_SAMPLES_KEPT) {}

  add(sample: ClockSample): void {
    if (sample.receivedMs < sample.sentMs) return;
    this.samples.push(sample);
    if (this.samples.length > this.size) this.samples.shift();
  }

  /** The best estimate in ms (0 until a sample arrived). */
  get offsetMs(): number {
    if (!this.samples.length) return 0;
    const rtt = (s: ClockSample) => s.receivedMs - s.sentMs;
    const limit = Math.min(...this.samples.map(rtt)) * CLOCK_RTT_FACTOR + CLOCK_RTT_SLACK_MS;
    const near = this.samples.filter((s) => rtt(s) <= limit);
    return near.reduce((sum, s) => sum + offsetFromSample(s), 0) / near.length;
  }

  get sampleCount(): number {
    return this.samples.length;
  }
}

/**
 * The socket URL for a party: `ws(s)://host/api/parties/{id}?access_token=...` (spec 7), with
 * the rest of its query (`SocketQuery`), e.g. `view: 'dashboard'` for the hosts' aggregated stream.
 */
export function partySocketUrl(baseUrl: string, partyId: string, accessToken: string, more: Omit<SocketQuery, 'access_token'> = {}): string {
  const url = new URL(baseUrl.replace(/\/$/, '') + SOCKET_PATH(partyId));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('access_token', accessToken);
  for (const [key, value] of Object.entries(more)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// State machine
// ---------------------------------------------------------------------------------------------

/** Where the connection is. The UI shows this; `error` is the app's global error state. */
export type SocketState =
  | { kind: 'idle' }
  | { kind: 'connecting'; attempt: number }
  | { kind: 'live' }
  | { kind: 'reconnecting'; failures: number; delayMs: number; closeCode: number }
  | { kind: 'ended'; reason: 'closed_by_client' }
  | { kind: 'error'; reason: SocketErrorReason; closeCode: number };

/** The subset of the WebSocket interface we use; both the browser's and `ws` provide it. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

/** Timer functions, injectable so tests drive time. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PartySocketOptions {
  /** Base URL of the party API (`http(s)://host`); the socket uses the same host. */
  baseUrl: string;
  partyId: string;
  accessToken: string;
  WebSocket: WebSocketCtor;
  /** Sequenced events, once each, in arrival order (replays after a resume included). */
  onEvent?: (event: SequencedEvent) => void;
  /** Control events (`hello`, `resync`, `time`, `error`). */
  onControl?: (event: Exclude<ServerEventT, SequencedEvent>) => void;
  onState?: (state: SocketState) => void;
  /** A frame or event that failed validation (dropped). */
  onInvalid?: (raw: unknown, problem: string) => void;
  /** The clock offset estimate changed. */
  onClockOffset?: (offsetMs: number) => void;
  /** Resume from here on the first connect (e.g. the seq of the state loaded over REST). */
  lastSeqId?: number | null;
  random?: () => number;
  now?: () => number;
  timers?: Timers;
}

const OPEN = 1;

/**
 * One party socket with heartbeat, reconnect with backoff, resume from the last `seq_id` and clock
 * offset estimation. All timers belong to the instance; `close()` tears everything down.
 */
export class PartySocket {
  private ws: WebSocketLike | null = null;
  private stateValue: SocketState = { kind: 'idle' };
  private failures = 0;
  private lastSeq: number | null;
  private resumed: number | null = null;
  /**
   * After a reconnect, the replay the `resume` asked for: events in (from, to], `to` being the
   * `hello`'s seq_id. Live events after `to` may arrive first; the replay still applies, once each.
   */
  private replay: { from: number; to: number } | null = null;
  private heartbeatTimer: unknown = null;
  private reconnectTimer: unknown = null;
  private burstTimer: unknown = null;
  private readonly clock = new ClockOffsetEstimator();
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly timers: Timers;

  constructor(private readonly opts: PartySocketOptions) {
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? (() => Date.now());
    this.timers = opts.timers ?? {
      setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
      clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
    };
    this.lastSeq = opts.lastSeqId ?? null;
  }

  get state(): SocketState {
    return this.stateValue;
  }

  private source: SourceFrame | null = null;

  /** Tells the server what the fan hears and why (issue 47): now, and again after every reconnect. */
  reportSource(report: SourceReport): void {
    this.source = { type: 'source', source: report.source, reason: report.reason };
    this.sendFrame(this.source);
  }

  /** The last `seq_id` applied; sent in `resume` after a reconnect. */
  get lastSeqId(): number | null {
    return this.lastSeq;
  }

  /**
   * The `seq_id` this connection resumed from (null for a first connection). Live events may
   * arrive before the server answers the `resume` with `resync`, so after a resync the gap starts
   * here, not at the newest event seen.
   */
  get resumedFromSeqId(): number | null {
    return this.resumed;
  }

  /** Estimated `serverNow - clientNow` in ms. */
  get clockOffsetMs(): number {
    return this.clock.offsetMs;
  }

  /** Consecutive closes since the last successful frame. */
  get consecutiveFailures(): number {
    return this.failures;
  }

  /** Opens the connection (no-op unless idle). */
  connect(): void {
    if (this.stateValue.kind !== 'idle') return;
    this.open();
  }

  /** Closes for good (the fan leaves, the party ended). */
  close(): void {
    this.clearTimers();
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      ws.onopen = null;
      try {
        ws.close(CloseCode.NORMAL, 'client closed');
      } catch {
        // Closing a socket that never opened may throw in some implementations.
      }
    }
    this.setState({ kind: 'ended', reason: 'closed_by_client' });
  }

  /** Sends a clock-sync request now (also sent on open and with every heartbeat). */
  syncClock(): void {
    this.sendFrame({ type: 'time', client_time_ms: this.now() });
  }

  private open(): void {
    this.setState({ kind: 'connecting', attempt: this.failures + 1 });
    const ws = new this.opts.WebSocket(partySocketUrl(this.opts.baseUrl, this.opts.partyId, this.opts.accessToken));
    this.ws = ws;
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.setState({ kind: 'live' });
      this.resumed = this.lastSeq;
      this.replay = null;
      if (this.lastSeq !== null) this.sendFrame({ type: 'resume', last_seq_id: this.lastSeq });
      if (this.source) this.sendFrame(this.source);
      this.syncClock();
      this.scheduleClockBurst(CLOCK_BURST_SAMPLES - 1);
      this.scheduleHeartbeat();
    };
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      this.handleMessage(ev.data);
    };
    ws.onerror = () => {
      // The close event follows and drives the reconnect.
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.handleClose(ev.code);
    };
  }

  private handleClose(code: number): void {
    this.clearTimers();
    this.failures += 1;
    const reason = giveUpReason(this.failures, code);
    if (reason) {
      this.setState({ kind: 'error', reason, closeCode: code });
      return;
    }
    const delayMs = reconnectDelayMs(this.failures, this.random);
    this.setState({ kind: 'reconnecting', failures: this.failures, delayMs, closeCode: code });
    this.reconnectTimer = this.timers.setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, delayMs);
  }

  private handleMessage(data: unknown): void {
    const text = typeof data === 'string' ? data : String(data);
    if (text === PING_TEXT) {
      this.markHealthy();
      this.sendText(PONG_TEXT);
      return;
    }
    if (text === PONG_TEXT) {
      this.markHealthy();
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.opts.onInvalid?.(text, 'not JSON');
      return;
    }
    if (!Array.isArray(json)) {
      this.opts.onInvalid?.(json, 'frame is not an array of events');
      return;
    }
    this.markHealthy();
    for (const raw of json) {
      const parsed = ServerEvent.safeParse(raw);
      if (!parsed.success) {
        this.opts.onInvalid?.(raw, parsed.error.message);
        continue;
      }
      this.dispatch(parsed.data);
    }
  }

  private dispatch(event: ServerEventT): void {
    if (isSequencedEvent(event)) {
      const r = this.replay;
      if (r && event.seq_id > r.from && event.seq_id <= r.to) {
        r.from = event.seq_id;
        if (r.from >= r.to) this.replay = null;
        this.opts.onEvent?.(event);
        if (this.lastSeq === null || event.seq_id > this.lastSeq) this.lastSeq = event.seq_id;
        return;
      }
      // Replays after a resume may repeat what we already applied: apply each seq_id once.
      if (this.lastSeq !== null && event.seq_id <= this.lastSeq) return;
      this.lastSeq = event.seq_id;
      this.opts.onEvent?.(event);
      return;
    }
    if (event.type === 'hello') {
      if (this.lastSeq === null) this.lastSeq = event.seq_id;
      else if (this.resumed !== null && event.seq_id > this.resumed) this.replay = { from: this.resumed, to: event.seq_id };
    } else if (event.type === 'resync') {
      this.replay = null;
      this.lastSeq = event.seq_id;
    } else if (event.type === 'time') {
      this.addClockSample(event);
    }
    this.opts.onControl?.(event);
  }

  private addClockSample(event: TimeEvent): void {
    this.clock.add({ sentMs: event.client_time_ms, receivedMs: this.now(), serverMs: event.server_time_ms });
    this.opts.onClockOffset?.(this.clock.offsetMs);
  }

  /** A valid frame arrived: the session works, so the consecutive-failure count starts over. */
  private markHealthy(): void {
    this.failures = 0;
  }

  /** The rest of the opening burst of clock samples, then slower ones until the estimator is full. */
  private scheduleClockBurst(left: number): void {
    this.burstTimer = this.timers.setTimeout(
      () => {
        this.burstTimer = null;
        if (left <= 0 && this.clock.sampleCount >= CLOCK_SAMPLES_KEPT) return;
        this.syncClock();
        this.scheduleClockBurst(left - 1);
      },
      left > 0 ? CLOCK_BURST_INTERVAL_MS : CLOCK_FILL_INTERVAL_MS,
    );
  }

  private scheduleHeartbeat(): void {
    this.heartbeatTimer = this.timers.setTimeout(() => {
      this.heartbeatTimer = null;
      this.sendText(PING_TEXT);
      this.syncClock();
      this.scheduleHeartbeat();
    }, heartbeatDelayMs(this.random));
  }

  private sendFrame(frame: ClientFrame): void {
    this.sendText(JSON.stringify(frame));
  }

  private sendText(text: string): void {
    if (this.ws && this.ws.readyState === OPEN) this.ws.send(text);
  }

  private clearTimers(): void {
    if (this.heartbeatTimer !== null) this.timers.clearTimeout(this.heartbeatTimer);
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    if (this.burstTimer !== null) this.timers.clearTimeout(this.burstTimer);
    this.heartbeatTimer = null;
    this.reconnectTimer = null;
    this.burstTimer = null;
  }

  private setState(state: SocketState): void {
    this.stateValue = state;
    this.opts.onState?.(state);
  }
}
