/**
 * The dashboard end of the party socket (issue 14): `/api/parties/{id}?access_token=...&view=dashboard`.
 *
 * A dashboard socket never receives the party's event stream. Per party, this node keeps one
 * aggregator fed by the party's events (one hub subscription, like a fan channel) and by the fan
 * sockets' joins and leaves, and sends every dashboard of the party one `party_stats` frame per
 * `STATS_INTERVAL_MS` at most, and only when something changed. With Redis every node receives
 * every event of a party it subscribes to, so chat, votes, results and the timeline are complete
 * on any node; listeners, joins and leaves are the counts of this node (`listeners_scope: node`),
 * the fans' sockets being spread over the nodes.
 */
import { CloseCode, PING_TEXT, PONG_TEXT, STATS_INTERVAL_MS, type PartyStatsEvent, type SequencedEvent } from '@fanfare/protocol';
import type { WebSocket } from 'ws';
import type { ServerContext } from '../../context.ts';
import { cmsIdentity } from '../auth/guards.ts';
import { fanForToken } from '../auth/sessions.ts';
import { closeWebSocket, type PartySocketServer, type SocketObserver } from '../../realtime/sockets.ts';
import { findParty } from '../parties/queries.ts';
import { can, cmsActor, fanActor } from '../policies.ts';
import { PartyStatsAggregator } from './aggregator.ts';
import { JoinLedger } from './joinLedger.ts';
import { loadStatsSnapshot } from './snapshot.ts';

/** A party without dashboards keeps its aggregator this long (a reload keeps the joins and leaves). */
const IDLE_MS = 60_000;
/** Dashboards per party per node: a handful of hosts, not a crowd. */
const MAX_DASHBOARDS_PER_PARTY = 50;

/** The dashboards of one party on this node and their aggregator. */
class PartyDashboards {
  readonly sockets = new Set<WebSocket>();
  aggregator: PartyStatsAggregator | null = null;
  readonly ready: Promise<void>;
  idleTimer: NodeJS.Timeout | null = null;
  private readonly early: SequencedEvent[] = [];
  private readonly unsubscribe: () => void;

  constructor(
    private readonly owner: DashboardSockets,
    readonly partyId: string,
  ) {
    const ctx = owner.ctx;
    // Subscribe first, then read the stored figures: nothing published in between is lost.
    this.unsubscribe = ctx.hub.subscribe(partyId, (event) => {
      if (this.aggregator) this.aggregator.apply(event, ctx.now());
      else if (this.early.length < 10_000) this.early.push(event);
    });
    this.ready = (async () => {
      await ctx.hub.ready(partyId);
      const snapshot = await loadStatsSnapshot(ctx, partyId);
      // Read with no await before `this.aggregator` is set: no join falls in between.
      const aggregator = new PartyStatsAggregator(Object.assign(snapshot, { joins: owner.joins.of(partyId) }), owner.scope);
      const seen = new Set(snapshot.recentChat.map((m) => m.id));
      for (const e of this.early) {
        // A message already counted by the stored figures is not counted twice.
        if ('id' in e && typeof e.id === 'string' && seen.has(e.id)) continue;
        aggregator.apply(e, ctx.now());
      }
      this.early.length = 0;
      aggregator.setListeners(ctx.now(), owner.fanSockets.listenersOf(partyId));
      aggregator.setSources(owner.fanSockets.sourcesOf(partyId));
      this.aggregator = aggregator;
    })();
  }

  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.unsubscribe();
  }
}

/** Accepts dashboard sockets and sends each party's `party_stats` on a timer. */
export class DashboardSockets implements SocketObserver {
  private readonly parties = new Map<string, PartyDashboards>();
  private readonly timer: NodeJS.Timeout;
  readonly scope: PartyStatsEvent['listeners_scope'];
  /** Every fan socket join and leave on this node, dashboard or not. */
  readonly joins = new JoinLedger();
  private closing = false;

  constructor(
    readonly ctx: ServerContext,
    readonly fanSockets: PartySocketServer,
    intervalMs = STATS_INTERVAL_MS,
  ) {
    // In one process every fan socket is here; behind Redis the fans are spread over the nodes.
    this.scope = ctx.hub.isSingleNode ? 'cluster' : 'node';
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
    fanSockets.observer = this;
  }

  joined(partyId: string): void {
    const now = this.ctx.now();
    const listeners = this.fanSockets.listenersOf(partyId);
    this.joins.joined(partyId, now, listeners);
    this.parties.get(partyId)?.aggregator?.joined(now, listeners);
  }

  left(partyId: string): void {
    const now = this.ctx.now();
    const listeners = this.fanSockets.listenersOf(partyId);
    this.joins.left(partyId, now, listeners);
    this.parties.get(partyId)?.aggregator?.left(now, listeners);
  }

