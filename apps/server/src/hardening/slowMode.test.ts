/** Issue 10: a party-wide slow mode hosts can switch on (one message per N seconds per listener). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_SLOW_MODE_ERROR } from '@fanfare/protocol';
import { DB_TARGETS, TEST_CMS_TOKEN, startTestServer, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';

const PARTY = 'slow-party';

describe.each(DB_TARGETS)('issue 10 slow mode on %s', (db) => {
  let t: TestServer;
  const tokens: Record<string, string> = {};
  const call = (method: string, path: string, token: string | null, body?: unknown) =>
    fetch(`${t.partyUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    t = await startTestServer({ db });
    const cms = { 'content-type': 'application/json', 'x-cms-token': TEST_CMS_TOKEN };
    await fetch(`${t.partyUrl}/api/parties/${PARTY}`, { method: 'PUT', headers: cms, body: JSON.stringify({ name: 'Slow' }) });
    for (const hint of ['slow-host', 'slow-fan']) {
      tokens[hint] = (await loginWithSpotify(t.partyUrl, hint, { partyId: PARTY })).accessToken;
      await call('POST', `/api/parties/${PARTY}/users`, tokens[hint]!, { real_name: hint, display_name: hint });
    }
    const host = await (await call('GET', '/api/users/me', tokens['slow-host']!)).json() as { service_user_id: string };
    await fetch(`${t.partyUrl}/api/parties/${PARTY}/grants`, { method: 'POST', headers: cms, body: JSON.stringify({ service: 'spotify', service_id: host.service_user_id, role: 'host', display_name: 'Host' }) });
  });
  afterAll(async () => t?.close());

  it('issue 10: only hosts and admins switch slow mode; then a listener posts once per interval (429 ChatSlowMode), hosts are exempt', async () => {
    expect((await call('PUT', `/api/parties/${PARTY}/chat/slow_mode`, tokens['slow-fan']!, { seconds: 60 })).status).toBe(403);
    const on = await call('PUT', `/api/parties/${PARTY}/chat/slow_mode`, tokens['slow-host']!, { seconds: 60 });
    expect(on.status).toBe(200);
    expect(await on.json()).toEqual({ seconds: 60 });

    expect((await call('POST', `/api/parties/${PARTY}/chat/messages`, tokens['slow-fan']!, { text: 'first' })).status).toBeLessThan(300);
    const second = await call('POST', `/api/parties/${PARTY}/chat/messages`, tokens['slow-fan']!, { text: 'second' });
    expect(second.status).toBe(429);
    const detail = ((await second.json()) as { detail: { type: string; retry_after_ms: number } }).detail;
    expect(detail.type).toBe(CHAT_SLOW_MODE_ERROR);
    expect(detail.retry_after_ms).toBeGreaterThan(50_000);
    for (const text of ['host 1', 'host 2']) expect((await call('POST', `/api/parties/${PARTY}/chat/messages`, tokens['slow-host']!, { text })).status).toBeLessThan(300);

    // Off again: the listener posts at once.
    await call('PUT', `/api/parties/${PARTY}/chat/slow_mode`, tokens['slow-host']!, { seconds: 0 });
    expect((await call('POST', `/api/parties/${PARTY}/chat/messages`, tokens['slow-fan']!, { text: 'third' })).status).toBeLessThan(300);
  });
});
