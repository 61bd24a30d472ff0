/**
 * Signup (`POST /api/parties/{id}/users`): anonymous signups are rate limited per client address,
 * and the profile fields a fan sends are checked and bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PartyClient } from '@fanfare/client/party';
import { ErrorBody } from '@fanfare/protocol';
import { DB_TARGETS, TEST_CMS_TOKEN, startTestServer, type TestServer } from '../../test/harness.ts';
import { loginWithSpotify } from '../../test/logins.ts';
import { PARTY, expectStatus, startChatWorld, type ChatWorld } from '../chat/testkit.ts';

describe('anonymous signup rate limit (SQLite)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ANON_SIGNUP_RATE_LIMIT: '2' } });
  });
  afterAll(async () => t?.close());


  /** The `ApiError` of a call refused with 429, with its `detail` checked. */
  async function limited(call: Promise<unknown>): Promise<void> {
    const e = await call.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(429);
    expect(ErrorBody.parse((e as ApiError).body).detail).toBeTruthy();
  }

  it('spec notes, identity: anonymous signups (login_required false) are limited per client address; signups with a login are not counted', async () => {
    const params = { id: 'open-signup' };
    await new PartyClient({ baseUrl: t.partyUrl, cmsToken: TEST_CMS_TOKEN }).call('putParty', { params, body: { login_required: false } });
    const anon = new PartyClient({ baseUrl: t.partyUrl });
    await anon.call('signup', { params, body: { real_name: 'A', display_name: 'anon-a' } });
    await anon.call('signup', { params, body: { real_name: 'B', display_name: 'anon-b' } });
    await limited(anon.call('signup', { params, body: { real_name: 'C', display_name: 'anon-c' } }));
    const { accessToken } = await loginWithSpotify(t.partyUrl, 'signed-in-fan', { partyId: 'open-signup' });
    await anon.withAccessToken(accessToken).call('signup', { params, body: { real_name: 'D', display_name: 'logged-in-d' } });
  });
});

describe.each(DB_TARGETS)('signup profile fields on %s', (db) => {
  let w: ChatWorld;
  const params = { id: PARTY };
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());

  it('listening-party §3 user: profile_sticker must be one of the party stickers and profile_picture ours or https, both bounded', async () => {
    const fan = await w.appleFan('profile-bounds-fan', 'Bounds');
    const base = { real_name: 'Bounds', display_name: 'Bounds' };
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_sticker: 'not-a-sticker' } }), 422);
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_sticker: 'x'.repeat(2_000_000) } }), 422);
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_picture: `https://example.com/${'a'.repeat(2_000_000)}` } }), 422);
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_picture: 'http://evil.example/p.png' } }), 422);
    const stickers = (await w.fan.client.call('getParty', { params })).frontend.visual?.stickers ?? [];
    const ok = await fan.client.call('signup', {
      params,
      body: { ...base, profile_picture: 'https://images.example.com/me.png', ...(stickers[0] ? { profile_sticker: stickers[0] } : {}) },
    });
    expect(ok.id).toBe(fan.id);
  });
});
