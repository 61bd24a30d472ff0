// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebSocketLike } from '@fanfare/client';
import { createServices } from '../app/services.ts';
import { fakeFetch, memoryStorage } from '../test/fixtures.ts';
import { LiveSession, PROBE_INTERVAL_MS, PROBE_TIMEOUT_MS, SYNC_TICK_MS, type PageSignals } from './liveSession.ts';

/** A socket the test drives: it opens when told and records what the client sent. */
class FakeSocket implements WebSocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  serverSend(events: unknown[]): void {
    this.onmessage?.({ data: JSON.stringify(events) });
  }
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
  }
}

function signals() {
  const listeners = new Map<string, () => void>();
  let online = true;
  const page: PageSignals = {
    isOnline: () => online,
    isVisible: () => true,
    on: (event, listener) => {
      listeners.set(event, listener);
      return () => listeners.delete(event);
    },
  };
  return { page, goOffline: () => ((online = false), listeners.get('offline')?.()), goOnline: () => ((online = true), listeners.get('online')?.()) };
}

function session() {
  const fetch = fakeFetch({
    'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
    'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: [] } }),
    'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: null, server_time_ms: Date.now() } }),
  });
  const services = createServices({ partyId: 'demo', baseUrl: 'http://party.test', storage: memoryStorage(), win: window, fetch: fetch as unknown as typeof globalThis.fetch, analytics: { loginSuccess: () => undefined, loginFailure: () => undefined } });
  services.store.getState().set({ token: 'T' });
  const s = signals();
  const live = new LiveSession(services, FakeSocket, s.page);
  return { services, live, ...s };
}

afterEach(() => {
  FakeSocket.all = [];
  vi.useRealTimers();
});

describe('live session: the connection heals itself and tells the truth', () => {
  it('offline closes the socket (no retries that would end in the global error); online opens a new one that resumes from the last seq_id', async () => {
    const t = session();
    await t.live.start();
    const first = FakeSocket.all[0]!;
    first.open();
    first.serverSend([{ type: 'hello', seq_id: 41, server_time_ms: Date.now(), user_id: 'u', role: 'listener' }]);
    first.serverSend([{ type: 'chat_cleared', seq_id: 42, server_time_ms: Date.now() }]);
    t.goOffline();
    expect(t.services.store.getState().isOnline).toBe(false);
    expect(first.closed).toBe(true);
    expect(FakeSocket.all).toHaveLength(1);
    t.goOnline();
    expect(FakeSocket.all).toHaveLength(2);
    const second = FakeSocket.all[1]!;
    second.open();
    expect(second.sent.map((m) => JSON.parse(m) as { type: string; last_seq_id?: number })).toContainEqual({ type: 'resume', last_seq_id: 42 });
    expect(t.services.store.getState().connection.kind).toBe('live');
    t.live.stop();
  });

  it(`a socket that does not answer a probe within PROBE_TIMEOUT_MS (${PROBE_TIMEOUT_MS} ms) is replaced; presence and reactions reach the store`, async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    const t = session();
    await t.live.start();
    const first = FakeSocket.all[0]!;
    first.open();
    first.serverSend([{ type: 'hello', seq_id: 1, server_time_ms: Date.now(), user_id: 'u', role: 'listener' }, { type: 'presence', listeners: 1200 }]);
    first.serverSend([{ type: 'reactions', track_id: 't1', counts: { fire: 3 } }]);
    expect(t.services.store.getState().listeners).toBe(1200);
    expect(t.services.store.getState().reactionBursts).toEqual([{ id: 1, reaction: 'fire', count: 3 }]);
    // Silence: the network is gone but the socket still looks open.
    await vi.advanceTimersByTimeAsync(PROBE_INTERVAL_MS + SYNC_TICK_MS);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS + 2 * SYNC_TICK_MS);
    expect(FakeSocket.all.length).toBeGreaterThanOrEqual(2);
    expect(first.closed).toBe(true);
    t.live.stop();
  });
});

