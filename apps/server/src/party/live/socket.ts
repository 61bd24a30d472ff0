import {
  CloseCode,
  PING_TEXT,
  PRESENCE_WINDOW_MS,
  PONG_TEXT,
  parseClientMessage,
  type ControlEvent,
  type Role,
  type SocketErrorCode,
} from '@fanfare/protocol';
import type { WebSocket } from 'ws';
import { HeartbeatSlices, heartbeatSliceCount } from './heartbeat.ts';
import { wireFrame, writeFrame, type WireFrame } from './wireFrame.ts';
import type { ServerContext } from '../../context.ts';
import { toBool } from '../../platform/db/columns.ts';
import { fanForToken } from '../auth/sessions.ts';
import { can, fanActor } from '../policies.ts';
import { findParty } from '../parties/queries.ts';
import { inAudience, type Audience, type LoggedEvent } from './hub.ts';
import { currentStatus } from './playback.ts';

/** Hears fan sockets join and leave a party (after the token check; a leave follows each join). */
export interface SocketObserver {
  joined(partyId: string): void;
  left(partyId: string): void;
}

/** Tunables of the party socket (see `platform/config.ts` for the variables that set them). */
export interface SocketOptions {
  /** Events of a party are collected this long, then sent as one frame. */
  batchMs: number;
  /** Sockets written per turn of the event loop when a batch goes out (see `continueSweep`). */
  sweepChunk: number;
  /** The server pings every socket this often; a socket silent for 3 intervals is closed. */
  heartbeatMs: number;
  /** A socket whose unsent bytes stay above this for `slowGraceMs` is shed. */
  sendBufferSoftBytes: number;
  /** A socket whose unsent bytes exceed this is shed at once. */
  sendBufferHardBytes: number;
  slowGraceMs: number;
  /** Inbound frames per second a socket may send (burst: twice that). */
  inboundPerSecond: number;
  /** Listener counts are sent at most this often (default PRESENCE_WINDOW_MS). */
  presenceWindowMs?: number;
}

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

/** Liveness, rate limits and shedding use a monotonic clock: the party clock may be moved in tests. */
const mono = (): number => performance.now();

interface FanInfo {
  id: string;
  service: string | null;
  premium: boolean;
}

type SocketState = 'authenticating' | 'catching_up' | 'live' | 'closed';

/**
 * @fastify/websocket routes the upgrade through Fastify with a ServerResponse attached to the TCP
 * socket (`socket._httpMessage`), which then holds it and its request (headers, URL with the
 * token) for the socket's whole life. Nothing answers over HTTP after the upgrade: detach it.
 */
function releaseUpgradeResponse(ws: WebSocket): void {
  const socket = (ws as unknown as { _socket?: { _httpMessage?: { detachSocket?: (s: unknown) => void } | null } })._socket;
  const res = socket?._httpMessage;
  if (socket && res && typeof res.detachSocket === 'function') res.detachSocket(socket);
}

/** One fan's connection. */
class FanSocket {
  state: SocketState = 'authenticating';
  fan: FanInfo | null = null;
  role: Role = 'listener';
  lastSeenMs: number;
  /** Events delivered while a `resume` replay is being fetched. */
  pending: LoggedEvent[] = [];
  /** Live events up to this seq_id are skipped (the client said it has them). */
  skipThrough = 0;
  /** Frames received before the token was checked (null until one arrives: most sockets send none). */
  early: string[] | null = null;
  overSoftSince: number | null = null;
  tokens: number;
  tokensAt: number;
  lastRateErrorMs = 0;

