import { describe, expect, it, vi } from 'vitest';
import { PartyClient } from '@fanfare/client';
import { createPartyStore } from '../state/store.ts';
import { fakeFetch, memoryStorage, partyFixture, partyTrackFixture, partyUserFixture, systemUserFixture } from '../test/fixtures.ts';
import { SessionStorage } from './sessionStore.ts';
import { GRANT_LINK_REFUSED_ERROR } from '@fanfare/protocol';
import { appleLogin, initialise, logout, refreshServiceTokenIfDue, signUp, spotifyLoginUrl, type SessionDeps } from './loginFlow.ts';

function setup(routes: Parameters<typeof fakeFetch>[0], href = 'http://h/p/demo/#/') {
  const fetch = fakeFetch({ 'GET /api/parties/demo': () => ({ status: 200, body: partyFixture() }), ...routes });
  const store = createPartyStore('demo');
  const raw = memoryStorage();
  const storage = new SessionStorage(raw, 'demo');
  const analytics = { loginSuccess: vi.fn(), loginFailure: vi.fn() };
  let current = href;
  const location = { href: () => current, replace: vi.fn((h: string) => void (current = h)), reload: vi.fn() };
  const unauthorize = vi.fn();
  const deps: SessionDeps = {
    client: new PartyClient({ baseUrl: 'http://h', fetch }),
    store,
    storage,
    analytics,
    location,
    musicKit: () => ({ unauthorize }),
  };
  return { deps, fetch, store, raw, analytics, location, unauthorize, current: () => current };
}

