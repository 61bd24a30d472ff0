import {
  CloseCode,
  PING_TEXT,
  PRESENCE_WINDOW_MS,
  PONG_TEXT,
  parseClientMessage,
  type ControlEvent,
  type PlayerStatus,
  type Role,
  type SequencedEvent,
  type SocketErrorCode,
  type SourceCounts,
  type SourceReport,
  emptySourceCounts,
} from '@fanfare/protocol';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { HeartbeatSlices, heartbeatSliceCount } from './heartbeat.ts';
import { wireFrame, writeFrame, type WireFrame } from './wireFrame.ts';
import { inAudience, type Audience, type AudienceMember, type LoggedEvent, type PartyStream } from './hub.ts';
import { JoinStorm } from './joinStorm.ts';
import { BusyGauge } from '../platform/busyGauge.ts';
import { requestsInFlight } from '../platform/requestsInFlight.ts';

/** Hears fan sockets join and leave a party (after the token check; a leave follows each join). */
export interface SocketObserver {
  joined(partyId: string): void;
  left(partyId: string): void;
}

/** A socket the channel's rules let in: who it is (the audience key of targeted events) and its role. */
export interface Admission {
  member: AudienceMember;
  role: Role;
}

/**
 * What the sockets ask of the domain whose channels they carry (the party's: who may listen, what a
 * `resync` carries). The socket server itself knows nothing of parties, chat or votes.
 */
export interface ChannelRules {
  /** Checks a connecting socket's token for a channel: the admission, or the reason to close with 1008. */
  admit(channelId: string, token: string | undefined): Promise<Admission | string>;
  /** The state a `resync` carries, so the client reloads from it (null when it cannot be read). */
  snapshot(channelId: string): Promise<PlayerStatus | null>;
  /** Events after which the sockets that received them close with 1008 (e.g. every fan removed). */
  closesSockets(event: SequencedEvent): boolean;
}

/** Told of what the operator's metrics count (`platform/metrics.ts`); every call is cheap and synchronous. */
export interface SocketMetrics extends SocketObserver {
  frameWritten(): void;
  /** A socket was sent a frame of party events. */
  delivered(): void;
  /** A cycle sent a party's events up to `event` to every live socket of the node. */
  cycleDone(partyId: string, event: SequencedEvent): void;
  shed(): void;
  resumed(): void;
  resynced(): void;
}

/** What the socket server runs on, handed over by the composition root. */
export interface SocketDeps {
  hub: PartyStream;
  rules: ChannelRules;
  logger: Logger;
  /** Milliseconds since the epoch (the party clock, movable in tests). */
  now: () => number;
  metrics?: SocketMetrics;
}

/** Tunables of the party socket (see `platform/config.ts` for the variables that set them). */
export interface SocketOptions {
  /** Events of a party are collected this long, then sent as one frame. */
  batchMs: number;
  /**
   * The batch window while the node is busy (its event loop runs late, as in a reconnect storm):
   * fewer, larger frames leave time for the fans coming back. Defaults to `batchMs`.
   */
  busyBatchMs?: number;
  /**
   * The batch window, while the node takes a reconnect storm (`stormJoinsPerSecond` sockets within
   * a second), of the sockets that came in with it: the fans already back get fewer, fuller frames,
   * and the node's time goes to letting the others in. The sockets that were there before keep
   * their window: a cluster's survivor taking a peer's fans serves its own as before (decision
   * 0054). Default `busyBatchMs`.
   */
  stormBatchMs?: number;
  /** Sockets arriving within a second that make a storm (default JOIN_STORM.perSecond). */
  stormJoinsPerSecond?: number;
  /** Sockets a party's cycle writes to per turn of the event loop at most (see `PartyChannel`). */
  sweepChunk: number;
  /** Milliseconds of writes after which a cycle's turn ends while a request is under way (decision 0035). */
  sweepBudgetMs: number;
  /** The server pings every socket this often; a socket silent for 3 intervals is closed. */
  heartbeatMs: number;
  /** A socket whose unsent bytes stay above this for `slowGraceMs` is shed. */
  sendBufferSoftBytes: number;
  /** A socket whose unsent bytes exceed this is shed at once. */
  sendBufferHardBytes: number;
  slowGraceMs: number;
  /** Inbound frames per second a socket may send (burst: twice that). */
  inboundPerSecond: number;
  /** Open sockets one member may hold on this node; more are closed with 1008. */
  maxSocketsPerMember: number;
  /** A `resume` missing more events than this, or more bytes, gets `resync` instead of a replay. */
  resumeMaxEvents: number;
  resumeMaxBytes: number;
  /** One replay per socket in this window: a resume is a reconnect's, not a way to pull the log. */
  resumeWindowMs: number;
  /** Listener counts are sent at most this often (default PRESENCE_WINDOW_MS). */
  presenceWindowMs?: number;
}

