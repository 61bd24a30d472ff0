import { ApiError } from '@fanfare/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Login, isToken, parseLoginCallback } from './login.ts';
import { storageKeys } from './storage.ts';
import { campaignFixture, fakeApi, fakeEnv, fakeMusicKit, tokenFixture } from './test/fakes.ts';
import { Tracker, type TrackingEvent } from './tracking.ts';

const PAGE = 'https://cms.fanfare.example/c/fan-pages/demo';
const keys = storageKeys('c1');
const unauthorized = () => new ApiError(401, { detail: 'Invalid refresh token' }, `${PAGE}/api/accounts/session/refresh`);

function setup(o: { href?: string; stored?: object; api?: Parameters<typeof fakeApi>[0]; mk?: ReturnType<typeof fakeMusicKit> | null; campaignId?: string | null } = {}) {
  const f = fakeEnv({ href: o.href ?? PAGE });
  if (o.stored) f.local.setItem(keys.accountToken, JSON.stringify(o.stored));
  const events: TrackingEvent[] = [];
  const tracker = new Tracker(f.env, (e) => events.push(e), campaignFixture(), keys);
  const campaignId = o.campaignId === undefined ? 'c1' : o.campaignId;
  const login = new Login(f.env, fakeApi(o.api), tracker, campaignId, keys, async () => o.mk ?? null);
  return { ...f, events, login };
}

