/** A party-wide slow mode hosts can switch on (one message per N seconds per listener). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PartyClient } from '@fanfare/client/party';
import { CHAT_SLOW_MODE_ERROR, ErrorBody } from '@fanfare/protocol';
import { DB_TARGETS, TEST_CMS_TOKEN, startTestServer, type TestServer } from '../../test/harness.ts';
import { loginWithSpotify } from '../../test/logins.ts';

const PARTY = 'slow-party';

/** The `ApiError` a call fails with (the test fails when it succeeds). */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  const e = await call.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

describe.each(DB_TARGETS)('chat slow mode on %s', (db) => {
  let t: TestServer;
  const fans: Record<string, PartyClient> = {};
  const params = { id: PARTY };

  beforeAll(async () => {
    t = await startTestServer({ db });
    const cms = new PartyClient({ baseUrl: t.partyUrl, cmsToken: TEST_CMS_TOKEN });
    await cms.call('putParty', { params, body: { name: 'Slow' } });
    for (const hint of ['slow-host', 'slow-fan']) {
      const fan = new PartyClient({ baseUrl: t.partyUrl, accessToken: (await loginWithSpotify(t.partyUrl, hint, { partyId: PARTY })).accessToken });
      await fan.call('signup', { params, body: { real_name: hint, display_name: hint } });
      fans[hint] = fan;
    }
    const host = await fans['slow-host']!.call('getSystemMe');
    await cms.call('postGrant', { params, body: { service: 'spotify', service_id: host.service_user_id!, role: 'host', display_name: 'Host' } });
  });
  afterAll(async () => t?.close());

  it('only hosts and admins switch slow mode; then a listener posts once per interval (429 ChatSlowMode), hosts are exempt', async () => {
    const host = fans['slow-host']!;
    const fan = fans['slow-fan']!;
    expect((await failure(fan.call('setSlowMode', { params, body: { seconds: 60 } }))).status).toBe(403);
    expect(await host.call('setSlowMode', { params, body: { seconds: 60 } })).toEqual({ seconds: 60 });

    await fan.call('postChatMessage', { params, body: { text: 'first' } });
    const second = await failure(fan.call('postChatMessage', { params, body: { text: 'second' } }));
    expect(second.status).toBe(429);
    const detail = ErrorBody.parse(second.body).detail;
    if (typeof detail !== 'object' || Array.isArray(detail)) throw new Error(`expected a detail object, got ${JSON.stringify(detail)}`);
    expect(detail.type).toBe(CHAT_SLOW_MODE_ERROR);
    expect(detail.retry_after_ms).toBeGreaterThan(50_000);
    for (const text of ['host 1', 'host 2']) await host.call('postChatMessage', { params, body: { text } });

    // Off again: the listener posts at once.
    await host.call('setSlowMode', { params, body: { seconds: 0 } });
    await fan.call('postChatMessage', { params, body: { text: 'third' } });
  });
});
