import { ApiError, PartySocket, type WebSocketCtor } from '@fanfare/client';
import type { ChatMessage, SequencedEvent, Track } from '@fanfare/protocol';
import { Batcher } from '../rules/batcher.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { isChatEvent, roleOf } from '../state/store.ts';
import type { AppServices } from '../app/services.ts';

/** Interval of the drift check of the player against the party timeline. */
const REALIGN_INTERVAL_MS = 4_000;

/**
 * The fan's live connection to the party: the socket client feeds the store (chat in 150 ms
 * batches, everything else at once) and the player (track and queue changes). Owned by the app's
 * services; `stop()` tears down socket, batcher and timers.
 */
export class LiveSession {
  private socket: PartySocket | null = null;
  private readonly batcher: Batcher<ChatMessage>;
  private realignTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly services: AppServices,
    private readonly WebSocket: WebSocketCtor,
  ) {
    this.batcher = new Batcher<ChatMessage>((batch) => services.store.getState().applyChat(batch));
  }

  /** Loads the live state over REST, then connects. */
  async start(): Promise<void> {
    const { store } = this.services;
    const token = store.getState().token;
    if (!token || this.socket) return;
    this.socket = new PartySocket({
      baseUrl: this.services.baseUrl,
      partyId: this.services.partyId,
      accessToken: token,
      WebSocket: this.WebSocket,
      onState: (connection) => store.getState().set({ connection }),
      onClockOffset: (clockOffsetMs) => store.getState().set({ clockOffsetMs }),
      onEvent: (event) => this.onEvent(event),
      onControl: (event) => {
        if (event.type === 'resync') {
          store.getState().set({ status: event.status });
          void this.reload();
        }
        if (event.type === 'hello') {
          const user = store.getState().user;
          if (user && user.role !== event.role) store.getState().set({ user: { ...user, role: event.role } });
        }
      },
    });
    this.socket.connect();
    this.realignTimer = setInterval(() => void this.services.player?.realign().catch(() => undefined), REALIGN_INTERVAL_MS);
    await this.reload();
  }

  /** (Re)loads tracks, recent chat, the timeline and, for hosts and admins, the blocked fans. */
  async reload(): Promise<void> {
    const { store } = this.services;
    const api = this.services.api();
    const id = this.services.partyId;
    const tasks: Promise<unknown>[] = [
      api.call('getTracks', { params: { id } }).then((r) => store.getState().set({ tracks: r.items })),
      api.call('listRecentChatMessages', { params: { id } }).then((r) => store.getState().setInitialChat(r.items)),
      api.call('getPlayerStatus', { params: { id } }).then((r) => {
        const s = store.getState();
        // Until the socket's time frames answer, the REST answer gives a first clock estimate.
        if (this.socket && this.socket.clockOffsetMs === 0) s.set({ clockOffsetMs: r.server_time_ms - Date.now() });
        s.set({ status: r.status });
      }),
    ];
    // Host or admin triggers loading of all blocked users (spec 6).
    if (isHostOrAdmin(roleOf(store.getState()))) tasks.push(this.loadBlocked());
    const results = await Promise.allSettled(tasks);
    for (const r of results) if (r.status === 'rejected' && !(r.reason instanceof ApiError)) console.warn(r.reason);
  }

  async loadBlocked(): Promise<void> {
    const res = await this.services.api().call('listUsers', { params: { id: this.services.partyId }, query: { can_chat: 'False' } });
    this.services.store.getState().set({ blockedUsers: res.items });
  }

  private onEvent(event: SequencedEvent): void {
    const { store } = this.services;
    if (isChatEvent(event)) {
      this.batcher.push(event);
      return;
    }
    store.getState().applyEvent(event);
    const player = this.services.player;
    switch (event.type) {
      case 'track_change':
      case 'party_started':
        void player?.onTrackChange().catch(() => undefined);
        break;
      case 'party_stopped':
        void player?.onTrackChange().catch(() => undefined);
        break;
      case 'queue_change': {
        const byId = new Map(store.getState().tracks.map((t) => [t.id, t as Track]));
        const tracks = event.queue.map((id) => byId.get(id)).filter((t): t is Track => !!t);
        void player?.onQueueChange(tracks).catch(() => undefined);
        break;
      }
      case 'user_can_chat':
        if (!event.can_chat && isHostOrAdmin(roleOf(store.getState()))) void this.loadBlocked().catch(() => undefined);
        break;
      default:
        break;
    }
  }

  stop(): void {
    this.batcher.flushNow();
    this.batcher.dispose();
    this.socket?.close();
    this.socket = null;
    if (this.realignTimer) clearInterval(this.realignTimer);
    this.realignTimer = null;
  }
}
