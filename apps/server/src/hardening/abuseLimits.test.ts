/** Issue 10, "Abuse paths": Apple login and anonymous signups are rate limited per client address. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PartyClient, type CallOptions } from '@fanfare/client/party';
import { ErrorBody } from '@fanfare/protocol';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { TEST_CMS_TOKEN } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';
import { cmsApi, statusOf } from '../cms/testing.ts';

describe('issue 10 rate limits (SQLite)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { APPLE_LOGIN_RATE_LIMIT: '3', ANON_SIGNUP_RATE_LIMIT: '2' } });
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

  it('issue 10: Apple login is rate limited per client address, on the party and the campaign listener, with a detail', async () => {
    const body = { music_user_token: 'not-a-real-token' };
    const party = new PartyClient({ baseUrl: t.partyUrl });
    const campaign = cmsApi(t);
    const logins: ((opts?: CallOptions) => Promise<unknown>)[] = [
      (opts) => party.call('appleLogin', { body }, opts),
      (opts) => campaign.call('accountAppleLogin', { params: { id: 'any' }, body }, opts),
    ];
    for (const login of logins) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push(await statusOf((opts) => login(opts)));
      expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
      await limited(login());
    }
  });

  it('issue 10: anonymous signups are limited per client address; signups with a login are not counted', async () => {
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
