/** Issue 10, "Abuse paths": Apple login and anonymous signups are rate limited per client address. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { TEST_CMS_TOKEN } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';

describe('issue 10 rate limits (SQLite)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { APPLE_LOGIN_RATE_LIMIT: '3', ANON_SIGNUP_RATE_LIMIT: '2' } });
  });
  afterAll(async () => t?.close());

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('issue 10: Apple login is rate limited per client address, on the party and the campaign listener, with a detail', async () => {
    for (const base of [`${t.partyUrl}/api/auth/apple/login`, `${t.cmsUrl}/api/campaigns/any/auth/apple/login`]) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await post(base, { music_user_token: 'not-a-real-token' })).status);
      expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
      const limited = await post(base, { music_user_token: 'not-a-real-token' });
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as { detail?: string }).detail).toBeTruthy();
    }
  });

  it('issue 10: anonymous signups are limited per client address; signups with a login are not counted', async () => {
    await fetch(`${t.partyUrl}/api/parties/open-signup`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-cms-token': TEST_CMS_TOKEN },
      body: JSON.stringify({ login_required: false }),
    });
    const url = `${t.partyUrl}/api/parties/open-signup/users`;
    expect((await post(url, { real_name: 'A', display_name: 'anon-a' })).status).toBeLessThan(300);
    expect((await post(url, { real_name: 'B', display_name: 'anon-b' })).status).toBeLessThan(300);
    const third = await post(url, { real_name: 'C', display_name: 'anon-c' });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { detail?: string }).detail).toBeTruthy();
    const { accessToken } = await loginWithSpotify(t.partyUrl, 'signed-in-fan', { partyId: 'open-signup' });
    const withLogin = await post(url, { real_name: 'D', display_name: 'logged-in-d' }, { authorization: `Bearer ${accessToken}` });
    expect(withLogin.status).toBeLessThan(300);
  });
});
