import { ApiError, PartyClient, createPartyClient } from '@fanfare/client/party';
import { ErrorBody } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, login, startCmsServer, statusOf } from '../../cms/testing.ts';
import { loginWithSpotify } from '../../test/logins.ts';

describe.each(DB_TARGETS)("party admin calls accept the CMS user's bearer as well as X-Cms-Token, on %s", (db) => {
  let ts: TestServer;
  let cmsToken: string;
  beforeAll(async () => {
    ts = await startCmsServer(db);
    cmsToken = await login(ts, ADMIN.email, ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    await ts?.close();
  });

  const params = { id: 'demo' };
  /** A party client sending `Authorization: Bearer <token>`. */
  const withBearer = (token: string) => createPartyClient({ baseUrl: ts.partyUrl, token: () => token });
  /** A party client sending `X-Cms-Token: <token>` (the admin tool's header). */
  const withCmsHeader = (token: string | null) => new PartyClient({ baseUrl: ts.partyUrl, cmsToken: token });

  it('the same CMS user token works as Authorization: Bearer and as X-Cms-Token', async () => {
    expect((await withBearer(cmsToken).call('listGrants', { params })).items).toBeInstanceOf(Array);
    expect((await withCmsHeader(cmsToken).call('listGrants', { params })).items).toBeInstanceOf(Array);
  });

  it('stop, which the app\'s hosts may also call, takes the CMS user\'s bearer too', async () => {
    expect(await statusOf((opts) => withBearer(cmsToken).call('stopParty', { params }, opts))).toBe(200);
  });

  it("a fan's bearer is no CMS token (401); a wrong X-Cms-Token is refused (403); nothing is 401", async () => {
    const fan = (await loginWithSpotify(ts.partyUrl, 'demo-fan', { partyId: 'demo' })).accessToken;
    const asFan = await withBearer(fan).call('listGrants', { params }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(asFan).toBeInstanceOf(ApiError);
    expect((asFan as ApiError).status).toBe(401);
    expect(ErrorBody.parse((asFan as ApiError).body).detail).toBeTruthy();
    expect(await statusOf((opts) => withCmsHeader('not-a-cms-token-at-all').call('listGrants', { params }, opts))).toBe(403);
    expect(await statusOf((opts) => withCmsHeader(null).call('listGrants', { params }, opts))).toBe(401);
  });
});
