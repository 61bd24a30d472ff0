import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, login, startCmsServer } from '../../cms/testing.ts';
import { loginWithSpotify } from '../../test/logins.ts';

describe.each(DB_TARGETS)("issue 15: party admin calls accept the CMS user's bearer as well as X-Cms-Token, on %s", (db) => {
  let ts: TestServer;
  let cmsToken: string;
  beforeAll(async () => {
    ts = await startCmsServer(db);
    cmsToken = await login(ts, ADMIN.email, ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    await ts?.close();
  });

  const grants = (headers: Record<string, string>) => fetch(`${ts.partyUrl}/api/parties/demo/grants`, { headers });

  it('the same CMS user token works as Authorization: Bearer and as X-Cms-Token', async () => {
    expect((await grants({ authorization: `Bearer ${cmsToken}` })).status).toBe(200);
    expect((await grants({ 'x-cms-token': cmsToken })).status).toBe(200);
  });

  it('stop, which the app\'s hosts may also call, takes the CMS user\'s bearer too', async () => {
    const stop = await fetch(`${ts.partyUrl}/api/parties/demo/stop`, { method: 'POST', headers: { authorization: `Bearer ${cmsToken}` } });
    expect(stop.status).toBe(200);
  });

  it("a fan's bearer is no CMS token (401); a wrong X-Cms-Token is refused (403); nothing is 401", async () => {
    const fan = (await loginWithSpotify(ts.partyUrl, 'demo-fan', { partyId: 'demo' })).accessToken;
    const asFan = await grants({ authorization: `Bearer ${fan}` });
    expect(asFan.status).toBe(401);
    expect(await asFan.json()).toHaveProperty('detail');
    expect((await grants({ 'x-cms-token': 'not-a-cms-token-at-all' })).status).toBe(403);
    expect((await grants({})).status).toBe(401);
  });
});
