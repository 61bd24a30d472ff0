import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_LOGIN_STATE, type CampaignAppleLoginBody } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { appleMusicUserToken } from '../../test/logins.ts';
import { ADMIN, cmsApi, createApp, createCampaign, failure, login, startCmsServer } from '../testing.ts';

/** Follows the campaign's Spotify redirect login through the emulator as `hint`; returns the final URL. */
async function spotifyLogin(ts: TestServer, campaignId: string, redirectUri: string, hint: string, hashOutput = false): Promise<URL> {
  const start = await cmsApi(ts).call('accountLogin', {
    params: { id: campaignId, service: 'spotify' },
    query: { redirect_uri: redirectUri, state: CAMPAIGN_LOGIN_STATE, ...(hashOutput ? { hash_output: 'true' } : {}) },
  });
  expect(start.status).toBe(302);
  const authorize = new URL(start.location!);
  let res: Response;
  authorize.searchParams.set('login_hint', hint);
  let next = authorize.toString();
  for (let i = 0; i < 5; i++) {
    res = await fetch(next, { redirect: 'manual' }); // raw: the browser's hops through the provider's consent page
    const location = res.headers.get('location');
    if (!location) throw new Error(`no redirect from ${next}: ${res.status}`);
    next = new URL(location, next).toString();
    if (next.startsWith(redirectUri.split('?')[0]!) && !next.includes('/api/')) return new URL(next);
  }
  throw new Error('login did not come back');
}