  constructor(
    readonly ws: WebSocket,
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

/** The sockets of one party on this node, fed by one hub subscription. */
class PartyChannel {
  readonly sockets = new Set<FanSocket>();
  lastDelivered = 0;
  private lastFlushAt = -Infinity;
  private batch: LoggedEvent[] = [];
  private flushTimer: NodeJS.Timeout | null = null;
  /** The batch being written, chunk by chunk (`continueSweep`). */
  private sweep: Sweep | null = null;
  private readonly unsubscribe: () => void;
  readonly ready: Promise<void>;
  idleTimer: NodeJS.Timeout | null = null;
  /** The listener count last sent (issue 15: sent per window when it changed, never per join). */
  sentListeners = -1;

  /** Distinct fans with a live socket here (a fan with two tabs counts once). */
  listenerCount(): number {
    const fans = new Set<string>();
    for (const s of this.sockets) if (s.fan && s.state !== 'closed') fans.add(s.fan.id);
    return fans.size;
  }

  constructor(
    private readonly server: PartySocketServer,
    readonly partyId: string,
  ) {
    const hub = server.ctx.hub;
    this.unsubscribe = hub.subscribe(partyId, (event, audience, json) => this.onEvent({ event, audience, json }));
    this.ready = hub.ready(partyId).then((head) => {
      this.lastDelivered = Math.max(this.lastDelivered, head);
    });
  }

  private onEvent(item: LoggedEvent): void {
    if (item.event.seq_id > this.lastDelivered) this.lastDelivered = item.event.seq_id;
    this.batch.push(item);
    if (!this.flushTimer && !this.sweep) this.scheduleFlush();
  }

  private scheduleFlush(): void {
    // At most one frame per window: an event after a quiet spell goes out at once (with whatever
    // arrives in the same turn of the event loop), a busy party's events gather for the window.
    const wait = Math.max(0, this.lastFlushAt + this.server.options.batchMs - mono());
    this.flushTimer = setTimeout(() => this.flush(), wait);
  }

  /** Sends the collected events: one serialization per distinct audience, shared by every socket. */
  flush(chunk = this.server.options.sweepChunk): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    // One batch at a time: a socket late in this sweep must get it before the next one.
    if (this.sweep) return;
    this.lastFlushAt = mono();
    const batch = this.batch;
    this.batch = [];
    if (batch.length === 0) return;
    this.sweep = new Sweep(batch, [...this.sockets]);
    this.continueSweep(this.sweep, chunk);
  }

  /** Writes what is collected now, the sweep under way and the batch after it, in one go (shutdown). */
  flushNow(): void {
    if (this.sweep) this.continueSweep(this.sweep, Infinity);
    this.flush(Infinity);
  }

  /**
   * Writes `sweep`'s batch to the next `chunk` of its sockets, and the rest in later turns of the
   * event loop: between chunks the server reads its requests (issue 16: at 10,000 fans a whole
   * sweep takes 150-250 ms, and chat posts, votes and page loads would wait for all of it; the
   * bench's chat posts then backed up for seconds).
   */
  private continueSweep(sweep: Sweep, chunk: number): void {
    if (this.sweep !== sweep) return;
    const end = Math.min(sweep.targets.length, sweep.next + chunk);
    // One clock read per chunk, not one per socket (the sweep is the fan-out's hot loop).
    const now = mono();
    for (let i = sweep.next; i < end; i++) this.deliver(sweep, sweep.targets[i]!, now);
    sweep.next = end;
    if (end < sweep.targets.length) {
      setImmediate(() => this.continueSweep(sweep, this.server.options.sweepChunk));
      return;
    }
    this.sweep = null;
    // DELETE /api/parties/{id}/users removed every fan: their sockets close with 1008 after the news.
    if (sweep.batch.some((b) => b.event.type === 'users_cleared')) {
      for (const s of this.sockets) this.server.closeSocket(s, CloseCode.POLICY_VIOLATION, 'removed from the party');
    }
    // Events that came during the sweep go out with the usual pacing.
    if (this.batch.length > 0 && !this.flushTimer) this.scheduleFlush();
  }

  /** The batch's frame for one socket (or its place in the socket's catch-up queue). */
  private deliver(sweep: Sweep, s: FanSocket, now: number): void {
    const batch = sweep.batch;
    if (s.state === 'catching_up') {
      s.pending.push(...batch);
      return;
    }
    if (s.state !== 'live' || !s.fan) return;
    if (!sweep.targeted && s.skipThrough < sweep.firstSeq) {
      sweep.shared ??= frameOf(batch.map((b) => b.json));
      this.server.sendFrame(s, sweep.shared, now);
      return;
    }
    const fan = s.fan;
    const mask = batch.map((b) => (b.event.seq_id > s.skipThrough && inAudience(b.audience, fan) ? '1' : '0')).join('');
    let frame = sweep.byKey.get(mask);
    if (frame === undefined) {
      const jsons = batch.filter((_, i) => mask[i] === '1').map((b) => b.json);
      frame = jsons.length ? frameOf(jsons) : null;
      sweep.byKey.set(mask, frame);
    }
    if (frame) this.server.sendFrame(s, frame, now);
  }

  close(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.sweep = null;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.unsubscribe();
  }
}

/** One batch on its way to a party's sockets: the frames made for it, shared by the sockets. */
class Sweep {
  readonly targeted: boolean;
  readonly firstSeq: number;
  shared: WireFrame | null = null;
  readonly byKey = new Map<string, WireFrame | null>();
  /** Index in `targets` of the next socket to write to. */
  next = 0;