describe('login flow step 1: query tokens are taken, stored per party and removed (spec 4)', () => {
  it('stores the token and service and cleans the address', async () => {
    const t = setup(
      { 'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture() }) },
      'http://h/p/demo/?access_token=AT&service_token=ST&service_expires_at=9999999999999&auth_service=spotify#/register',
    );
    await initialise(t.deps);
    expect(t.current()).toBe('http://h/p/demo/#/register');
    expect(t.raw.getItem('fanfare.party.demo.token')).toBe('AT');
    expect(t.raw.getItem('fanfare.party.demo.service')).toBe('spotify');
    expect(t.store.getState().user?.id).toBe('u1');
    expect(t.store.getState().initialised).toBe(true);
  });
  it('tracks login success once after a fresh login (step 4)', async () => {
    const t = setup({ 'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture() }) }, 'http://h/?access_token=AT&auth_service=spotify');
    await initialise(t.deps);
    expect(t.analytics.loginSuccess).toHaveBeenCalledWith('spotify');
  });
  it('tracks a login failure when error and auth_service are present (step 2)', async () => {
    const t = setup({}, 'http://h/?error=access_denied&auth_service=spotify');
    await initialise(t.deps);
    expect(t.analytics.loginFailure).toHaveBeenCalledWith('spotify', 'access_denied');
    expect(t.current()).toBe('http://h/');
  });
  it('reuses a stored token otherwise', async () => {
    const t = setup({ 'GET /api/parties/demo/users/me': ({ auth }) => ({ status: auth === 'Bearer OLD' ? 200 : 401, body: partyUserFixture() }) });
    t.raw.setItem('fanfare.party.demo.token', 'OLD');
    await initialise(t.deps);
    expect(t.store.getState().user).not.toBeNull();
    expect(t.analytics.loginSuccess).not.toHaveBeenCalled();
  });
});

describe('a refused grant link is forgotten, so the next login goes without it', () => {
  it('Spotify: the login comes back with error=GrantLinkRefused and no token; the grant key is dropped', async () => {
    const t = setup({}, `http://h/p/demo/?error=${GRANT_LINK_REFUSED_ERROR}&error_description=used&auth_service=spotify#/`);
    t.raw.setItem('fanfare.party.demo.grant', 'G');
    await initialise(t.deps);
    expect(t.analytics.loginFailure).toHaveBeenCalledWith('spotify', GRANT_LINK_REFUSED_ERROR);
    expect(t.raw.getItem('fanfare.party.demo.grant')).toBeNull();
    expect(t.raw.getItem('fanfare.party.demo.token')).toBeNull();
  });
  it('Apple: a 403 GrantLinkRefused drops the grant key; other failures keep it', async () => {
    const refused = setup({ 'POST /api/auth/apple/login': () => ({ status: 403, body: { detail: { message: 'This grant link has expired', type: GRANT_LINK_REFUSED_ERROR, reason: 'expired' } } }) });
    refused.raw.setItem('fanfare.party.demo.grant', 'G');
    expect(await appleLogin(refused.deps, 'MUT')).toBe(false);
    expect(refused.fetch.calls.find((c) => c.path === '/api/auth/apple/login')?.body).toMatchObject({ grant_token: 'G' });
    expect(refused.raw.getItem('fanfare.party.demo.grant')).toBeNull();

    const other = setup({ 'POST /api/auth/apple/login': () => ({ status: 401, body: { detail: 'Music user token refused by Apple Music' } }) });
    other.raw.setItem('fanfare.party.demo.grant', 'G');
    expect(await appleLogin(other.deps, 'MUT')).toBe(false);
    expect(other.raw.getItem('fanfare.party.demo.grant')).toBe('G');
  });
});

describe('login flow step 3: 401 logs out, 403 loads the system-wide profile (spec 4)', () => {
  it('logs out on 401', async () => {
    const t = setup({ 'GET /api/parties/demo/users/me': () => ({ status: 401, body: { detail: 'no' } }) });
    t.raw.setItem('fanfare.party.demo.token', 'OLD');
    await initialise(t.deps);
    expect(t.store.getState().token).toBeNull();
    expect(t.raw.getItem('fanfare.party.demo.token')).toBeNull();
  });
  it('a fan not signed up yet is told so by the system profile asked with the party: no 403 in the console', async () => {
    const t = setup({
      'GET /api/users/me': ({ query }) => ({ status: 200, body: { ...systemUserFixture(), party_user: query.get('party_id') === 'demo' ? null : undefined } }),
      'GET /api/parties/demo/users/me': () => ({ status: 403, body: { detail: 'not signed up' } }),
    });
    t.raw.setItem('fanfare.party.demo.token', 'T');
    await initialise(t.deps);
    expect(t.store.getState().systemUser?.id).toBe(systemUserFixture().id);
    expect(t.store.getState().user).toBeNull();
    expect(t.fetch.calls.map((c) => c.path)).not.toContain('/api/parties/demo/users/me');
  });
  it('a signed-up fan gets the party profile from the same call', async () => {
    const t = setup({ 'GET /api/users/me': () => ({ status: 200, body: { ...systemUserFixture(), party_user: partyUserFixture({ id: 'u7' }) } }) });
    t.raw.setItem('fanfare.party.demo.token', 'T');
    await initialise(t.deps);
    expect(t.store.getState().user?.id).toBe('u7');
    expect(t.store.getState().systemUser).toBeNull();
  });
  it('loads /api/users/me on 403', async () => {
    const t = setup({
      'GET /api/parties/demo/users/me': () => ({ status: 403, body: { detail: 'not signed up' } }),
      'GET /api/users/me': () => ({ status: 200, body: systemUserFixture() }),
    });
    t.raw.setItem('fanfare.party.demo.token', 'T');
    await initialise(t.deps);
    expect(t.store.getState().user).toBeNull();
    expect(t.store.getState().systemUser?.display_name).toBe('Demo Fan');
  });
  it('logs out on 401 from the system profile', async () => {
    const t = setup({
      'GET /api/parties/demo/users/me': () => ({ status: 403, body: { detail: 'x' } }),
      'GET /api/users/me': () => ({ status: 401, body: { detail: 'x' } }),
    });
    t.raw.setItem('fanfare.party.demo.token', 'T');
    await initialise(t.deps);
    expect(t.store.getState().token).toBeNull();
  });
  it('shows the load error when the party cannot be loaded', async () => {
    const t = setup({ 'GET /api/parties/demo': () => ({ status: 404, body: { detail: 'x' } }) });
    await initialise(t.deps);
    expect(t.store.getState().loadError).toBe('404');
    expect(t.store.getState().initialised).toBe(true);
  });
});

describe('signup rule: stores a returned token and clears the stored service (spec 4)', () => {
  it('signs up, stores the token, clears the service, loads the profile', async () => {
    const t = setup({
      'POST /api/parties/demo/users': () => ({ status: 200, body: { id: 'u9', access_token: 'NEW' } }),
      'GET /api/parties/demo/users/me': ({ auth }) => ({ status: auth === 'Bearer NEW' ? 200 : 401, body: partyUserFixture({ id: 'u9' }) }),
    });
    await initialise(t.deps);
    t.raw.setItem('fanfare.party.demo.service', 'spotify');
    const failures = await signUp(t.deps, { realName: 'A', displayName: 'a', email: '', country: '', profileSticker: null, competitionAccepted: false });
    expect(failures).toBeNull();
    expect(t.raw.getItem('fanfare.party.demo.token')).toBe('NEW');
    expect(t.raw.getItem('fanfare.party.demo.service')).toBeNull();
    expect(t.store.getState().user).toMatchObject({ id: 'u9', is_subscribed: true });
    expect(t.fetch.calls.find((c) => c.method === 'POST')!.body).toEqual({ real_name: 'A', display_name: 'a' });
  });
  it('returns the duplicate errors in place', async () => {
    const t = setup({
      'POST /api/parties/demo/users': () => ({ status: 409, body: { detail: { message: 'taken', type: 'DuplicateSignupError', fields: ['display_name'] } } }),
    });
    await initialise(t.deps);
    expect(await signUp(t.deps, { realName: 'A', displayName: 'a', email: '', country: '', profileSticker: null, competitionAccepted: false })).toEqual([
      'errorDuplicateUserName',
    ]);
  });
});

describe('logout rule: server called (errors ignored), apple unauthorised, keys cleared, page reloaded (spec 4)', () => {
  it('ignores server errors and clears everything', async () => {
    const t = setup({
      'GET /api/parties/demo/users/me': () => ({ status: 200, body: partyUserFixture() }),
      'DELETE /api/auth/session': () => ({ status: 500, body: { detail: 'boom' } }),
    });
    t.raw.setItem('fanfare.party.demo.token', 'T');
    t.raw.setItem('fanfare.party.demo.service', 'apple');
    await initialise(t.deps);
    await logout(t.deps);
    expect(t.fetch.calls.some((c) => c.method === 'DELETE' && c.path === '/api/auth/session')).toBe(true);
    expect(t.unauthorize).toHaveBeenCalled();
    expect(t.raw.getItem('fanfare.party.demo.token')).toBeNull();
    expect(t.location.reload).toHaveBeenCalled();
  });
});

describe('service token refresh rule: reload within 9 minutes of expiry, 401 logs out (spec 4)', () => {
  it('reloads a spotify token that expires within the window', async () => {
    const t = setup({ 'GET /api/users/me/service_token': () => ({ status: 200, body: { token: 'NEWST', expires_at: 5_000_000 } }) });
    t.store.getState().set({ token: 'T', service: 'spotify', serviceExpiresAt: 1_000_000 + 540_000 });
    t.deps.now = () => 1_000_000;
    expect(await refreshServiceTokenIfDue(t.deps)).toBe(true);
    expect(t.store.getState().serviceToken).toBe('NEWST');
  });
  it('leaves a token outside the window alone', async () => {
    const t = setup({});
    t.store.getState().set({ token: 'T', service: 'spotify', serviceExpiresAt: 1_000_000 + 540_001 });
    t.deps.now = () => 1_000_000;
    expect(await refreshServiceTokenIfDue(t.deps)).toBe(false);
    expect(t.fetch.calls).toHaveLength(0);
  });
  it('logs out on 401', async () => {
    const t = setup({ 'GET /api/users/me/service_token': () => ({ status: 401, body: { detail: 'x' } }) });
    t.store.getState().set({ token: 'T', service: 'spotify', serviceExpiresAt: 0 });
    await refreshServiceTokenIfDue(t.deps);
    expect(t.store.getState().token).toBeNull();
    expect(t.location.reload).toHaveBeenCalled();
  });
});

describe('spotify login address (spec 7): redirect_uri, party_id, grant, artist_ids, hash_output=false', () => {
  it('builds the redirect', () => {
    const url = new URL(spotifyLoginUrl('http://h', { redirectUri: 'http://h/p/demo/#/register', partyId: 'demo', grant: 'G', artistIds: ['a', 'b'] }));
    expect(url.pathname).toBe('/api/auth/spotify/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      redirect_uri: 'http://h/p/demo/#/register',
      party_id: 'demo',
      grant: 'G',
      artist_ids: 'a,b',
      hash_output: 'false',
    });
  });
});

describe('first screen without a chain of round trips (LCP on a phone network)', () => {
  it('asks for the party, its tracks and the stored fan profile at once, before the party has answered', async () => {
    const t = setup({
      'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [] } }),
      'GET /api/users/me': () => ({ status: 200, body: { ...systemUserFixture(), party_user: partyUserFixture() } }),
    });
    t.raw.setItem('fanfare.party.demo.token', 'OLD');
    // The party's answer is held back until the test lets it go.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = Object.assign(async (input: string, init?: RequestInit) => {
      const res = t.fetch(input, init);
      if (new URL(input).pathname === '/api/parties/demo') await gate;
      return res;
    }, { calls: t.fetch.calls });
    t.deps.client = new PartyClient({ baseUrl: 'http://h', fetch: held });
    const done = initialise(t.deps);
    await vi.waitFor(() => expect(t.fetch.calls.map((c) => c.path).sort()).toEqual(['/api/parties/demo', '/api/parties/demo/tracks', '/api/users/me']));
    expect(t.store.getState().party).toBeNull();
    release();
    await done;
    expect(t.store.getState().party?.id).toBe('demo');
    expect(t.store.getState().user?.id).toBe('u1');
    expect(t.store.getState().initialised).toBe(true);
  });
  it('shows the first screen with the tracks already there (no cover arriving later to push the page down)', async () => {
    const t = setup({ 'GET /api/parties/demo/tracks': () => ({ status: 200, body: { items: [partyTrackFixture('t1', 0)], options: null, excluded: [] } }) });
    let tracksAtInit: unknown = null;
    t.store.subscribe((s, prev) => {
      if (s.initialised && !prev.initialised) tracksAtInit = s.tracks;
    });
    await initialise(t.deps);
    expect((tracksAtInit as { id: string }[] | null)?.map((x) => x.id)).toEqual(['t1']);
  });
  it('still starts when the tracks cannot be loaded', async () => {
    const t = setup({ 'GET /api/parties/demo/tracks': () => ({ status: 500, body: { detail: 'boom' } }) });
    await initialise(t.deps);
    expect(t.store.getState().initialised).toBe(true);
    expect(t.store.getState().party?.id).toBe('demo');
  });
  it('still shows the load error when the party fails while the profile was asked for', async () => {
    const t = setup({
      'GET /api/parties/demo': () => ({ status: 404, body: { detail: 'no party' } }),
      'GET /api/parties/demo/users/me': () => ({ status: 500, body: { detail: 'boom' } }),
    });
    t.raw.setItem('fanfare.party.demo.token', 'OLD');
    await initialise(t.deps);
    expect(t.store.getState().loadError).toBe('404');
    expect(t.store.getState().initialised).toBe(true);
  });
});

describe("Apple login refused (spec 8): 'Apple also unauthorises on 401 or 422'", () => {
  it.each([401, 422])('a %i from the Apple login unauthorises MusicKit', async (status) => {
    const t = setup({ 'POST /api/auth/apple/login': () => ({ status, body: { detail: 'Music user token refused' } }) });
    expect(await appleLogin(t.deps, 'MUT')).toBe(false);
    expect(t.unauthorize).toHaveBeenCalledTimes(1);
    expect(t.raw.getItem('fanfare.party.demo.token')).toBeNull();
  });
  it.each([400, 403, 500])('a %i leaves MusicKit authorised (only 401 and 422 unauthorise)', async (status) => {
    const t = setup({ 'POST /api/auth/apple/login': () => ({ status, body: { detail: 'no' } }) });
    expect(await appleLogin(t.deps, 'MUT')).toBe(false);
    expect(t.unauthorize).not.toHaveBeenCalled();
  });
});
