import { ApiError, PartySocket, type WebSocketCtor } from '@fanfare/client';
import { CHAT_FETCH_MAX_LIMIT, type ChatMessage, type ControlEvent, type SequencedEvent, type SourceReport, type Track } from '@fanfare/protocol';
import { Batcher } from '../rules/batcher.ts';
import { catchUpCursor } from '../rules/chat.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { isChatEvent, roleOf, type NonChatEvent } from '../state/store.ts';
import type { AppServices } from '../app/services.ts';
import { SEEKABLE_DRIFT_TOLERANCE_MS, type HealReason } from '../player/controller.ts';

/** How often the player's offset is measured and a stall or silence is looked for. */
export const SYNC_TICK_MS = 1_000;
/** A drift seen on this many ticks in a row heals the player (one reading may be noise; the fan sees it meanwhile). */
const DRIFT_TICKS = 2;
/** Pages of a catch-up after a resync at most (200 messages each: 10,000 messages). */
const CATCH_UP_MAX_PAGES = 50;
/** A stall or an unexpected silence lasting this many ticks heals the player. */
const STALL_TICKS = 2;
/**
 * Ours (issue 15): the socket is probed with a clock-sync frame this often. An open socket whose
 * network is gone says nothing: an unanswered probe is how we notice.
 */
export const PROBE_INTERVAL_MS = 10_000;
/** A probe unanswered for this long counts the socket as dead: it is replaced and resumes. */
export const PROBE_TIMEOUT_MS = 4_000;

/** What the session needs of the page: the network flag and its events, visibility. Injectable for tests. */
export interface PageSignals {
  isOnline(): boolean;
  isVisible(): boolean;
  on(event: 'online' | 'offline' | 'visible', listener: () => void): () => void;
}

/** The browser's signals: `online`/`offline` on window, `visibilitychange` on document. */
export function browserSignals(win: Window = window): PageSignals {
  return {
    isOnline: () => win.navigator.onLine !== false,
    isVisible: () => win.document.visibilityState !== 'hidden',
    on: (event, listener) => {
      if (event === 'visible') {
        const handler = () => {
          if (win.document.visibilityState === 'visible') listener();
        };
        win.document.addEventListener('visibilitychange', handler);
        return () => win.document.removeEventListener('visibilitychange', handler);
      }
      win.addEventListener(event, listener);
      return () => win.removeEventListener(event, listener);
    },
  };
}

/**
 * The fan's live connection to the party: the socket client feeds the store (chat in 150 ms
 * batches, everything else at once) and the player (track and queue changes). It also keeps the
 * fan on the timeline by itself (issue 15): a dead socket is noticed by an unanswered probe and
 * replaced (resuming from the last seq_id); the network coming back, the socket reconnecting, the
 * stream stalling or the tab returning heal the player. `stop()` tears everything down.
 */
export class LiveSession {
  private socket: PartySocket | null = null;
  private readonly batcher: Batcher<ChatMessage>;
  private tickTimer: ReturnType<typeof setInterval> | null = null;
  private stalledTicks = 0;
  private driftTicks = 0;
  private helloCount = 0;
  private lastHeardMs = 0;
  private probeSentMs: number | null = null;
  private lastProbeMs = 0;
  /** The last seq_id applied by a socket closed while offline: the next one resumes from it. */
  private resumeFrom: number | null = null;
  private readonly unlisten: (() => void)[] = [];

  constructor(
    private readonly services: AppServices,
    private readonly WebSocket: WebSocketCtor,
    private readonly signals: PageSignals = browserSignals(),
    private readonly now: () => number = () => Date.now(),
  ) {
    this.batcher = new Batcher<ChatMessage>((batch) => services.store.getState().applyChat(batch));
  }

  /** Loads the live state over REST, then connects. */
  async start(): Promise<void> {
    const { store } = this.services;
    if (!store.getState().token || this.socket || this.tickTimer) return;
    store.getState().setOnline(this.signals.isOnline());
    this.unlisten.push(
      this.signals.on('offline', () => this.onOffline()),
      this.signals.on('online', () => this.onOnline()),
      this.signals.on('visible', () => this.onVisible()),
    );
    this.openSocket(null);
    this.tickTimer = setInterval(() => this.tick(), SYNC_TICK_MS);
    await this.reload();
  }