  /** Dashboard sockets open on this node (tests, metrics). */
  get socketCount(): number {
    let n = 0;
    for (const p of this.parties.values()) n += p.sockets.size;
    return n;
  }

  /** Takes an upgraded socket that asked for `view=dashboard`. */
  accept(ws: WebSocket, partyId: string, token: string | undefined): void {
    ws.on('message', (data, isBinary) => {
      // Only the heartbeat: a dashboard sends nothing else.
      if (!isBinary && String(data) === PING_TEXT && ws.readyState === ws.OPEN) ws.send(PONG_TEXT);
    });
    ws.on('close', () => this.detach(ws, partyId));
    ws.on('error', () => this.detach(ws, partyId));
    if (this.closing) return closeWebSocket(ws, CloseCode.SERVER_SHUTDOWN, 'server shutting down');
    this.attach(ws, partyId, token).catch((err: unknown) => {
      this.ctx.logger.error({ err, partyId }, 'dashboard socket failed');
      closeWebSocket(ws, CloseCode.SERVER_SHUTDOWN, 'server error');
    });
  }

  /**
   * Guards the party's figures (and the chat tail and the blocked list in them): the admin tool's
   * token, or the bearer of a fan who is host or admin of this party (`party.dashboard`).
   */
  private async mayWatch(partyId: string, token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const party = await findParty(this.ctx.db, partyId);
    if (!party) return false;
    const fan = await fanForToken(this.ctx.db, token, this.ctx.now());
    if (fan) return can(await fanActor(this.ctx, party, fan), 'party.dashboard');
    return (await cmsIdentity(this.ctx, token)) !== null && can(cmsActor(party), 'party.dashboard');
  }

  private async attach(ws: WebSocket, partyId: string, token: string | undefined): Promise<void> {
    if (!(await this.mayWatch(partyId, token))) return closeWebSocket(ws, CloseCode.POLICY_VIOLATION, 'only the admin tool or the party hosts may watch its figures');
    let party = this.parties.get(partyId);
    if (party && party.sockets.size >= MAX_DASHBOARDS_PER_PARTY) return closeWebSocket(ws, CloseCode.POLICY_VIOLATION, 'too many dashboards for this party');
    if (!party) {
      party = new PartyDashboards(this, partyId);
      const created = party;
      this.parties.set(partyId, created);
      created.ready.catch(() => {
        if (this.parties.get(partyId) === created) this.parties.delete(partyId);
        created.close();
      });
    }
    if (party.idleTimer) {
      clearTimeout(party.idleTimer);
      party.idleTimer = null;
    }
    party.sockets.add(ws);
    await party.ready;
    if (ws.readyState !== ws.OPEN || !party.aggregator) return;
    // The newcomer gets the whole picture at once; everyone else with the next tick.
    send(ws, JSON.stringify([party.aggregator.snapshot(this.ctx.now())]));
  }

  /** Sends each watched party's figures when they changed since the last tick. */
  tick(): void {
    const now = this.ctx.now();
    for (const party of this.parties.values()) {
      const aggregator = party.aggregator;
      if (!aggregator || party.sockets.size === 0) continue;
      aggregator.setListeners(now, this.fanSockets.listenersOf(party.partyId));
      aggregator.setSources(this.fanSockets.sourcesOf(party.partyId));
      if (!aggregator.dirty) continue;
      // Serialized once per party, the same text for each of its dashboards.
      const frame = JSON.stringify([aggregator.take(now)]);
      for (const ws of party.sockets) send(ws, frame);
    }
  }

  private detach(ws: WebSocket, partyId: string): void {
    const party = this.parties.get(partyId);
    if (!party || !party.sockets.delete(ws) || party.sockets.size > 0 || party.idleTimer) return;
    party.idleTimer = setTimeout(() => {
      if (party.sockets.size > 0) return;
      party.close();
      if (this.parties.get(partyId) === party) this.parties.delete(partyId);
    }, IDLE_MS);
    party.idleTimer.unref();
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    if (this.fanSockets.observer === this) this.fanSockets.observer = null;
    for (const party of this.parties.values()) {
      for (const ws of party.sockets) closeWebSocket(ws, CloseCode.SERVER_SHUTDOWN, 'server shutting down');
      party.close();
    }
    this.parties.clear();
  }
}

function send(ws: WebSocket, text: string): void {
  // A dashboard that cannot keep up with one small frame a second is dead: drop it.
  if (ws.readyState !== ws.OPEN) return;
  if (ws.bufferedAmount > 4 * 1024 * 1024) return closeWebSocket(ws, CloseCode.SLOW_CONSUMER, 'send buffer full');
  ws.send(text);
}