/**
 * A 50 ms timer running 40 ms late three times within a second marks the node busy, for 2 s after
 * the last such run. A saturated loop is late on every tick; one pause (a garbage collection, a
 * moment without a core on a shared machine) is not busy (decision 0055).
 */
const BUSY_GAUGE = { periodMs: 50, lateMs: 40, lateTicksToTrip: 3, withinMs: 1_000, holdMs: 2_000 };
/** 200 sockets arriving within a second is a reconnect storm, until 2 s after the last such second. */
export const JOIN_STORM = { perSecond: 200, holdMs: 2_000 };

/** Events per frame when replaying history after a `resume`. */
const REPLAY_FRAME_EVENTS = 500;
/** A shed or closing socket that does not finish the close handshake is dropped after this. */
const CLOSE_GRACE_MS = 5_000;
/** A party channel without sockets keeps its subscription this long (reconnect storms). */
const CHANNEL_IDLE_MS = 10_000;

/** WebSocket.OPEN (a constant; read once rather than through each socket's prototype). */
const OPEN = 1;
/** The server's text ping, framed once for every socket. */
const PING_FRAME = wireFrame(Buffer.from(PING_TEXT));

/** A drain closes a slice of the node's sockets this often. */
const DRAIN_TICK_MS = 50;
/** A drain ends within this, whatever the rate: the process exits 10 s after SIGTERM (main.ts). */
export const DRAIN_MAX_MS = 5_000;

/**
 * How a drain closes `sockets` at `perSecond`: in `ticks` slices of `perTick`, DRAIN_TICK_MS
 * apart, never longer than DRAIN_MAX_MS. A rate of 0 closes them all at once.
 */
export function drainPace(sockets: number, perSecond: number): { ticks: number; perTick: number } {
  if (perSecond <= 0 || sockets === 0) return { ticks: 1, perTick: sockets };
  const windowMs = Math.min(DRAIN_MAX_MS, (sockets / perSecond) * 1000);
  const perTick = Math.ceil(sockets / Math.max(1, Math.ceil(windowMs / DRAIN_TICK_MS)));
  return { ticks: Math.ceil(sockets / perTick), perTick };
}

/** Liveness, rate limits and shedding use a monotonic clock: the party clock may be moved in tests. */
const mono = (): number => performance.now();
/** A cycle reads the clock once per this many sockets, to end its turn when the budget is spent. */
const BUDGET_CHECK_EVERY = 32;

type SocketState = 'authenticating' | 'catching_up' | 'live' | 'closed';

/**
 * @fastify/websocket routes the upgrade through Fastify with a ServerResponse attached to the TCP
 * socket (`socket._httpMessage`), which then holds it and its request (headers, URL with the
 * token) for the socket's whole life. Nothing answers over HTTP after the upgrade: detach it.
 */