  constructor(
    readonly batch: LoggedEvent[],
    /** The party's sockets when the sweep began: a socket that joins later starts after this batch. */
    readonly targets: FanSocket[],
  ) {
    this.targeted = batch.some((b) => b.audience !== undefined);
    this.firstSeq = batch[0]!.event.seq_id;
  }
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

  constructor(
    readonly ctx: ServerContext,
    readonly options: SocketOptions,
  ) {
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

  /** Number of open fan sockets on this node (for tests and metrics). */
  get socketCount(): number {
    let n = 0;
    for (const c of this.channels.values()) n += c.sockets.size;
    return n;
  }

  /** Takes a freshly upgraded socket; everything after happens through its events. */
  accept(ws: WebSocket, partyId: string, token: string | undefined): void {
    const s = new FanSocket(ws, mono(), this.options.inboundPerSecond * 2, this.beatSlices.assign());
    // @fastify/websocket's own 'error' listener holds the upgrade's request and reply (headers,
    // logger, response object: kilobytes per socket, for the socket's whole life). Ours below
    // handles errors; dropping it lets them be collected (issue 16: memory per idle connection).
    ws.removeAllListeners('error');
    releaseUpgradeResponse(ws);
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
    if (this.closing) return this.closeSocket(s, CloseCode.SERVER_SHUTDOWN, 'server shutting down');
    this.authenticate(s, partyId, token).catch((err: unknown) => {
      this.ctx.logger.error({ err, partyId }, 'socket authentication failed');
      this.closeSocket(s, CloseCode.SERVER_SHUTDOWN, 'server error');
    });
  }

  private async authenticate(s: FanSocket, partyId: string, token: string | undefined): Promise<void> {
    // Guards the party's event stream: only a valid token of a fan signed up for this party.
    const fan = token ? await fanForToken(this.ctx.db, token, this.ctx.now()) : null;
    if (!fan) return this.closeSocket(s, CloseCode.POLICY_VIOLATION, 'invalid or missing access token');
    const party = await findParty(this.ctx.db, partyId);
    if (!party) return this.closeSocket(s, CloseCode.POLICY_VIOLATION, 'no such party');
    const actor = await fanActor(this.ctx, party, fan);
    if (!can(actor, 'party.listen')) return this.closeSocket(s, CloseCode.POLICY_VIOLATION, 'not signed up for this party');
    s.role = actor.role;
    if (s.state === 'closed') return;
    // A handful of tabs per fan, not hundreds: each socket costs memory and a share of every frame.
    if (!this.bookSocket(fan.id, s)) {
      return this.closeSocket(s, CloseCode.POLICY_VIOLATION, 'too many open connections for this fan');
    }
    s.fan = { id: fan.id, service: fan.service, premium: toBool(fan.premium) };

    const channel = this.channelFor(partyId);
    await channel.ready;
    if (this.isClosed(s)) return;
    channel.sockets.add(s);
    if (channel.idleTimer) {
      clearTimeout(channel.idleTimer);
      channel.idleTimer = null;
    }
    s.state = 'live';
    this.observer?.joined(partyId);
    // Events up to here may still sit in the channel's unsent batch: this fan starts after them.
    s.skipThrough = channel.lastDelivered;
    // The newcomer hears the count at once; everyone else with the next presence window.
    this.sendFrame(s, controlFrame([
      { type: 'hello', seq_id: channel.lastDelivered, server_time_ms: this.ctx.now(), user_id: fan.id, role: s.role },
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
    if (mine.size >= this.ctx.config.abuse.maxSocketsPerFan) return false;
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
          return this.sendFrame(s, controlFrame([{ type: 'time', client_time_ms: msg.frame.client_time_ms, server_time_ms: this.ctx.now() }]));
        }
        this.resume(s, partyId, msg.frame.last_seq_id).catch((err: unknown) => {
          this.ctx.logger.error({ err, partyId }, 'resume failed');
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
    const joinedAt = channel.lastDelivered;
    if (lastSeq >= joinedAt) {
      // The client is as far as this node, or ahead of it (another node delivered sooner).
      if (lastSeq > joinedAt && lastSeq > (await this.ctx.hub.head(partyId))) return this.resync(s, partyId, channel);
      s.skipThrough = Math.max(s.skipThrough, lastSeq);
      return;
    }
    s.state = 'catching_up';
    s.pending = [];
    const history = await this.ctx.hub.history(partyId, lastSeq);
    if (s.state !== 'catching_up') return;
    if (!history.complete) return this.resync(s, partyId, channel);
    const replay = history.events.filter((e) => e.event.seq_id <= joinedAt && inAudience(e.audience, s.fan!));
    const replayed = new Set(replay.map((e) => e.event.seq_id));
    for (let i = 0; i < replay.length; i += REPLAY_FRAME_EVENTS) {
      this.sendFrame(s, frameOf(replay.slice(i, i + REPLAY_FRAME_EVENTS).map((e) => e.json)));
    }
    this.finishCatchUp(s, replayed, joinedAt);
  }

  private async resync(s: FanSocket, partyId: string, channel: PartyChannel): Promise<void> {
    s.state = 'catching_up';
    s.pending = [];
    const status = await currentStatus(this.ctx, partyId).catch(() => null);
    if (s.state !== 'catching_up') return;
    // The client reloads its state over REST and applies the events after this seq_id; what
    // arrived while the status was read is in that state already.
    s.pending = [];
    s.skipThrough = Math.max(s.skipThrough, channel.lastDelivered);
    this.sendFrame(s, controlFrame([{ type: 'resync', reason: 'missed_events', seq_id: channel.lastDelivered, status }]));
    this.finishCatchUp(s, new Set(), s.skipThrough);
  }

  /** Sends what arrived during the catch-up; the socket then has every event up to `through`. */
  private finishCatchUp(s: FanSocket, alreadySent: Set<number>, through: number): void {
    const rest = s.pending.filter((e) => !alreadySent.has(e.event.seq_id) && e.event.seq_id > s.skipThrough && inAudience(e.audience, s.fan!));
    s.pending = [];
    s.state = 'live';
    // A sweep still on its way (it writes a batch chunk by chunk) must not send these again.
    s.skipThrough = Math.max(s.skipThrough, through, rest.at(-1)?.event.seq_id ?? 0);
    if (rest.length) this.sendFrame(s, frameOf(rest.map((e) => e.json)));
  }

  /** Writes a frame, shedding the socket if its send buffer stays full. */
  sendFrame(s: FanSocket, frame: WireFrame, now = mono()): void {
    const ws = s.ws;
    if (s.state === 'closed' || ws.readyState !== OPEN) return;
    const buffered = ws.bufferedAmount;
    if (buffered > this.options.sendBufferSoftBytes) {
      s.overSoftSince ??= now;
      if (buffered > this.options.sendBufferHardBytes || now - s.overSoftSince >= this.options.slowGraceMs) {
        return this.closeSocket(s, CloseCode.SLOW_CONSUMER, 'send buffer full: reconnect and resume');
      }
    } else {
      s.overSoftSince = null;
    }
    writeFrame(ws, frame);
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
    s.state = 'closed';
    s.pending = [];
    closeWebSocket(s.ws, code, reason);
  }

  private detach(s: FanSocket, partyId: string): void {
    s.state = 'closed';
    s.pending = [];
    const mine = s.fan ? this.socketsByFan.get(s.fan.id) : undefined;
    if (mine?.delete(s) && mine.size === 0) this.socketsByFan.delete(s.fan!.id);
    const channel = this.channels.get(partyId);
    const wasIn = channel?.sockets.delete(s) ?? false;
    if (wasIn) this.observer?.left(partyId);
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
          s.state = 'closed';
          s.ws.terminate();
          continue;
        }
        if (s.ws.readyState === OPEN) writeFrame(s.ws, PING_FRAME);
      }
    }
  }

  /** Closes every socket with 4001 (clients reconnect elsewhere) and stops the timers. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    clearInterval(this.presenceTimer);
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