describe('live session: back after a resync, the fan has every chat message', () => {
  const msg = (seq: number, extra: Record<string, unknown> = {}) => ({
    id: `m${seq}`,
    seq_id: seq,
    timestamp_ms: 1_000 + seq,
    type: 'message',
    text: `message ${seq}`,
    sender: null,
    ...extra,
  });

  it('a resync pages every message after the last one the fan has (never only the newest page), and drops what was deleted meanwhile', async () => {
    // The server holds messages 1..450; the fan saw 1..10; message 449 was deleted while it was away.
    const stored = Array.from({ length: 450 }, (_, i) => msg(i + 1)).filter((m) => m.seq_id !== 449);
    const asked: string[] = [];
    const fetch = fakeFetch({
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
      'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: stored.slice(-80) } }),
      'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: null, server_time_ms: Date.now() } }),
      'GET /api/parties/demo/chat/messages': ({ query }) => {
        const after = Number(query.get('after_seq_id'));
        const limit = Number(query.get('limit'));
        asked.push(`${after}/${limit}`);
        return { status: 200, body: { items: stored.filter((m) => m.seq_id > after).slice(0, limit) } };
      },
    });
    const services = createServices({ partyId: 'demo', baseUrl: 'http://party.test', storage: memoryStorage(), win: window, fetch: fetch as unknown as typeof globalThis.fetch, analytics: { loginSuccess: () => undefined, loginFailure: () => undefined } });
    services.store.getState().set({ token: 'T' });
    const live = new LiveSession(services, FakeSocket, signals().page);
    await live.start();
    services.store.getState().setInitialChat(stored.slice(0, 10) as never);
    services.store.getState().applyChat([msg(449)] as never);
    const socket = FakeSocket.all[0]!;
    socket.open();
    socket.serverSend([{ type: 'hello', seq_id: 449, server_time_ms: Date.now(), user_id: 'u', role: 'listener' }]);
    socket.serverSend([{ type: 'resync', reason: 'missed_events', seq_id: 450, status: null }]);
    await vi.waitFor(() => expect(asked).toEqual(['449/200']));
    // The cursor is the highest seq_id the fan has: 449 (shown before its deletion).
    const ids = services.store.getState().messages.map((m) => m.seq_id);
    expect(ids).toContain(450);
    expect(ids).not.toContain(449);
  });

  it('the catch-up starts from the last message and pages until a page comes back short, with the newest page read alongside (one round trip less in a storm)', async () => {
    const stored = Array.from({ length: 450 }, (_, i) => msg(i + 1));
    const asked: number[] = [];
    const order: string[] = [];
    const fetch = fakeFetch({
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
      'GET /api/parties/demo/chat/recent': () => (order.push('recent'), { status: 200, body: { items: stored.slice(-80) } }),
      'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: null, server_time_ms: Date.now() } }),
      'GET /api/parties/demo/chat/messages': ({ query }) => {
        const after = Number(query.get('after_seq_id'));
        asked.push(after);
        order.push(`after ${after}`);
        return { status: 200, body: { items: stored.filter((m) => m.seq_id > after).slice(0, Number(query.get('limit'))) } };
      },
    });
    const services = createServices({ partyId: 'demo', baseUrl: 'http://party.test', storage: memoryStorage(), win: window, fetch: fetch as unknown as typeof globalThis.fetch, analytics: { loginSuccess: () => undefined, loginFailure: () => undefined } });
    services.store.getState().set({ token: 'T' });
    const live = new LiveSession(services, FakeSocket, signals().page);
    await live.start();
    services.store.getState().setInitialChat(stored.slice(0, 10) as never);
    const socket = FakeSocket.all[0]!;
    socket.open();
    socket.serverSend([{ type: 'resync', reason: 'missed_events', seq_id: 450, status: null }]);
    await vi.waitFor(() => expect(asked).toEqual([10, 210, 410]));
    // The load at start read the newest page once; the catch-up read it again before its last page.
    expect(order.slice(0, order.indexOf('after 410')).filter((r) => r === 'recent')).toHaveLength(2);
    const ids = services.store.getState().messages.map((m) => m.seq_id);
    // Every message from 11 to 450 arrived (the store keeps the newest CHAT_MAX_KEPT).
    expect(ids.slice(-440)).toEqual(Array.from({ length: 440 }, (_, i) => i + 11));
  });
  it('listening-party §4 resume: a live message that lands between hello and resync does not move the catch-up past the gap', async () => {
    const stored = Array.from({ length: 450 }, (_, i) => msg(i + 1));
    const asked: number[] = [];
    const fetch = fakeFetch({
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [], options: null, excluded: [] } }),
      'GET /api/parties/demo/chat/recent': () => ({ status: 200, body: { items: stored.slice(-80) } }),
      'GET /api/parties/demo/player/status': () => ({ status: 200, body: { status: null, server_time_ms: Date.now() } }),
      'GET /api/parties/demo/chat/messages': ({ query }) => {
        const after = Number(query.get('after_seq_id'));
        asked.push(after);
        return { status: 200, body: { items: stored.filter((m) => m.seq_id > after).slice(0, Number(query.get('limit'))) } };
      },
    });
    const services = createServices({ partyId: 'demo', baseUrl: 'http://party.test', storage: memoryStorage(), win: window, fetch: fetch as unknown as typeof globalThis.fetch, analytics: { loginSuccess: () => undefined, loginFailure: () => undefined } });
    services.store.getState().set({ token: 'T' });
    const s = signals();
    const live = new LiveSession(services, FakeSocket, s.page);
    await live.start();
    services.store.getState().setInitialChat(stored.slice(0, 10) as never);
    const first = FakeSocket.all[0]!;
    first.open();
    first.serverSend([{ type: 'hello', seq_id: 10, server_time_ms: Date.now(), user_id: 'u', role: 'listener' }]);
    // Away while 11..440 are posted (a restart); back on a node that says hello at 440.
    s.goOffline();
    s.goOnline();
    const second = FakeSocket.all[1]!;
    second.open();
    expect(second.sent.map((t) => JSON.parse(t) as { type: string; last_seq_id?: number }).find((f) => f.type === 'resume')?.last_seq_id).toBe(10);
    second.serverSend([{ type: 'hello', seq_id: 440, server_time_ms: Date.now(), user_id: 'u', role: 'listener' }]);
    second.serverSend([{ ...msg(441), server_time_ms: Date.now() }]);
    await vi.waitFor(() => expect(services.store.getState().messages.map((m) => m.seq_id)).toContain(441));
    second.serverSend([{ type: 'resync', reason: 'missed_events', seq_id: 441, status: null }]);
    await vi.waitFor(() => expect(asked).toEqual([10, 210, 410]));
    const ids = services.store.getState().messages.map((m) => m.seq_id);
    expect(ids.slice(-440)).toEqual(Array.from({ length: 440 }, (_, i) => i + 11));
  });
});

