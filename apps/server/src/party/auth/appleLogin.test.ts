/**
 * Apple login (`POST /api/auth/apple/login` and the campaign's account login): rate limited per
 * client address, and a token that cannot be one is refused with a 4xx and `detail`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PartyClient, type CallOptions } from '@fanfare/client/party';
import { ErrorBody } from '@fanfare/protocol';
import { DB_TARGETS, startTestServer, type TestServer } from '../../test/harness.ts';
import { expectRefused, json, send } from '../../test/rawRequests.ts';
import { cmsApi, startCmsServer, statusOf } from '../../cms/testing.ts';

describe('Apple login rate limit (SQLite)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { APPLE_LOGIN_RATE_LIMIT: '3' } });
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

  it('Apple login is rate limited per client address, on the party and the campaign listener, with a detail', async () => {
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
});

describe.each(DB_TARGETS)('Apple login with a bad token on %s', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startCmsServer(db);
  });
  afterAll(async () => t?.close());

  it("listening-party §8: Apple login with a non-Latin-1 or a megabyte token answers 422 (party and campaign)", async () => {
    for (const token of ["ünïcødé✓", "x".repeat(1_000_000)]) {
      const body = JSON.stringify({ music_user_token: token });
      expectRefused(
        await send(`${t.partyUrl}/api/auth/apple/login`, json(body)),
      );
      expectRefused(
        await send(
          `${t.cmsUrl}/api/campaigns/some-campaign/auth/apple/login`,
          json(body),
        ),
      );
    }
  });
});
