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