function releaseUpgradeResponse(tcp: Socket): void {
  const res = (tcp as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (res && typeof res.detachSocket === 'function') res.detachSocket(tcp);
}

/** One fan's connection. */
class FanSocket {
  state: SocketState = 'authenticating';
  fan: AudienceMember | null = null;
  role: Role = 'listener';
  lastSeenMs: number;
  /** The socket has every event up to this seq_id (sent, or the client said it has them). */
  skipThrough = 0;
  /** Frames received before the token was checked (null until one arrives: most sockets send none). */
  early: string[] | null = null;
  overSoftSince: number | null = null;
  tokens: number;
  tokensAt: number;
  lastRateErrorMs = 0;
  /** When this socket last resumed (monotonic ms): the replay budget's window. */
  resumedAt = -Infinity;
  /** The channel that counts this socket's fan among its listeners (from joining until closed). */
  countedIn: PartyChannel | null = null;
  /** What the fan hears on this connection, as its app last reported (a `source` frame), and when (monotonic ms). */
  source: SourceReport | null = null;
  sourceAt = 0;
  /** The reconnect storm this socket came in with (`JoinStorm.episode`), 0 for none: while it lasts, a batch per `stormBatchMs` (decision 0054). */
  stormEpisode = 0;
  /** When this socket was last written a batch of the party's events (monotonic ms). */
  batchSentAt = -Infinity;

  constructor(
    readonly ws: WebSocket,
    /** The connection's TCP socket, as the upgrade request gave it: frames are written to it. */
    readonly tcp: Socket,
    now: number,
    burst: number,
    /** The heartbeat tick this socket is pinged on. */
    readonly beatSlot: number,
  ) {
    this.lastSeenMs = now;
    this.tokens = burst;
    this.tokensAt = now;
  }
}

/**
 * The sockets of one party on this node, fed by one hub subscription.
 *
 * Events go to the sockets in cycles: a cycle visits every socket, at most `sweepChunk` sockets per
 * turn of the event loop (and `sweepBudgetMs` while a request is under way; the server reads its
 * requests between turns), and sends each socket, in one frame, every event after the last one it
 * was sent, up to the newest this node has. A socket late in a cycle so gets what arrived while the
 * cycle was under way, not one cycle later (issue 16: at 10,000 fans a cycle takes 150-250 ms). A
 * new cycle starts at most once per `batchMs`: an event after a quiet spell goes out at once, a busy
 * party's events gather for the window.
 */
class PartyChannel {
  readonly sockets = new Set<FanSocket>();
  lastDelivered = 0;
  private lastCycleAt = -Infinity;
  /** Events some socket has not been sent yet, in seq_id order (trimmed after each cycle). */
  private log: LoggedEvent[] = [];
  private cycleTimer: NodeJS.Timeout | null = null;
  /** The cycle under way, chunk by chunk (`continueCycle`). */
  private cycle: Cycle | null = null;
  private readonly unsubscribe: () => void;
  readonly ready: Promise<void>;
  idleTimer: NodeJS.Timeout | null = null;
  /** The listener count last sent (issue 15: sent per window when it changed, never per join). */
  sentListeners = -1;

  /** Live sockets per fan: the listener count is its size, kept as sockets join and close (a storm of joins stays linear). */
  private readonly liveByFan = new Map<string, number>();

  /** Distinct fans with a live socket here (a fan with two tabs counts once). */
  listenerCount(): number {
    return this.liveByFan.size;
  }

  /** Counts `s`'s fan among the listeners: it joined. */
  countIn(s: FanSocket): void {
    if (s.countedIn || !s.fan) return;
    s.countedIn = this;
    this.liveByFan.set(s.fan.id, (this.liveByFan.get(s.fan.id) ?? 0) + 1);
  }

  /** `s` closed: its fan counts no more unless another of their sockets is live here. */
  countOut(s: FanSocket): void {
    if (s.countedIn !== this || !s.fan) return;
    s.countedIn = null;
    const left = (this.liveByFan.get(s.fan.id) ?? 1) - 1;
    if (left > 0) this.liveByFan.set(s.fan.id, left);
    else this.liveByFan.delete(s.fan.id);
  }

  /**
   * Distinct fans with a live socket here by effective source: a fan with two tabs counts once,
   * with the source its newest report named (`unknown` until one arrives).
   */
  sourceCounts(): SourceCounts {
    const newest = new Map<string, FanSocket>();
    for (const s of this.sockets) {
      if (!s.fan || s.state === 'closed') continue;
      const seen = newest.get(s.fan.id);
      if (!seen || s.sourceAt > seen.sourceAt) newest.set(s.fan.id, s);
    }
    const counts = emptySourceCounts();
    for (const s of newest.values()) counts[s.source?.source ?? 'unknown'] += 1;
    return counts;
  }

  constructor(
    private readonly server: PartySocketServer,
    readonly partyId: string,
  ) {
    const hub = server.deps.hub;
    this.unsubscribe = hub.subscribe(partyId, (event, audience, json) => this.onEvent({ event, audience, json }));
    this.ready = hub.ready(partyId).then((head) => {
      this.lastDelivered = Math.max(this.lastDelivered, head);
    });
  }

  private onEvent(item: LoggedEvent): void {
    if (item.event.seq_id <= this.lastDelivered) return;
    this.lastDelivered = item.event.seq_id;
    this.log.push(item);
    this.kick();
  }

  /** Schedules a cycle (paced by the batch window) unless one is under way or scheduled. */
  kick(): void {
    if (this.cycle || this.cycleTimer) return;
    const { batchMs, busyBatchMs = batchMs } = this.server.options;
    const windowMs = this.server.load.busy ? busyBatchMs : batchMs;
    const wait = Math.max(0, this.lastCycleAt + windowMs - mono());
    this.cycleTimer = setTimeout(() => this.startCycle(this.server.options.sweepChunk), wait);
  }

  private startCycle(chunk: number, budgetMs?: number): void {
    if (this.cycleTimer) clearTimeout(this.cycleTimer);
    this.cycleTimer = null;
    if (this.cycle || this.log.length === 0) return;
    this.lastCycleAt = mono();
    this.cycle = new Cycle([...this.sockets]);
    this.continueCycle(this.cycle, chunk, budgetMs);
  }

  /** Sends what is pending to every live socket now, in one go (shutdown). */
  flushNow(): void {
    if (this.cycle) this.continueCycle(this.cycle, Infinity, Infinity);
    this.startCycle(Infinity, Infinity);
  }

  /**
   * Visits the cycle's next sockets, at most `chunk` of them and for at most `budgetMs`, and the
   * rest in later turns of the event loop.
   */
  private continueCycle(cycle: Cycle, chunk: number, budgetMs = this.server.options.sweepBudgetMs): void {
    if (this.cycle !== cycle) return;
    const end = Math.min(cycle.targets.length, cycle.next + chunk);
    // The frames are made again only when events arrived since the last chunk (none arrives while
    // a chunk is written). `now` (for send-buffer shedding) is read once per chunk.
    const now = mono();
    const deadline = now + budgetMs;
    if (cycle.frames?.lastSeq !== this.lastDelivered) cycle.frames = new ChunkFrames(this.log, this.server.deps.rules.closesSockets);
    const frames = cycle.frames;
    const storm = this.server.stormUnderWay();
    let i = cycle.next;
    while (i < end) {
      this.deliver(frames, cycle.targets[i]!, now, storm);
      // Decision 0018: while a request is under way (waiting on a database round trip, say) a turn
      // ends when its budget is spent, so the request waits milliseconds for the loop, not a chunk.
      if (++i % BUDGET_CHECK_EVERY === 0 && requestsInFlight() > 0 && mono() >= deadline) break;
    }
    cycle.next = i;
    if (i < cycle.targets.length) {
      setImmediate(() => this.continueCycle(cycle, this.server.options.sweepChunk));
      return;
    }
    this.cycle = null;
    if (this.log.length > 0) this.server.deps.metrics?.cycleDone(this.partyId, this.log[this.log.length - 1]!.event);
    if (this.trim()) this.kick();
  }

  /**
   * Sends `s` the events after the last one it was sent (those of its audience), in one frame. A
   * socket that came in with the storm under way waits its `gapMs` between frames; the events wait
   * for it in the log (`trim`).
   */
  private deliver(frames: ChunkFrames, s: FanSocket, now: number, storm: StormUnderWay | null): void {
    if (s.state !== 'live' || !s.fan || s.skipThrough >= frames.lastSeq) return;
    if (storm && s.stormEpisode === storm.episode && now - s.batchSentAt < storm.gapMs) return;
    const frame = frames.after(s.skipThrough, s.fan);
    s.skipThrough = frames.lastSeq;
    if (!frame) return;
    s.batchSentAt = now;
    this.server.sendFrame(s, frame.wire, now);
    this.server.deps.metrics?.delivered();
    // DELETE /api/parties/{id}/users removed every fan: their sockets close with 1008 after the news.
    if (frame.clearsUsers) this.server.closeSocket(s, CloseCode.POLICY_VIOLATION, 'removed from the party');
  }

  /**
   * Drops the events every socket has been sent (or is past); true when a live socket still lacks
   * some. A socket catching up holds the events after its place until it is live again.
   */
  private trim(): boolean {
    let min = this.lastDelivered;
    let behind = false;
    for (const s of this.sockets) {
      if (s.state === 'closed') continue;
      if (s.skipThrough < min) min = s.skipThrough;
      if (s.state === 'live' && s.skipThrough < this.lastDelivered) behind = true;
    }
    const keepFrom = firstAfter(this.log, min);
    if (keepFrom > 0) this.log = this.log.slice(keepFrom);
    return behind;
  }

  close(): void {
    if (this.cycleTimer) clearTimeout(this.cycleTimer);
    this.cycle = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.unsubscribe();
  }
}

/** A reconnect storm under way (`PartySocketServer.stormUnderWay`). */
interface StormUnderWay {
  episode: number;
  gapMs: number;
}

/** One pass over a party's sockets: those it had when the pass began (later ones join the next). */
class Cycle {
  /** Index in `targets` of the next socket to visit. */
  next = 0;
  /** The frames of the last chunk, kept while no new event arrives. */
  frames: ChunkFrames | null = null;
  constructor(readonly targets: FanSocket[]) {}
}

/** A frame for sockets of a chunk, and whether it removes the socket's fan from the party. */
interface ChunkFrame {
  wire: WireFrame;
  clearsUsers: boolean;
}

/** Index of the first event after `seq` in `log` (ordered by seq_id). */
function firstAfter(log: LoggedEvent[], seq: number): number {
  let lo = 0;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid]!.event.seq_id <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The frames of a cycle's chunks up to `lastSeq`: sockets sent through the same seq_id share one
 * frame (one serialization), and with targeted events, the sockets of the same audience too.
 */
class ChunkFrames {
  readonly lastSeq: number;
  private readonly byStart = new Map<number, { events: LoggedEvent[]; targeted: boolean; shared?: ChunkFrame | null; byMask?: Map<string, ChunkFrame | null> }>();

  constructor(
    private readonly log: LoggedEvent[],
    private readonly closesSockets: (event: SequencedEvent) => boolean,
  ) {
    this.lastSeq = log.length ? log[log.length - 1]!.event.seq_id : 0;
  }

  after(seq: number, fan: AudienceMember): ChunkFrame | null {
    let entry = this.byStart.get(seq);
    if (!entry) {
      const events = this.log.slice(firstAfter(this.log, seq));
      entry = { events, targeted: events.some((e) => e.audience !== undefined) };
      this.byStart.set(seq, entry);
    }
    if (!entry.targeted) {
      if (entry.shared === undefined) entry.shared = chunkFrame(entry.events, this.closesSockets);
      return entry.shared;
    }
    const mask = entry.events.map((e) => (inAudience(e.audience, fan) ? '1' : '0')).join('');
    entry.byMask ??= new Map();
    let frame = entry.byMask.get(mask);
    if (frame === undefined) {
      frame = chunkFrame(entry.events.filter((_, i) => mask[i] === '1'), this.closesSockets);
      entry.byMask.set(mask, frame);
    }
    return frame;
  }
}

function chunkFrame(events: LoggedEvent[], closesSockets: (event: SequencedEvent) => boolean): ChunkFrame | null {
  if (events.length === 0) return null;
  return { wire: frameOf(events.map((e) => e.json)), clearsUsers: events.some((e) => closesSockets(e.event)) };
}

function frameOf(jsons: string[]): WireFrame {
  return wireFrame(Buffer.from(`[${jsons.join(',')}]`));
}

function controlFrame(events: ControlEvent[]): WireFrame {
  return wireFrame(Buffer.from(JSON.stringify(events)));
}

/**
 * The party socket of spec section 4: `/api/parties/{id}?access_token=...`. Authenticates the fan
 * (1008 otherwise), sends `hello`, batches the party's events per channel, replays missed events
 * on `resume` (or sends `resync` when they are gone), answers `time` and `ping`, pings idle
 * sockets and drops dead ones, sheds sockets whose send buffer stays full, and answers invalid
 * frames with a named `error`.
 */
export class PartySocketServer {
  private readonly channels = new Map<string, PartyChannel>();
  /** Each fan's sockets on this node (the per-fan cap, MAX_SOCKETS_PER_FAN). */
  private readonly socketsByFan = new Map<string, Set<FanSocket>>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly beatSlices: HeartbeatSlices;
  private readonly presenceTimer: NodeJS.Timeout;
  private closing = false;
  /** Set by `drain`: new sockets are turned away while the open ones leave. */
  draining = false;
  /** Whether the event loop runs late (see `busyBatchMs`). */
  readonly load = new BusyGauge(BUSY_GAUGE);
  /** Whether a reconnect storm is coming in (see `stormBatchMs`). */
  readonly storm: JoinStorm;

  constructor(
    readonly deps: SocketDeps,
    readonly options: SocketOptions,
  ) {
    this.load.start();
    this.storm = new JoinStorm({ ...JOIN_STORM, perSecond: options.stormJoinsPerSecond ?? JOIN_STORM.perSecond });
    // Pings go out in slices over the interval, never to every socket at once (issue 16).
    this.beatSlices = new HeartbeatSlices(heartbeatSliceCount(options.heartbeatMs));
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs / this.beatSlices.slices);
    this.heartbeat.unref();
    this.presenceTimer = setInterval(() => this.sendPresence(), options.presenceWindowMs ?? PRESENCE_WINDOW_MS);
    this.presenceTimer.unref();
  }

  /**
   * Sends each party's listener count when it changed since the last window (issue 15): one
   * frame per fan per window however many fans joined or left.
   */
  sendPresence(): void {
    for (const c of this.channels.values()) {
      const listeners = c.listenerCount();
      if (listeners === c.sentListeners) continue;
      c.sentListeners = listeners;
      const frame = controlFrame([{ type: 'presence', listeners }]);
      const now = mono();
      for (const s of c.sockets) if (s.state === 'live') this.sendFrame(s, frame, now);
    }
  }

  /** Sends a control event (reactions) to every live socket of a party on this node. */
  broadcastControl(partyId: string, event: ControlEvent): void {
    const channel = this.channels.get(partyId);
    if (!channel) return;
    const frame = controlFrame([event]);
    const now = mono();
    for (const s of channel.sockets) if (s.state === 'live') this.sendFrame(s, frame, now);
  }

  /** Told of every fan socket that joins or leaves a party on this node (issue 14: the dashboard's figures). */
  observer: SocketObserver | null = null;

  /** Distinct fans with a live socket to the party on this node. */
  listenersOf(partyId: string): number {
    return this.channels.get(partyId)?.listenerCount() ?? 0;
  }

  /** The party's listeners on this node by effective source (issue 47: the dashboard's figures). */
  sourcesOf(partyId: string): SourceCounts {
    return this.channels.get(partyId)?.sourceCounts() ?? emptySourceCounts();
  }

  /** Parties with at least one fan socket on this node. */
  partiesWithSockets(): string[] {
    const ids: string[] = [];
    for (const [id, c] of this.channels) if (c.sockets.size > 0) ids.push(id);
    return ids;
  }

  /** The storm coming in, if one is, and the milliseconds between the batches of the sockets that came with it. */
  stormUnderWay(): StormUnderWay | null {
    if (!this.storm.active) return null;
    return { episode: this.storm.episode, gapMs: this.options.stormBatchMs ?? this.options.busyBatchMs ?? this.options.batchMs };
  }

  /** Number of open fan sockets on this node (for tests and metrics). */
  get socketCount(): number {
    let n = 0;
    for (const c of this.channels.values()) n += c.sockets.size;
    return n;
  }

  /** Takes a freshly upgraded socket; everything after happens through its events. */
  accept(ws: WebSocket, tcp: Socket, partyId: string, token: string | undefined): void {
    const s = new FanSocket(ws, tcp, mono(), this.options.inboundPerSecond * 2, this.beatSlices.assign());
    this.storm.joined();
    // Only this storm: a socket that came with an earlier one (the first connects) is long settled.
    if (this.storm.active) s.stormEpisode = this.storm.episode;
    // @fastify/websocket's own 'error' listener holds the upgrade's request and reply (headers,
    // logger, response object: kilobytes per socket, for the socket's whole life). Ours below
    // handles errors; dropping it lets them be collected (issue 16: memory per idle connection).
    ws.removeAllListeners('error');
    releaseUpgradeResponse(tcp);
    ws.on('message', (data, isBinary) => {
      s.lastSeenMs = mono();
      if (isBinary) return this.sendError(s, 'invalid_frame', 'Binary frames are not accepted');
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      if (s.state === 'authenticating') {
        s.early ??= [];
        if (s.early.length < 32) s.early.push(text);
        return;
      }
      this.onText(s, partyId, text);
    });
    ws.on('pong', () => {
      s.lastSeenMs = mono();
    });
    ws.on('close', () => this.detach(s, partyId));
    ws.on('error', () => this.detach(s, partyId));
    if (this.closing || this.draining) return this.closeSocket(s, CloseCode.SERVER_SHUTDOWN, 'server shutting down');
    this.authenticate(s, partyId, token).catch((err: unknown) => {
      this.deps.logger.error({ err, partyId }, 'socket authentication failed');
      this.closeSocket(s, CloseCode.SERVER_SHUTDOWN, 'server error');
    });
  }

  private async authenticate(s: FanSocket, partyId: string, token: string | undefined): Promise<void> {
    // Guards the party's event stream: the channel's rules decide who may listen.
    const admission = await this.deps.rules.admit(partyId, token);
    if (typeof admission === 'string') return this.closeSocket(s, CloseCode.POLICY_VIOLATION, admission);
    const fan = admission.member;
    s.role = admission.role;
    if (s.state === 'closed') return;
    // A handful of tabs per fan, not hundreds: each socket costs memory and a share of every frame.
    if (!this.bookSocket(fan.id, s)) {
      return this.closeSocket(s, CloseCode.POLICY_VIOLATION, 'too many open connections for this fan');
    }
    s.fan = fan;

    const channel = this.channelFor(partyId);
    await channel.ready;
    if (this.isClosed(s)) return;
    channel.sockets.add(s);
    channel.countIn(s);
    if (channel.idleTimer) {
      clearTimeout(channel.idleTimer);
      channel.idleTimer = null;
    }
    s.state = 'live';
    this.observer?.joined(partyId);
    this.deps.metrics?.joined(partyId);
    // Events up to here may still sit in the channel's unsent batch: this fan starts after them.
    s.skipThrough = channel.lastDelivered;
    // The newcomer hears the count at once; everyone else with the next presence window.
    this.sendFrame(s, controlFrame([
      { type: 'hello', seq_id: channel.lastDelivered, server_time_ms: this.deps.now(), user_id: fan.id, role: s.role },
      { type: 'presence', listeners: channel.listenerCount() },
    ]));
    const early = s.early;
    s.early = null;
    for (const text of early ?? []) this.onText(s, partyId, text);
  }

  /**
   * Counts the fan's sockets on this node that are open or being opened, and books `s` among them
   * when there is room: synchronous, so parallel connects cannot all slip under the cap.
   */
  private bookSocket(fanId: string, s: FanSocket): boolean {
    const mine = this.socketsByFan.get(fanId) ?? new Set<FanSocket>();
    for (const other of mine) if (other.state === 'closed') mine.delete(other);
    if (mine.size >= this.options.maxSocketsPerMember) return false;
    mine.add(s);
    this.socketsByFan.set(fanId, mine);
    return true;
  }

  // The state changes while we await: read it through a call so the checks are not narrowed away.
  private isClosed(s: FanSocket): boolean {
    return s.state === 'closed';
  }

  private onText(s: FanSocket, partyId: string, text: string): void {
    if (s.state === 'closed') return;
    if (!this.takeToken(s)) {
      const now = mono();
      if (now - s.lastRateErrorMs >= 1000) {
        s.lastRateErrorMs = now;
        this.sendError(s, 'rate_limited', `At most ${this.options.inboundPerSecond} frames per second`);
      }
      return;
    }
    const msg = parseClientMessage(text);
    switch (msg.kind) {
      case 'ping':
        if (s.ws.readyState === s.ws.OPEN) s.ws.send(PONG_TEXT);
        return;
      case 'pong':
        return;
      case 'error':
        return this.sendError(s, msg.code, msg.message);
      case 'frame':
        if (msg.frame.type === 'time') {
          return this.sendFrame(s, controlFrame([{ type: 'time', client_time_ms: msg.frame.client_time_ms, server_time_ms: this.deps.now() }]));
        }
        if (msg.frame.type === 'source') {
          // Kept on the connection only: it ends with it, and a reconnect reports again.
          s.source = { source: msg.frame.source, reason: msg.frame.reason };
          s.sourceAt = mono();
          return;
        }
        this.resume(s, partyId, msg.frame.last_seq_id).catch((err: unknown) => {
          this.deps.logger.error({ err, partyId }, 'resume failed');
          this.closeSocket(s, CloseCode.SERVER_SHUTDOWN, 'server error');
        });
    }
  }

  /**
   * Replays what the client missed after `lastSeq`: retained events up to the point where this
   * socket joined the live stream, then the live events that arrived meanwhile, each once and in
   * order. Events already dropped from the retained window give `resync` with a fresh status.
   */
  private async resume(s: FanSocket, partyId: string, lastSeq: number): Promise<void> {
    const channel = this.channels.get(partyId);
    if (!channel || s.state !== 'live') return;
    // The replay budget: a client resumes once per connection; repeating it would pull the whole
    // retained log again and again (a few frames could then fill a node's uplink).
    const now = mono();
    if (now - s.resumedAt < this.options.resumeWindowMs) {
      return this.sendError(s, 'rate_limited', `One resume per ${Math.ceil(this.options.resumeWindowMs / 1000)} s on a connection; reload over REST`);
    }
    s.resumedAt = now;
    const joinedAt = channel.lastDelivered;
    if (lastSeq >= joinedAt) {
      // The client is as far as this node, or ahead of it (another node delivered sooner).
      if (lastSeq > joinedAt && lastSeq > (await this.deps.hub.head(partyId))) return this.resync(s, partyId, channel);
      s.skipThrough = Math.max(s.skipThrough, lastSeq);
      return;
    }
    s.state = 'catching_up';
    const history = await this.deps.hub.history(partyId, lastSeq);
    if (s.state !== 'catching_up') return;
    if (!history.complete || !this.withinReplayBudget(history.events)) return this.resync(s, partyId, channel);
    const replay = history.events.filter((e) => e.event.seq_id <= joinedAt && inAudience(e.audience, s.fan!));
    for (let i = 0; i < replay.length; i += REPLAY_FRAME_EVENTS) {
      this.sendFrame(s, frameOf(replay.slice(i, i + REPLAY_FRAME_EVENTS).map((e) => e.json)));
    }
    this.deps.metrics?.resumed();
    this.finishCatchUp(s, channel, joinedAt);
  }

  /** A fan this far behind reloads over REST (`resync`) instead: one snapshot, not megabytes. */
  private withinReplayBudget(events: LoggedEvent[]): boolean {
    if (events.length > this.options.resumeMaxEvents) return false;
    let bytes = 0;
    for (const e of events) if ((bytes += e.json.length) > this.options.resumeMaxBytes) return false;
    return true;
  }

  private async resync(s: FanSocket, partyId: string, channel: PartyChannel): Promise<void> {
    s.state = 'catching_up';
    const status = await this.deps.rules.snapshot(partyId).catch(() => null);
    if (s.state !== 'catching_up') return;
    // The client reloads its state over REST and applies the events after this seq_id; what
    // arrived while the status was read is in that state already.
    const through = channel.lastDelivered;
    this.sendFrame(s, controlFrame([{ type: 'resync', reason: 'missed_events', seq_id: through, status }]));
    this.deps.metrics?.resynced();
    this.finishCatchUp(s, channel, through);
  }

  /**
   * The socket has every event up to `through`: it is live again, and what arrived during the
   * catch-up (held in the channel's log meanwhile) goes out with the channel's next cycle.
   */
  private finishCatchUp(s: FanSocket, channel: PartyChannel, through: number): void {
    s.state = 'live';
    s.skipThrough = Math.max(s.skipThrough, through);
    if (s.skipThrough < channel.lastDelivered) channel.kick();
  }

  /** Writes a frame, shedding the socket if its send buffer stays full. */
  sendFrame(s: FanSocket, frame: WireFrame, now = mono()): void {
    const ws = s.ws;
    if (s.state === 'closed' || ws.readyState !== OPEN) return;
    const buffered = ws.bufferedAmount;
    if (buffered > this.options.sendBufferSoftBytes) {
      s.overSoftSince ??= now;
      if (buffered > this.options.sendBufferHardBytes || now - s.overSoftSince >= this.options.slowGraceMs) {
        this.deps.metrics?.shed();
        return this.closeSocket(s, CloseCode.SLOW_CONSUMER, 'send buffer full: reconnect and resume');
      }
    } else {
      s.overSoftSince = null;
    }
    writeFrame(s.tcp, frame);
    this.deps.metrics?.frameWritten();
  }

  private sendError(s: FanSocket, code: SocketErrorCode, message: string): void {
    this.sendFrame(s, controlFrame([{ type: 'error', code, message }]));
  }

  private takeToken(s: FanSocket): boolean {
    const now = mono();
    const burst = this.options.inboundPerSecond * 2;
    s.tokens = Math.min(burst, s.tokens + ((now - s.tokensAt) / 1000) * this.options.inboundPerSecond);
    s.tokensAt = now;
    if (s.tokens < 1) return false;
    s.tokens -= 1;
    return true;
  }

  /** Closes with a code and reason; a peer that does not answer the close is dropped later. */
  closeSocket(s: FanSocket, code: number, reason: string): void {
    if (s.state === 'closed') return;
    this.markClosed(s);
    closeWebSocket(s.ws, code, reason);
  }

  private markClosed(s: FanSocket): void {
    s.countedIn?.countOut(s);
    s.state = 'closed';
  }

  private detach(s: FanSocket, partyId: string): void {
    this.markClosed(s);
    const mine = s.fan ? this.socketsByFan.get(s.fan.id) : undefined;
    if (mine?.delete(s) && mine.size === 0) this.socketsByFan.delete(s.fan!.id);
    const channel = this.channels.get(partyId);
    const wasIn = channel?.sockets.delete(s) ?? false;
    if (wasIn) this.observer?.left(partyId);
    if (wasIn) this.deps.metrics?.left(partyId);
    if (!channel || !wasIn || channel.sockets.size > 0 || channel.idleTimer) return;
    channel.idleTimer = setTimeout(() => {
      if (channel.sockets.size > 0) return;
      channel.close();
      if (this.channels.get(partyId) === channel) this.channels.delete(partyId);
    }, CHANNEL_IDLE_MS);
    channel.idleTimer.unref();
  }

  private channelFor(partyId: string): PartyChannel {
    let c = this.channels.get(partyId);
    if (!c) {
      const channel = new PartyChannel(this, partyId);
      // A channel that could not start (database or Redis away) is dropped, so the next socket
      // of the party tries again instead of failing for as long as this node runs.
      channel.ready.catch(() => {
        if (this.channels.get(partyId) !== channel) return;
        this.channels.delete(partyId);
        channel.close();
      });
      c = channel;
      this.channels.set(partyId, c);
    }
    return c;
  }

  /** One heartbeat tick: the sockets whose slot is due are checked and pinged. */
  private beat(): void {
    const now = mono();
    const slot = this.beatSlices.tick();
    for (const c of this.channels.values()) {
      for (const s of c.sockets) {
        if (s.beatSlot !== slot || s.state === 'closed') continue;
        if (now - s.lastSeenMs > 3 * this.options.heartbeatMs) {
          // No frame for three heartbeats: the connection is dead.
          this.markClosed(s);
          s.ws.terminate();
          continue;
        }
        if (s.ws.readyState === OPEN) writeFrame(s.tcp, PING_FRAME);
      }
    }
  }

  /**
   * Sends this node's fans to the other nodes before it stops (a rolling restart): new sockets are
   * turned away, and the open ones close with 4001 at `perSecond` (see `drainPace`). Closed all at
   * once, they would all come back within the spec's first backoff (0.4 s plus up to 1 s) and hand
   * the nodes that stay every resume in the same second, on top of their own fans.
   */
  async drain(perSecond: number): Promise<void> {
    this.draining = true;
    const open: FanSocket[] = [];
    for (const c of this.channels.values()) for (const s of c.sockets) open.push(s);
    const { perTick } = drainPace(open.length, perSecond);
    // Paced by the clock, not by counting ticks: on a busy node the timer fires late, and the
    // drain must still end in time (the slices due meanwhile go out together).
    const started = mono();
    for (let done = 0; done < open.length; ) {
      if (done > 0) await new Promise((r) => setTimeout(r, DRAIN_TICK_MS));
      const due = Math.min(open.length, (Math.floor((mono() - started) / DRAIN_TICK_MS) + 1) * perTick);
      for (; done < due; done++) this.closeSocket(open[done]!, CloseCode.SERVER_SHUTDOWN, 'server shutting down');
    }
  }

  /** Closes every socket with 4001 (clients reconnect elsewhere) and stops the timers. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    clearInterval(this.presenceTimer);
    this.load.stop();
    for (const c of this.channels.values()) {
      c.flushNow();
      for (const s of c.sockets) this.closeSocket(s, CloseCode.SERVER_SHUTDOWN, 'server shutting down');
      c.close();
    }
    this.channels.clear();
  }
}

export type { Audience };

/** Closes a socket with a code and reason; a peer that does not answer the close is dropped later. */
export function closeWebSocket(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    ws.terminate();
  }
  setTimeout(() => {
    if (ws.readyState !== ws.CLOSED) ws.terminate();
  }, CLOSE_GRACE_MS).unref();
}