  /** (Re)loads tracks, recent chat, the timeline and, for hosts and admins, the blocked fans. */
  async reload(): Promise<void> {
    const { store } = this.services;
    const api = this.services.api();
    const id = this.services.partyId;
    const tasks: Promise<unknown>[] = [
      this.reloadTracks(),
      api.call('listRecentChatMessages', { params: { id } }).then((r) => store.getState().setInitialChat(r.items)),
      this.reloadStatus(),
    ];
    // Host or admin triggers loading of all blocked users (spec 6).
    if (isHostOrAdmin(roleOf(store.getState()))) tasks.push(this.loadBlocked());
    const results = await Promise.allSettled(tasks);
    for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof ApiError)) console.warn(r.reason);
  }

  /**
   * After a `resync` (the events the fan missed are gone from the server's memory, e.g. after a
   * restart): every chat message after the last one the fan has, in pages, never only the newest
   * page; then the newest page to drop what was deleted meanwhile, and the rest of the state.
   */
  private async recover(resumedFrom: number | null): Promise<void> {
    const { store } = this.services;
    const newest = catchUpCursor(store.getState().messages);
    if (newest === null) return this.reload();
    // Live events can land between `hello` and the server's answer to `resume`: the newest
    // message is then past a gap that starts where the socket resumed.
    const after = resumedFrom === null ? newest : Math.min(newest, resumedFrom);
    const tasks: Promise<unknown>[] = [this.catchUpChat(after), this.reloadTracks(), this.reloadStatus()];
    if (isHostOrAdmin(roleOf(store.getState()))) tasks.push(this.loadBlocked());
    const results = await Promise.allSettled(tasks);
    for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof ApiError)) console.warn(r.reason);
  }

  private async catchUpChat(after: number): Promise<void> {
    const api = this.services.api();
    const params = { id: this.services.partyId };
    // The newest page is read alongside the catch-up, not after it: in a reconnect storm every
    // round trip waits in the node's queue (its reconcile keeps what came live meanwhile).
    const recent = api.call('listRecentChatMessages', { params });
    recent.catch(() => undefined);
    let cursor = after;
    for (let page = 0; page < CATCH_UP_MAX_PAGES; page++) {
      const r = await api.call('listChatMessages', { params, query: { after_seq_id: cursor, limit: CHAT_FETCH_MAX_LIMIT } });
      if (r.items.length > 0) this.services.store.getState().applyChat(r.items);
      if (r.items.length < CHAT_FETCH_MAX_LIMIT) break;
      cursor = r.items[r.items.length - 1]!.seq_id;
    }
    this.services.store.getState().reconcileChat((await recent).items);
  }

  private async reloadTracks(): Promise<void> {
    const r = await this.services.api().call('getTracks', { params: { id: this.services.partyId } });
    this.services.store.getState().setTracks(r.items);
  }

  /** The timeline over REST (also the first clock estimate until the socket's time frames answer). */
  private async reloadStatus(): Promise<void> {
    const r = await this.services.api().call('getPlayerStatus', { params: { id: this.services.partyId } });
    const s = this.services.store.getState();
    if (!this.socket || this.socket.clockOffsetMs === 0) s.setClockOffset(r.server_time_ms - this.now());
    s.setStatus(r.status);
  }

  async loadBlocked(): Promise<void> {
    const res = await this.services.api().call('listUsers', { params: { id: this.services.partyId }, query: { can_chat: 'False' } });
    this.services.store.getState().setBlockedUsers(res.items);
  }

  /** A fan's tap on the offset indicator: resync now. */
  resync(): Promise<boolean> {
    return this.heal('fan');
  }

  // --- the socket -------------------------------------------------------------------------

  private source: SourceReport | null = null;

  /** What the fan hears and why (issue 47), for the hosts' dashboard; kept across socket replacements. */
  reportSource(report: SourceReport): void {
    this.source = report;
    this.socket?.reportSource(report);
  }

  private openSocket(lastSeqId: number | null): void {
    const { store } = this.services;
    const token = store.getState().token;
    if (!token) return;
    const socket: PartySocket = new PartySocket({
      baseUrl: this.services.baseUrl,
      partyId: this.services.partyId,
      accessToken: token,
      WebSocket: this.WebSocket,
      lastSeqId,
      // Callbacks of a replaced socket are ignored: only the current one speaks for the fan.
      onState: (connection) => {
        if (this.socket === socket) store.getState().setConnection(connection);
      },
      onClockOffset: (offset) => {
        if (this.socket === socket) store.getState().setClockOffset(offset);
      },
      onEvent: (event) => {
        if (this.socket !== socket) return;
        this.heard();
        this.onEvent(event);
      },
      onControl: (event) => {
        if (this.socket !== socket) return;
        this.heard();
        this.onControl(event);
      },
    });
    this.socket = socket;
    // A player created before this session reported to nobody: its report goes out now.
    this.source ??= this.services.player?.sourceReport ?? null;
    if (this.source) socket.reportSource(this.source);
    this.lastHeardMs = this.now();
    this.probeSentMs = null;
    socket.connect();
  }

  /** Replaces the socket by a fresh one that resumes where the old one stopped. */
  private replaceSocket(): void {
    const old = this.socket;
    const lastSeqId = old?.lastSeqId ?? this.resumeFrom;
    this.socket = null;
    old?.close();
    this.services.store.getState().setConnection({ kind: 'connecting', attempt: 2 });
    this.openSocket(lastSeqId);
  }

  private heard(): void {
    this.lastHeardMs = this.now();
    this.probeSentMs = null;
  }

  private onControl(event: ControlEvent): void {
    const { store } = this.services;
    switch (event.type) {
      case 'hello':
        store.getState().setRole(event.role);
        this.helloCount += 1;
        // Back after a drop: the missed events replay through `resume`; the timeline is read
        // again as well (a replay may be gone), then the player realigns without a click.
        if (this.helloCount > 1) void this.reloadStatus().catch(() => undefined).then(() => this.heal('reconnected'));
        return;
      case 'resync':
        store.getState().setStatus(event.status);
        void this.recover(this.socket?.resumedFromSeqId ?? null).then(() => this.heal('reconnected'));
        return;
      case 'presence':
        store.getState().setListeners(event.listeners);
        return;
      case 'reactions':
        store.getState().addReactions(event);
        return;
      case 'time':
      case 'error':
        return;
      // Sent only to the back office's dashboard sockets (`view=dashboard`), never to the party app.
      case 'party_stats':
        return;
      default:
        return event satisfies never;
    }
  }

  private onEvent(event: SequencedEvent): void {
    const { store } = this.services;
    if (isChatEvent(event)) {
      this.batcher.push(event);
      return;
    }
    const live: NonChatEvent = event;
    store.getState().applyEvent(live);
    const player = this.services.player;
    switch (live.type) {
      case 'track_change':
      case 'party_started':
        void player?.onTrackChange().catch(() => undefined);
        return;
      case 'party_stopped':
        void player?.onTrackChange().catch(() => undefined);
        // Which tracks have played decides whether the album has finished (issue 15).
        void this.reloadTracks().catch(() => undefined);
        return;
      case 'queue_change': {
        const byId = new Map(store.getState().tracks.map((t) => [t.id, t as Track]));
        const tracks = live.queue.map((id) => byId.get(id)).filter((t): t is Track => !!t);
        void player?.onQueueChange(tracks).catch(() => undefined);
        return;
      }
      case 'user_can_chat':
        if (!live.can_chat && isHostOrAdmin(roleOf(store.getState()))) void this.loadBlocked().catch(() => undefined);
        return;
      default:
        // The other events only change state (applied above).
        return;
    }
  }

  // --- the page's signals and the sync tick -----------------------------------------------

  private onOffline(): void {
    this.services.store.getState().setOnline(false);
    // No reconnect attempts while the browser knows the network is gone: they would only count
    // towards the retry cap and end in the global error. `online` reconnects.
    const old = this.socket;
    this.resumeFrom = old?.lastSeqId ?? this.resumeFrom;
    this.socket = null;
    old?.close();
  }

  private onOnline(): void {
    this.services.store.getState().setOnline(true);
    // The old socket may look open yet be dead: start afresh now rather than wait for a probe.
    this.replaceSocket();
    void this.heal('reconnected');
  }

  private onVisible(): void {
    // Timers were throttled in the background: check the socket at once and realign.
    this.probe();
    void this.heal('visible');
  }

  private probe(): void {
    if (!this.socket || this.socket.state.kind !== 'live') return;
    this.lastProbeMs = this.now();
    this.probeSentMs ??= this.lastProbeMs;
    this.socket.syncClock();
  }

  private tick(): void {
    const now = this.now();
    const isOnline = this.signals.isOnline();
    if (isOnline !== this.services.store.getState().isOnline) {
      if (isOnline) this.onOnline();
      else this.onOffline();
    }
    if (isOnline && this.socket?.state.kind === 'live') {
      if (this.probeSentMs !== null && now - this.probeSentMs > PROBE_TIMEOUT_MS && this.lastHeardMs < this.probeSentMs) this.replaceSocket();
      else if (now - Math.max(this.lastHeardMs, this.lastProbeMs) >= PROBE_INTERVAL_MS) this.probe();
    }
    const player = this.services.player;
    if (!player) return;
    const offset = player.reportOffset();
    this.stalledTicks = player.isStalled || player.isSilentWhileLive ? this.stalledTicks + 1 : 0;
    this.driftTicks = offset !== null && Math.abs(offset) > SEEKABLE_DRIFT_TOLERANCE_MS ? this.driftTicks + 1 : 0;
    if (this.stalledTicks >= STALL_TICKS) {
      this.stalledTicks = 0;
      void this.heal('stalled');
    } else if (this.driftTicks >= DRIFT_TICKS) {
      this.driftTicks = 0;
      void this.heal('drift');
    }
  }

  private heal(reason: HealReason): Promise<boolean> {
    return (
      this.services.player?.heal(reason).catch((err: unknown) => {
        console.warn(`Realigning the player (${reason}) failed`, err);
        return false;
      }) ?? Promise.resolve(false)
    );
  }

  stop(): void {
    this.batcher.flushNow();
    this.batcher.dispose();
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.services.store.getState().setConnection({ kind: 'ended', reason: 'closed_by_client' });
    if (this.tickTimer) clearInterval(this.tickTimer);
    this.tickTimer = null;
    for (const off of this.unlisten.splice(0)) off();
  }
}