describe('login', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('campaign spec §2: the callback (state must equal cms_account_auth) is parsed, stored and cleared from the address', async () => {
    const q = new URLSearchParams({ ...tokenFixture(), service_expires_at: '1900000000000', auth_service: 'spotify', state: 'cms_account_auth', utm_source: 'ig' } as Record<string, string>);
    q.delete('service');
    const { login, local, href } = setup({ href: `${PAGE}?${q}` });
    await login.init();
    expect(login.token).toEqual(tokenFixture());
    expect(JSON.parse(local.getItem(keys.accountToken)!)).toEqual(tokenFixture());
    expect(href()).toBe(`${PAGE}?utm_source=ig`);
    login.destroy();
  });

  it('campaign spec §2: the callback also arrives in the fragment (hash_output); other states are not ours', () => {
    const hash = new URLSearchParams({ state: 'cms_account_auth', error: 'access_denied', auth_service: 'spotify' });
    expect(parseLoginCallback(`${PAGE}#${hash}`)).toEqual({ result: { kind: 'error', service: 'spotify', message: 'access_denied' }, cleanUrl: PAGE });
    expect(parseLoginCallback(`${PAGE}?state=other&access_token=x`).result).toEqual({ kind: 'none' });
  });

  it('campaign spec §8: a callback error is tracked as login_fail with method and message, and the parameters cleared', async () => {
    const { login, events, href } = setup({ href: `${PAGE}?state=cms_account_auth&error=access_denied&auth_service=spotify` });
    await login.init();
    expect(login.token).toBeNull();
    expect(events).toMatchObject([{ event: 'login_fail', method: 'spotify', message: 'access_denied' }]);
    expect(href()).toBe(PAGE);
    login.destroy();
  });

  it('campaign spec §4/§9: the token is refreshed on load and every 600000 ms', async () => {
    let n = 0;
    const refresh = vi.fn(async (rt: string) => tokenFixture({ refresh_token: `ref-${++n + 1}`, access_token: `acc-${n + 1}`, previous: rt }));
    const { login } = setup({ stored: tokenFixture(), api: { refreshSession: refresh } });
    await login.init();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenLastCalledWith('ref-1');
    await vi.advanceTimersByTimeAsync(599_999);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(refresh).toHaveBeenCalledTimes(2);
    expect(refresh).toHaveBeenLastCalledWith('ref-2'); // rotated refresh token is the one sent next
    login.destroy();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('campaign spec §4: the token is refreshed on load right after a login callback too', async () => {
    const q = new URLSearchParams({ ...tokenFixture(), service_expires_at: '1900000000000', auth_service: 'spotify', state: 'cms_account_auth' } as Record<string, string>);
    q.delete('service');
    const refresh = vi.fn(async () => tokenFixture({ refresh_token: 'ref-2', access_token: 'acc-2' }));
    const { login } = setup({ href: `${PAGE}?${q}`, api: { refreshSession: refresh } });
    await login.init();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenLastCalledWith('ref-1');
    expect(login.token).toEqual(tokenFixture({ refresh_token: 'ref-2', access_token: 'acc-2' }));
    login.destroy();
  });

  it('campaign spec §4/§8: a refresh answered 401 clears the token and logs out silently', async () => {
    const { login, local, events } = setup({ stored: tokenFixture(), api: { refreshSession: vi.fn(async () => Promise.reject(unauthorized())) } });
    const changes: unknown[] = [];
    login.events.on('change', (t) => changes.push(t));
    await login.init();
    expect(login.token).toBeNull();
    expect(local.getItem(keys.accountToken)).toBeNull();
    expect(changes).toEqual([null]);
    expect(events).toEqual([]); // silent: nothing tracked
    login.destroy();
  });

  it('other refresh failures keep the token for the next try', async () => {
    const { login } = setup({ stored: tokenFixture(), api: { refreshSession: vi.fn(async () => Promise.reject(new ApiError(0, null, PAGE, { kind: 'network', message: 'Network Error' }))) } });
    await login.init();
    expect(login.token).toEqual(tokenFixture());
    login.destroy();
  });

  it('campaign spec §4: logout sends the refresh token, de-authorises the provider and clears the token', async () => {
    const mk = fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut' });
    const logout = vi.fn(async () => undefined);
    const { login, local } = setup({ stored: tokenFixture({ service: 'apple' }), mk, api: { logout, refreshSession: vi.fn(async () => tokenFixture({ service: 'apple' })) } });
    await login.init();
    await login.appleChecked;
    await login.logout();
    expect(logout).toHaveBeenCalledWith('ref-1');
    expect(mk.calls).toContainEqual(['unauthorize']);
    expect(login.token).toBeNull();
    expect(local.getItem(keys.accountToken)).toBeNull();
    login.destroy();
  });

  it('campaign spec §4: a stored Apple token whose provider is not authorised is cleared', async () => {
    const refresh = vi.fn();
    const { login } = setup({ stored: tokenFixture({ service: 'apple' }), mk: fakeMusicKit({ isAuthorized: false }), api: { refreshSession: refresh } });
    await login.init();
    await login.appleChecked;
    expect(login.token).toBeNull();
    expect(refresh).not.toHaveBeenCalled();
    login.destroy();
  });

  it('campaign spec §4: not logged in but Apple authorised: a silent login is attempted', async () => {
    const appleLogin = vi.fn(async () => tokenFixture({ service: 'apple' }));
    const { login } = setup({ mk: fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut-9' }), api: { appleLogin } });
    await login.init();
    await login.appleChecked;
    expect(appleLogin).toHaveBeenCalledWith('c1', 'mut-9');
    expect(login.token?.service).toBe('apple');
    login.destroy();
  });

  it('campaign spec §8: a silent Apple login answered 401 logs out silently', async () => {
    const mk = fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut-9' });
    const { login, events } = setup({ mk, api: { appleLogin: vi.fn(async () => Promise.reject(unauthorized())) } });
    await login.init();
    await login.appleChecked;
    expect(login.token).toBeNull();
    expect(events).toEqual([]);
    login.destroy();
  });

  it('while MusicKit has not loaded (up to the 120 s script timeout), the login start and a Spotify refresh do not wait for it', async () => {
    let resolveMk: (mk: ReturnType<typeof fakeMusicKit>) => void = () => undefined;
    const hanging = new Promise<ReturnType<typeof fakeMusicKit>>((r) => (resolveMk = r));
    const f = fakeEnv({ href: PAGE });
    f.local.setItem(keys.accountToken, JSON.stringify(tokenFixture()));
    const refresh = vi.fn(async () => tokenFixture({ refresh_token: 'ref-2' }));
    const appleLogin = vi.fn(async () => tokenFixture({ service: 'apple' }));
    const login = new Login(f.env, fakeApi({ refreshSession: refresh, appleLogin }), new Tracker(f.env, () => undefined, campaignFixture(), keys), 'c1', keys, () => hanging);
    let checked = false;
    await login.init();
    void login.appleChecked.then(() => (checked = true));
    expect(refresh).toHaveBeenCalledWith('ref-1');
    expect(login.token?.refresh_token).toBe('ref-2');
    await vi.advanceTimersByTimeAsync(119_999);
    expect(checked).toBe(false);
    // MusicKit arrives late and authorised: the visitor is already logged in, so nothing changes.
    resolveMk(fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut' }));
    await login.appleChecked;
    expect(appleLogin).not.toHaveBeenCalled();
    expect(login.token?.refresh_token).toBe('ref-2');
    login.destroy();
  });

  it('campaign spec §4: the silent Apple login runs when MusicKit arrives late; a load failure leaves the visitor logged out', async () => {
    let resolveMk: (mk: ReturnType<typeof fakeMusicKit>) => void = () => undefined;
    const appleLogin = vi.fn(async () => tokenFixture({ service: 'apple' }));
    const late = fakeEnv({ href: PAGE });
    const lateLogin = new Login(late.env, fakeApi({ appleLogin }), new Tracker(late.env, () => undefined, campaignFixture(), keys), 'c1', keys, () => new Promise((r) => (resolveMk = r)));
    await lateLogin.init();
    expect(lateLogin.token).toBeNull();
    resolveMk(fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut-late' }));
    await lateLogin.appleChecked;
    expect(appleLogin).toHaveBeenCalledWith('c1', 'mut-late');
    expect(lateLogin.token?.service).toBe('apple');
    lateLogin.destroy();

    const failed = fakeEnv({ href: PAGE });
    const failedLogin = new Login(failed.env, fakeApi({ appleLogin }), new Tracker(failed.env, () => undefined, campaignFixture(), keys), 'c1', keys, () => Promise.reject(new Error('did not load within 120000 ms')));
    await failedLogin.init();
    await failedLogin.appleChecked;
    expect(failedLogin.token).toBeNull();
    expect(appleLogin).toHaveBeenCalledTimes(1);
    failedLogin.destroy();
  });

  it('campaign spec §4: a stored Apple token is refreshed once MusicKit says it is still authorised, or could not load', async () => {
    const refresh = vi.fn(async () => tokenFixture({ service: 'apple', refresh_token: 'ref-2' }));
    const authorised = setup({ stored: tokenFixture({ service: 'apple' }), mk: fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut' }), api: { refreshSession: refresh } });
    await authorised.login.init();
    await authorised.login.appleChecked;
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(authorised.login.token?.refresh_token).toBe('ref-2');
    authorised.login.destroy();
    const noMusicKit = setup({ stored: tokenFixture({ service: 'apple' }), mk: null, api: { refreshSession: refresh } });
    await noMusicKit.login.init();
    await noMusicKit.login.appleChecked;
    expect(refresh).toHaveBeenCalledTimes(2);
    noMusicKit.login.destroy();
  });

  it('a refresh answered after the token was cleared does not log the visitor back in', async () => {
    let answer: (t: ReturnType<typeof tokenFixture>) => void = () => undefined;
    const refresh = vi.fn(() => new Promise<ReturnType<typeof tokenFixture>>((r) => (answer = r)));
    const { login } = setup({ stored: tokenFixture(), api: { refreshSession: refresh, logout: vi.fn(async () => undefined) } });
    const started = login.init();
    await login.logout();
    answer(tokenFixture({ refresh_token: 'ref-2' }));
    await started;
    expect(login.token).toBeNull();
    login.destroy();
  });

  it('campaign spec §1/§7: Spotify logs in by redirect to the CMS login with redirect_uri and state', async () => {
    const loginUrl = vi.fn(async (id: string, service: string, q: { redirect_uri: string; state: string }) => `https://cms/api/campaigns/${id}/auth/${service}/login?state=${q.state}&redirect_uri=${encodeURIComponent(q.redirect_uri)}`);
    const { login, assigned } = setup({ api: { loginUrl } });
    await login.loginWithSpotify();
    expect(loginUrl).toHaveBeenCalledWith('c1', 'spotify', { redirect_uri: PAGE, state: 'cms_account_auth' });
    expect(assigned).toHaveLength(1);
  });

  it('campaign spec §1: Apple logs in through the injected MusicKit object and the music user token', async () => {
    const mk = fakeMusicKit();
    const appleLogin = vi.fn(async () => tokenFixture({ service: 'apple' }));
    const { login } = setup({ mk, api: { appleLogin } });
    await login.loginWithApple();
    expect(mk.calls).toContainEqual(['authorize']);
    expect(appleLogin).toHaveBeenCalledWith('c1', 'mut-1');
    expect(login.isLoggedIn).toBe(true);
  });

  it('campaign spec §8: login failures are tracked as login_fail with method and error message', async () => {
    const { login, events } = setup({ mk: fakeMusicKit(), api: { appleLogin: vi.fn(async () => Promise.reject(new Error('Music user token refused by Apple Music'))) } });
    await expect(login.loginWithApple()).rejects.toThrow('Music user token refused');
    expect(events).toMatchObject([{ event: 'login_fail', method: 'apple', message: 'Music user token refused by Apple Music' }]);
  });

  it("campaign spec §5: 'Login requires a campaign id'", async () => {
    const { login } = setup({ campaignId: null });
    await expect(login.loginWithSpotify()).rejects.toThrow('Login requires a campaign id');
    await expect(login.loginWithApple()).rejects.toThrow('Login requires a campaign id');
  });

  it('campaign spec §9: a stored token of another shape is ignored (storage is per campaign)', () => {
    const f = setup({ stored: { access_token: 'x' } });
    expect(f.login.token).toBeNull();
    expect(keys.accountToken).toContain('c1');
  });

  it('campaign spec §3: a token needs every field, as non-empty text of at most 4000 characters, a finite expiry and a known service', () => {
    expect(isToken(tokenFixture())).toBe(true);
    expect(isToken(tokenFixture({ service: 'apple' }))).toBe(true);
    expect(isToken(tokenFixture({ access_token: 'a'.repeat(4000) }))).toBe(true);
    for (const field of ['access_token', 'refresh_token', 'service_token', 'account_id']) {
      expect(isToken(tokenFixture({ [field]: '' })), `${field} empty`).toBe(false);
      expect(isToken(tokenFixture({ [field]: 'a'.repeat(4001) })), `${field} too long`).toBe(false);
      expect(isToken(tokenFixture({ [field]: 7 })), `${field} a number`).toBe(false);
    }
    expect(isToken(tokenFixture({ service_expires_at: Number.POSITIVE_INFINITY }))).toBe(false);
    expect(isToken(tokenFixture({ service_expires_at: '1900000000000' }))).toBe(false);
    expect(isToken(tokenFixture({ service: 'deezer' }))).toBe(false);
    expect(isToken(null)).toBe(false);
    expect(isToken('token')).toBe(false);
  });

  it('campaign spec §2: a callback without auth_service is Spotify; one without a usable token is an invalid callback; other fragment values stay', () => {
    const q = new URLSearchParams({ ...tokenFixture(), service_expires_at: '1900000000000', state: 'cms_account_auth' } as Record<string, string>);
    q.delete('service');
    expect(parseLoginCallback(`${PAGE}?${q}`).result).toEqual({ kind: 'token', token: tokenFixture() });
    expect(parseLoginCallback(`${PAGE}?state=cms_account_auth&auth_service=apple&access_token=a`)).toEqual({ result: { kind: 'error', service: 'apple', message: 'Invalid login callback' }, cleanUrl: PAGE });
    const hash = new URLSearchParams({ state: 'cms_account_auth', error: 'denied', auth_service: 'apple', tab: 'music' });
    expect(parseLoginCallback(`${PAGE}?x=1#${hash}`)).toEqual({ result: { kind: 'error', service: 'apple', message: 'denied' }, cleanUrl: `${PAGE}?x=1#tab=music` });
    // A fragment that is not the callback leaves a query callback to be read.
    expect(parseLoginCallback(`${PAGE}?state=cms_account_auth&error=e#section`)).toEqual({ result: { kind: 'error', service: 'spotify', message: 'e' }, cleanUrl: `${PAGE}#section` });
  });

  it('campaign spec §4: logout without a token calls nobody; a Spotify logout leaves MusicKit alone; a failed logout call still logs out', async () => {
    const mk = fakeMusicKit({ isAuthorized: true });
    const logout = vi.fn(async () => Promise.reject(new Error('Network Error')));
    const spotify = setup({ stored: tokenFixture(), mk, api: { logout, refreshSession: vi.fn(async () => tokenFixture()) } });
    await spotify.login.logout();
    expect(logout).toHaveBeenCalledWith('ref-1');
    expect(mk.calls).not.toContainEqual(['unauthorize']);
    expect(spotify.login.token).toBeNull();
    const nobody = vi.fn(async () => undefined);
    const none = setup({ api: { logout: nobody } });
    const changes: unknown[] = [];
    none.login.events.on('change', (t) => changes.push(t));
    await none.login.logout();
    expect(nobody).not.toHaveBeenCalled();
    expect(changes).toEqual([null]);
  });

  it('campaign spec §8: Apple without MusicKit fails and is tracked; login() picks the provider', async () => {
    const noMk = setup({ mk: null });
    await expect(noMk.login.loginWithApple()).rejects.toThrow('MusicKit is not available');
    expect(noMk.events).toMatchObject([{ event: 'login_fail', method: 'apple', message: 'MusicKit is not available' }]);
    const loginUrl = vi.fn(async () => 'https://cms/login');
    const spotify = setup({ api: { loginUrl } });
    await spotify.login.login('spotify');
    expect(spotify.assigned).toEqual(['https://cms/login']);
    const refused = setup({ api: { loginUrl: vi.fn(async () => Promise.reject(new Error('Campaign not found'))) } });
    await expect(refused.login.login('spotify')).rejects.toThrow('Campaign not found');
    expect(refused.events).toMatchObject([{ event: 'login_fail', method: 'spotify', message: 'Campaign not found' }]);
  });

  it('campaign spec §8: a 401 on a refresh of an Apple token unauthorises MusicKit as it logs out', async () => {
    const mk = fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut' });
    const { login } = setup({ stored: tokenFixture({ service: 'apple' }), mk, api: { refreshSession: vi.fn(async () => Promise.reject(unauthorized())) } });
    await login.init();
    await login.appleChecked;
    expect(login.token).toBeNull();
    expect(mk.calls).toContainEqual(['unauthorize']);
    login.destroy();
  });

  it('campaign spec §4: MusicKit decides only for an Apple token; a Spotify token stays when Apple is not authorised', async () => {
    const refresh = vi.fn(async () => tokenFixture({ refresh_token: 'ref-2' }));
    const { login } = setup({ stored: tokenFixture(), mk: fakeMusicKit({ isAuthorized: false }), api: { refreshSession: refresh } });
    expect(login.isLoggedIn).toBe(true);
    await login.init();
    await login.appleChecked;
    expect(login.token?.refresh_token).toBe('ref-2');
    login.destroy();
    expect(setup().login.isLoggedIn).toBe(false);
  });

  it('campaign spec §4/§8: a 401 logs out unauthorising MusicKit only for an Apple token, and also without MusicKit', async () => {
    const mk = fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut' });
    const spotify = setup({ stored: tokenFixture(), mk, api: { refreshSession: vi.fn(async () => Promise.reject(unauthorized())) } });
    await spotify.login.init();
    expect(spotify.login.token).toBeNull();
    expect(mk.calls).not.toContainEqual(['unauthorize']);
    spotify.login.destroy();
    const apple = setup({ stored: tokenFixture({ service: 'apple' }), mk: null, api: { refreshSession: vi.fn(async () => Promise.reject(unauthorized())) } });
    await apple.login.init();
    await apple.login.appleChecked;
    expect(apple.login.token).toBeNull();
    apple.login.destroy();
  });

  it('a silent Apple login: a 401 ends in a logged-out change, other failures are logged and change nothing', async () => {
    const mk = () => fakeMusicKit({ isAuthorized: true, musicUserToken: 'mut' });
    const refused = setup({ mk: mk(), api: { appleLogin: vi.fn(async () => Promise.reject(unauthorized())) } });
    const changes: unknown[] = [];
    refused.login.events.on('change', (t) => changes.push(t));
    await refused.login.init();
    await refused.login.appleChecked;
    expect(changes).toEqual([null]);
    expect(refused.logs).toEqual([]);
    refused.login.destroy();
    const down = setup({ mk: mk(), api: { appleLogin: vi.fn(async () => Promise.reject(new ApiError(503, null, PAGE))) } });
    const downChanges: unknown[] = [];
    down.login.events.on('change', (t) => downChanges.push(t));
    await down.login.init();
    await down.login.appleChecked;
    expect(downChanges).toEqual([]);
    expect(down.logs).toMatchObject([{ level: 'warn', args: ['Silent Apple login failed', expect.any(ApiError)] }]);
    down.login.destroy();
  });

  it('a refresh without a token asks nothing; a failed refresh is logged', async () => {
    const refresh = vi.fn(async () => Promise.reject(new Error('Network Error')));
    const none = setup({ api: { refreshSession: refresh } });
    await none.login.refresh();
    expect(refresh).not.toHaveBeenCalled();
    expect(none.logs).toEqual([]);
    const failing = setup({ stored: tokenFixture(), api: { refreshSession: refresh } });
    await failing.login.refresh();
    expect(failing.logs).toMatchObject([{ level: 'warn', args: ['Token refresh failed', expect.any(Error)] }]);
  });

  it('campaign spec §4: logout of an Apple token whose MusicKit cannot load still logs out; a failed logout call is logged', async () => {
    const f = fakeEnv({ href: PAGE });
    f.local.setItem(keys.accountToken, JSON.stringify(tokenFixture({ service: 'apple' })));
    const login = new Login(f.env, fakeApi({ logout: vi.fn(async () => Promise.reject(new Error('Network Error'))) }), new Tracker(f.env, () => undefined, campaignFixture(), keys), 'c1', keys, () => Promise.reject(new Error('did not load')));
    await login.logout();
    expect(login.token).toBeNull();
    expect(f.logs).toMatchObject([{ level: 'warn', args: ['Logout call failed', expect.any(Error)] }]);
  });

  it("login('apple') goes through MusicKit; a login without storage keys keeps the token in memory only", async () => {
    const f = fakeEnv({ href: PAGE });
    const mk = fakeMusicKit();
    const login = new Login(f.env, fakeApi({ appleLogin: vi.fn(async () => tokenFixture({ service: 'apple' })) }), new Tracker(f.env, () => undefined, campaignFixture(), keys), 'c1', null, async () => mk);
    await login.login('apple');
    expect(mk.calls).toContainEqual(['authorize']);
    expect(login.token?.service).toBe('apple');
    expect(f.local.getItem(keys.accountToken)).toBeNull();
    await login.logout().catch(() => undefined);
  });
});
