import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCmsClient } from './cms.ts';
import type { FetchLike } from './http.ts';
import { PartyClient, createPartyClient } from './partyClient.ts';

interface Sent {
  url: string;
  key: string | undefined;
}

/** A fetch that answers from `script` in turn (a status with headers, or 'network' for no answer) and records each call. */
function scripted(script: (number | 'network' | { status: number; headers: Record<string, string> })[], sent: Sent[]): FetchLike {
  let i = 0;
  return async (url, init) => {
    sent.push({ url, key: (init?.headers as Record<string, string>)['idempotency-key'] });
    const step = script[Math.min(i++, script.length - 1)]!;
    if (step === 'network') throw new TypeError('Failed to fetch');
    const { status, headers } = typeof step === 'number' ? { status: step, headers: {} } : step;
    const body = status === 201 ? JSON.stringify(MESSAGE) : JSON.stringify({ detail: 'Service temporarily unavailable' });
    return new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
  };
}

const MESSAGE = { id: 'm1', seq_id: 1, text: 'hi' };

/** Runs `work` while moving fake timers on, so the backoff waits pass at once. */
async function withTimers<T>(work: Promise<T>): Promise<T> {
  let done = false;
  void work.finally(() => (done = true)).catch(() => undefined);
  for (let i = 0; i < 100 && !done; i++) await vi.advanceTimersByTimeAsync(1_000);
  return work;
}

describe('safe retries of creating calls: one Idempotency-Key per user action', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const post = (fetch: FetchLike, retries = 3) =>
    createPartyClient({ baseUrl: 'http://party', token: () => 't', fetch, retries, validateResponse: false })
      .call('postChatMessage', { params: { id: 'p' }, body: { text: 'hi' } }, {})
      .then(
        () => 'ok' as const,
        (e: { status: number; kind: string }) => `${e.kind} ${e.status}`,
      );

  it('a 503 is retried with the same Idempotency-Key until it succeeds', async () => {
    const sent: Sent[] = [];
    const result = await withTimers(post(scripted([503, 503, 201], sent)));
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    expect(sent[0]!.key).toMatch(/^[0-9a-f]{32}$/);
    expect(result).toBe('ok');
  });

  it('a network error (no answer) is retried with the same key', async () => {
    const sent: Sent[] = [];
    await withTimers(post(scripted(['network', 201], sent)));
    expect(sent.map((s) => s.key)).toEqual([sent[0]!.key, sent[0]!.key]);
  });

  it('gives up after the configured retries and reports the last answer', async () => {
    const sent: Sent[] = [];
    expect(await withTimers(post(scripted([503], sent), 2))).toBe('http 503');
    expect(sent).toHaveLength(3);
  });

  it('a replayed 503 (the first attempt stored its work) is final: no more retries', async () => {
    const sent: Sent[] = [];
    expect(await withTimers(post(scripted([503, { status: 503, headers: { 'idempotency-replayed': 'true' } }, 201], sent)))).toBe('http 503');
    expect(sent).toHaveLength(2);
  });

  it('a 409 with Retry-After (first attempt still running) is retried; a plain 4xx is not', async () => {
    const a: Sent[] = [];
    await withTimers(post(scripted([{ status: 409, headers: { 'retry-after': '1' } }, 201], a)));
    expect(a).toHaveLength(2);
    const b: Sent[] = [];
    expect(await withTimers(post(scripted([422], b)))).toBe('http 422');
    expect(b).toHaveLength(1);
  });

  it('each user action (call) gets its own key', async () => {
    const sent: Sent[] = [];
    const fetch = scripted([201], sent);
    await withTimers(post(fetch));
    await withTimers(post(fetch));
    expect(sent[0]!.key).not.toBe(sent[1]!.key);
  });

  it('calls that create nothing carry no key and are not retried', async () => {
    const sent: Sent[] = [];
    const client = new PartyClient({ baseUrl: 'http://party', accessToken: 't', fetch: scripted([503], sent), retries: 3 });
    await withTimers(client.call('getParty', { params: { id: 'p' } }).catch(() => undefined));
    expect(sent).toEqual([{ url: 'http://party/api/parties/p', key: undefined }]);
  });

  it('the campaign page’s newsletter signup (CMS client) carries a key and retries a 503', async () => {
    const sent: Sent[] = [];
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: scripted([503, { status: 202, headers: {} }], sent), retries: 3 });
    await withTimers(cms.call('newsletterSignup', { params: { id: 'c' }, body: { email: 'a@example.com', newsletter_ids: ['n'], consent: true } as never }).catch(() => undefined));
    expect(sent).toHaveLength(2);
    expect(sent[0]!.key).toBeDefined();
    expect(sent[1]!.key).toBe(sent[0]!.key);
  });
});
