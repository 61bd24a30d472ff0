import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_LOGIN_STATE } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, call, createApp, createCampaign, login, startCmsServer } from '../testing.ts';

/** Follows the campaign's Spotify redirect login through the emulator as `hint`; returns the final URL. */
async function spotifyLogin(ts: TestServer, campaignId: string, redirectUri: string, hint: string, extra = ''): Promise<URL> {
  let res = await fetch(
    `${ts.cmsUrl}/api/campaigns/${campaignId}/auth/spotify/login?redirect_uri=${encodeURIComponent(redirectUri)}&state=${CAMPAIGN_LOGIN_STATE}${extra}`,
    { redirect: 'manual' },
  );
  expect(res.status).toBe(302);
  const authorize = new URL(res.headers.get('location')!);
  authorize.searchParams.set('login_hint', hint);
  let next = authorize.toString();
  for (let i = 0; i < 5; i++) {
    res = await fetch(next, { redirect: 'manual' });
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
    const me = await call(ts, 'GET', '/api/accounts/me', { token: q.get('access_token')! });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ id: q.get('account_id'), service: 'spotify', email: 'demo.fan@example.com' });
    // The same streaming account logs in again: same account, new session.
    const again = await spotifyLogin(ts, campaign.id, campaign.url, 'demo-fan');
    expect(again.searchParams.get('account_id')).toBe(q.get('account_id'));
    expect(again.searchParams.get('access_token')).not.toBe(q.get('access_token'));
  });

  it('hash_output=true puts the result in the fragment', async () => {
    const back = await spotifyLogin(ts, campaign.id, campaign.url, 'lena', '&hash_output=true');
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
    const evil = await fetch(`${ts.cmsUrl}/api/campaigns/${campaign.id}/auth/spotify/login?redirect_uri=${encodeURIComponent('https://evil.example/')}`, { redirect: 'manual' });
    expect(evil.status).toBe(400);
    expect((await evil.json()).detail).toMatch(/redirect_uri/);
    const missing = await fetch(`${ts.cmsUrl}/api/campaigns/nope/auth/spotify/login?redirect_uri=${encodeURIComponent(campaign.url)}`, { redirect: 'manual' });
    expect(missing.status).toBe(404);
    const forged = await fetch(`${ts.cmsUrl}/api/accounts/auth/spotify/callback?code=x&state=forged.state`, { redirect: 'manual' });
    expect(forged.status).toBe(400);
  });

  it('refresh rotates the refresh token on each use; a reused old refresh token revokes the session', async () => {
    const q = (await spotifyLogin(ts, campaign.id, campaign.url, 'sam')).searchParams;
    const r1 = await call(ts, 'POST', '/api/accounts/session/refresh', { headers: { authorization: `Bearer ${q.get('refresh_token')}` } });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(q.get('refresh_token'));
    expect(r1.body.access_token).not.toBe(q.get('access_token'));
    expect(r1.body).toMatchObject({ service: 'spotify', account_id: q.get('account_id') });
    // The old access token is replaced by the new one.
    expect((await call(ts, 'GET', '/api/accounts/me', { token: q.get('access_token')! })).status).toBe(401);
    expect((await call(ts, 'GET', '/api/accounts/me', { token: r1.body.access_token })).status).toBe(200);

    const r2 = await call(ts, 'POST', '/api/accounts/session/refresh', { headers: { authorization: `Bearer ${r1.body.refresh_token}` } });
    expect(r2.status).toBe(200);

    // Replay of the first (spent) refresh token: refused, and the whole session dies.
    const replay = await call(ts, 'POST', '/api/accounts/session/refresh', { headers: { authorization: `Bearer ${q.get('refresh_token')}` } });
    expect(replay.status).toBe(401);
    expect((await call(ts, 'GET', '/api/accounts/me', { token: r2.body.access_token })).status).toBe(401);
    const legit = await call(ts, 'POST', '/api/accounts/session/refresh', { headers: { authorization: `Bearer ${r2.body.refresh_token}` } });
    expect(legit.status).toBe(401);
  });

  it('refresh after the access token expired also renews the provider token', async () => {
    const q = (await spotifyLogin(ts, campaign.id, campaign.url, 'host-hanna')).searchParams;
    const realNow = ts.server.ctx.now;
    const t0 = realNow();
    ts.server.ctx.now = () => t0 + 2 * 3600_000;
    try {
      expect((await call(ts, 'GET', '/api/accounts/me', { token: q.get('access_token')! })).status).toBe(401);
      const r = await call(ts, 'POST', '/api/accounts/session/refresh', { headers: { authorization: `Bearer ${q.get('refresh_token')}` } });
      expect(r.status).toBe(200);
      expect(r.body.service_token).not.toBe(q.get('service_token'));
      expect((await call(ts, 'GET', '/api/accounts/me', { token: r.body.access_token })).status).toBe(200);
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it('DELETE /api/accounts/session with the refresh token logs out', async () => {
    const q = (await spotifyLogin(ts, campaign.id, campaign.url, 'demo-fan')).searchParams;
    expect((await call(ts, 'DELETE', '/api/accounts/session', { headers: { authorization: `Bearer ${q.get('refresh_token')}` } })).status).toBe(204);
    expect((await call(ts, 'GET', '/api/accounts/me', { token: q.get('access_token')! })).status).toBe(401);
    expect((await call(ts, 'POST', '/api/accounts/session/refresh', { headers: { authorization: `Bearer ${q.get('refresh_token')}` } })).status).toBe(401);
    expect((await call(ts, 'DELETE', '/api/accounts/session')).status).toBe(401);
  });

  it('apple login with a music user token gives account tokens; a bad token is 401', async () => {
    const mut = (await (await fetch(`${ts.partyUrl}/emulator/apple/authorize?login_hint=lena`)).json()) as { music_user_token: string };
    const r = await call(ts, 'POST', `/api/campaigns/${campaign.id}/auth/apple/login`, { body: { music_user_token: mut.music_user_token } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ service: 'apple', service_token: mut.music_user_token });
    const me = await call(ts, 'GET', '/api/accounts/me', { token: r.body.access_token });
    expect(me.body).toMatchObject({ service: 'apple', email: null });
    const bad = await call(ts, 'POST', `/api/campaigns/${campaign.id}/auth/apple/login`, { body: { music_user_token: 'forged' } });
    expect(bad.status).toBe(401);
    expect((await call(ts, 'POST', `/api/campaigns/${campaign.id}/auth/apple/login`, { body: {} })).status).toBe(422);
  });
});