describe.each(DB_TARGETS)('campaign accounts (%s)', (db) => {
  let ts: TestServer;
  let campaign: { id: string; url: string };
  /** The client with a campaign account's token (access or refresh). */
  const as = (token: string | null) => cmsApi(ts, token);

  beforeAll(async () => {
    ts = await startCmsServer(db);
    const admin = await login(ts, ADMIN.email, ADMIN.password);
    const appId = await createApp(ts, admin, 'fan-pages');
    campaign = await createCampaign(ts, admin, { app_id: appId, name: 'Login page', slug: 'login' });
  });
  afterAll(() => ts?.close());

  it('spotify redirect login through the emulator returns state=cms_account_auth and the account tokens', async () => {
    const back = await spotifyLogin(ts, campaign.id, campaign.url, 'demo-fan');
    const q = back.searchParams;
    expect(q.get('state')).toBe(CAMPAIGN_LOGIN_STATE);
    expect(q.get('auth_service')).toBe('spotify');
    for (const k of ['access_token', 'refresh_token', 'service_token', 'account_id']) expect(q.get(k)).toBeTruthy();
    expect(Number(q.get('service_expires_at'))).toBeGreaterThan(Date.now());
    const me = await as(q.get('access_token')).call('getAccountMe');
    expect(me).toEqual({ id: q.get('account_id'), service: 'spotify', email: 'demo.fan@example.com' });
    // The same streaming account logs in again: same account, new session.
    const again = await spotifyLogin(ts, campaign.id, campaign.url, 'demo-fan');
    expect(again.searchParams.get('account_id')).toBe(q.get('account_id'));
    expect(again.searchParams.get('access_token')).not.toBe(q.get('access_token'));
  });

  it('hash_output=true puts the result in the fragment', async () => {
    const back = await spotifyLogin(ts, campaign.id, campaign.url, 'lena', true);
    const frag = new URLSearchParams(back.hash.slice(1));
    expect(frag.get('state')).toBe(CAMPAIGN_LOGIN_STATE);
    expect(frag.get('access_token')).toBeTruthy();
  });

  it('a denied consent comes back with error and state', async () => {
    const back = await spotifyLogin(ts, campaign.id, campaign.url, '!no such fan');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe(CAMPAIGN_LOGIN_STATE);
    expect(back.searchParams.get('access_token')).toBeNull();
  });

  it('redirect_uri must be on the allowed list; unknown campaigns 404', async () => {
    const loginTo = (id: string, redirectUri: string) => cmsApi(ts).call('accountLogin', { params: { id, service: 'spotify' }, query: { redirect_uri: redirectUri } });
    const evil = await failure(loginTo(campaign.id, 'https://evil.example/'));
    expect(evil.status).toBe(400);
    expect(evil.message).toMatch(/redirect_uri/);
    expect((await failure(loginTo('nope', campaign.url))).status).toBe(404);
    const forged = await failure(cmsApi(ts).call('accountSpotifyCallback', { query: { code: 'x', state: 'forged.state' } }));
    expect(forged.status).toBe(400);
  });

  it('refresh rotates the refresh token on each use; a reused old refresh token revokes the session', async () => {
    const q = (await spotifyLogin(ts, campaign.id, campaign.url, 'sam')).searchParams;
    const r1 = await as(q.get('refresh_token')).call('refreshAccountSession');
    expect(r1.refresh_token).not.toBe(q.get('refresh_token'));
    expect(r1.access_token).not.toBe(q.get('access_token'));
    expect(r1).toMatchObject({ service: 'spotify', account_id: q.get('account_id') });
    // The old access token is replaced by the new one.
    expect((await failure(as(q.get('access_token')).call('getAccountMe'))).status).toBe(401);
    expect(await as(r1.access_token).call('getAccountMe')).toBeTruthy();

    const r2 = await as(r1.refresh_token).call('refreshAccountSession');

    // Replay of the first (spent) refresh token: refused, and the whole session dies.
    const replay = await failure(as(q.get('refresh_token')).call('refreshAccountSession'));
    expect(replay.status).toBe(401);
    expect((await failure(as(r2.access_token).call('getAccountMe'))).status).toBe(401);
    const legit = await failure(as(r2.refresh_token).call('refreshAccountSession'));
    expect(legit.status).toBe(401);
  });

  it('refresh after the access token expired also renews the provider token', async () => {
    const q = (await spotifyLogin(ts, campaign.id, campaign.url, 'host-hanna')).searchParams;
    const realNow = ts.server.ctx.now;
    const t0 = realNow();
    ts.server.ctx.now = () => t0 + 2 * 3600_000;
    try {
      expect((await failure(as(q.get('access_token')).call('getAccountMe'))).status).toBe(401);
      const r = await as(q.get('refresh_token')).call('refreshAccountSession');
      expect(r.service_token).not.toBe(q.get('service_token'));
      expect(await as(r.access_token).call('getAccountMe')).toBeTruthy();
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it('DELETE /api/accounts/session with the refresh token logs out', async () => {
    const q = (await spotifyLogin(ts, campaign.id, campaign.url, 'demo-fan')).searchParams;
    await expect(as(q.get('refresh_token')).call('accountLogout')).resolves.toBeUndefined();
    expect((await failure(as(q.get('access_token')).call('getAccountMe'))).status).toBe(401);
    expect((await failure(as(q.get('refresh_token')).call('refreshAccountSession'))).status).toBe(401);
    expect((await failure(as(null).call('accountLogout'))).status).toBe(401);
  });

  it('apple login with a music user token gives account tokens; a bad token is 401', async () => {
    const musicUserToken = await appleMusicUserToken(ts.partyUrl, 'lena');
    const r = await cmsApi(ts).call('accountAppleLogin', { params: { id: campaign.id }, body: { music_user_token: musicUserToken } });
    expect(r).toMatchObject({ service: 'apple', service_token: musicUserToken });
    const me = await as(r.access_token).call('getAccountMe');
    expect(me).toMatchObject({ service: 'apple', email: null });
    const bad = await failure(cmsApi(ts).call('accountAppleLogin', { params: { id: campaign.id }, body: { music_user_token: 'forged' } }));
    expect(bad.status).toBe(401);
    expect((await failure(cmsApi(ts).call('accountAppleLogin', { params: { id: campaign.id }, body: {} as CampaignAppleLoginBody }))).status).toBe(422);
  });
});
