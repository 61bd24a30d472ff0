import { ApiError, createPartyClient, type PartyClient } from '@fanfare/client';
import { GRANT_LINK_REFUSED_ERROR, LOGIN_SERVICES, type LoginService } from '@fanfare/protocol';
import { buildSignupBody, signupFailures, type SignupFailure, type SignupForm } from '../rules/signup.ts';
import { isLoginFailure, needsServiceTokenRefresh, takeLoginParams, takeMusicUserToken } from '../rules/session.ts';
import type { PartyStore } from '../state/store.ts';
import type { Analytics } from './analytics.ts';
import type { SessionStorage } from './sessionStore.ts';

/** What the login flow needs from its surroundings (the browser, or fakes in tests). */
export interface SessionDeps {
  /** A client without token; the flow adds the fan's token per call. */
  client: PartyClient;
  store: PartyStore;
  storage: SessionStorage;
  analytics: Analytics;
  /** Current address, and a way to replace it without a reload. */
  location: { href(): string; replace(href: string): void; reload(): void };
  /** Apple's MusicKit, when loaded: logout unauthorises it (spec 4). */
  musicKit?: () => { unauthorize?: () => unknown } | null;
  now?: () => number;
}

/** A promise's outcome without rejecting, so it can wait while another call decides what follows. */
async function settled(p: Promise<void>): Promise<{ ok: true } | { ok: false; error: unknown }> {
  try {
    await p;
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/** The client with the fan's current token. */
export function authed(deps: SessionDeps): PartyClient {
  return deps.client.withAccessToken(deps.store.getState().token);
}

/**
 * Initialisation (spec 4 "Login flow"): take the login result from the address, reuse a stored
 * token otherwise, load the party and the profile, track a fresh login. Ends with `initialised`.
 */
export async function initialise(deps: SessionDeps): Promise<void> {
  const { store, storage, analytics } = deps;
  const href = deps.location.href();
  const apple = takeMusicUserToken(href);
  const { params, cleanedHref } = takeLoginParams(apple.cleanedHref);
  if (cleanedHref !== href) deps.location.replace(cleanedHref);
  let fresh = false;
  if (params) {
    if (isLoginFailure(params)) {
      analytics.loginFailure(params.authService, params.error);
      // A refused grant link would refuse every later login too: drop it, the next login goes without.
      if (params.error === GRANT_LINK_REFUSED_ERROR) storage.forgetGrant();
    }
    else if (params.accessToken) {
      storage.storeLogin(params);
      fresh = true;
    }
  }
  const stored = storage.read();
  store.getState().set({
    token: stored.token,
    service: stored.service,
    serviceToken: stored.serviceToken,
    serviceExpiresAt: stored.serviceExpiresAt,
  });

  // The party, its tracks and the fan's profile are asked for at once: one round trip before the
  // first screen instead of three in a row (issue 16, first paint on a phone network).
  const partyId = store.getState().partyId;
  const party = deps.client.call('getParty', { params: { id: partyId } });
  // Tracks are public: loaded alongside, for covers and the track list before login. The first
  // screen waits for them too (they come in the same round trip): a cover arriving after it would
  // push the page down (layout shift) and paint it twice.
  const tracks = deps.client.call('getTracks', { params: { id: partyId } }).then(
    (r) => store.getState().set({ tracks: r.items }),
    () => undefined,
  );
  const profile = !apple.token && store.getState().token ? settled(loadProfile(deps)) : null;
  try {
    store.getState().setParty(await party);
  } catch (err) {
    store.getState().set({ loadError: err instanceof ApiError ? `${err.status}` : 'network', initialised: true });
    return;
  }

  // An Apple login without MusicKit came back with its music user token: exchange it now.
  if (apple.token) await appleLogin(deps, apple.token);
  else if (profile) {
    const outcome = await profile;
    if (!outcome.ok) throw outcome.error;
  }
  if (fresh && store.getState().token) analytics.loginSuccess(store.getState().service);
  await tracks;
  store.getState().set({ initialised: true });
}

/**
 * Loads the party profile (spec 4 step 3). One call asks for the system-wide profile with the
 * party's: a fan who has not signed up yet gets `party_user: null` instead of a 403 that every
 * login would log in the console. A fan with no streaming account (404 there), or a server that
 * does not answer `party_user`, goes the spec's way: the party profile, 403 meaning not signed up.
 * 401 logs out.
 */
export async function loadProfile(deps: SessionDeps): Promise<void> {
  const { store } = deps;
  const client = authed(deps);
  const partyId = store.getState().partyId;
  try {
    const { party_user: partyUser, ...systemUser } = await client.call('getSystemMe', { query: { party_id: partyId } });
    if (partyUser) return store.getState().set({ user: partyUser, systemUser: null });
    if (partyUser === null) return store.getState().set({ systemUser, user: null });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 401) return forgetSession(deps);
    if (err.status !== 404) throw err;
  }
  try {
    const user = await client.call('getPartyMe', { params: { id: partyId } });
    store.getState().set({ user, systemUser: null });
    return;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 401) return forgetSession(deps);
    if (err.status !== 403) throw err;
  }
  try {
    const systemUser = await client.call('getSystemMe', {});
    store.getState().set({ systemUser, user: null });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return forgetSession(deps);
    throw err;
  }
}

/** Clears the token and the stored keys; also unauthorises Apple (spec 4 "Logout", local part). */
export function forgetSession(deps: SessionDeps): void {
  if (deps.store.getState().service === 'apple') {
    try {
      void deps.musicKit?.()?.unauthorize?.();
    } catch {
      // A provider that cannot unauthorise does not stop the logout.
    }
  }
  deps.storage.clear();
  deps.store.getState().clearSession();
}

/** Logout (spec 2 and 4): call the server (errors ignored), forget the session, reload the page. */
export async function logout(deps: SessionDeps): Promise<void> {
  if (deps.store.getState().token) {
    try {
      await authed(deps).call('logout', {});
    } catch {
      // Logout errors are ignored (spec 8).
    }
  }
  forgetSession(deps);
  deps.location.reload();
}

/**
 * Signup (spec 4): sets the user id and the subscribed flag, stores a returned access token and
 * clears the stored service. Returns the failures to show in the form, or null on success.
 */
export async function signUp(deps: SessionDeps, form: SignupForm): Promise<SignupFailure[] | null> {
  const { store } = deps;
  const competition = store.getState().party?.frontend.competitionIsEnabled ?? false;
  try {
    const res = await authed(deps).call('signup', { params: { id: store.getState().partyId }, body: buildSignupBody(form, competition) });
    if (res.access_token) {
      deps.storage.storeToken(res.access_token);
      store.getState().set({ token: res.access_token });
    }
    deps.storage.clearService();
    await loadProfile(deps);
    const user = store.getState().user;
    if (user) store.getState().set({ user: { ...user, id: res.id, is_subscribed: true } });
    return null;
  } catch (err) {
    return signupFailures(err);
  }
}

/**
 * Service token refresh (spec 4): a spotify token expiring within 9 minutes is reloaded; a 401
 * logs out. Returns true when a new token was stored.
 */
export async function refreshServiceTokenIfDue(deps: SessionDeps): Promise<boolean> {
  const s = deps.store.getState();
  const now = deps.now?.() ?? Date.now();
  if (!s.token || !needsServiceTokenRefresh(s.service, s.serviceExpiresAt, now)) return false;
  try {
    const res = await authed(deps).call('getServiceToken', {});
    deps.storage.storeServiceToken(res.token, res.expires_at);
    deps.store.getState().set({ serviceToken: res.token, serviceExpiresAt: res.expires_at });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      await logout(deps);
    }
    return false;
  }
}

/** The address of the Spotify login (spec 7): a browser redirect with the return address. */
export function spotifyLoginUrl(baseUrl: string, opts: { redirectUri: string; partyId: string; grant: string | null; artistIds: string[] }): string {
  return createPartyClient({ baseUrl }).url('spotifyLogin', {
    query: {
      redirect_uri: opts.redirectUri,
      party_id: opts.partyId,
      grant: opts.grant ?? undefined,
      artist_ids: opts.artistIds.length ? opts.artistIds.join(',') : undefined,
      hash_output: 'false',
    },
  });
}

/**
 * Apple login (spec 7): POST the Music User Token; a 401 or 422 unauthorises MusicKit (spec 8).
 * Stores the new token and loads the profile.
 */
export async function appleLogin(deps: SessionDeps, musicUserToken: string): Promise<boolean> {
  const { store, storage } = deps;
  try {
    const res = await deps.client.call('appleLogin', {
      body: { music_user_token: musicUserToken, grant_token: storage.grant, party_id: store.getState().partyId },
    });
    storage.storeLogin({ accessToken: res.access_token, authService: 'apple', serviceToken: musicUserToken, serviceExpiresAt: null, error: null });
    store.getState().set({ token: res.access_token, service: 'apple', serviceToken: musicUserToken });
    await loadProfile(deps);
    deps.analytics.loginSuccess('apple');
    return true;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 422)) {
      try {
        void deps.musicKit?.()?.unauthorize?.();
      } catch {
        // Ignored: the login failed either way.
      }
    }
    if (isGrantRefusal(err)) storage.forgetGrant();
    deps.analytics.loginFailure('apple', err instanceof ApiError ? `http_${err.status}` : 'network');
    return false;
  }
}

/** True for the server's refusal of a login's grant link (403 `GrantLinkRefused`). */
function isGrantRefusal(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.status !== 403) return false;
  const detail = typeof err.body === 'object' && err.body !== null ? err.body.detail : null;
  return typeof detail === 'object' && detail !== null && !Array.isArray(detail) && detail.type === GRANT_LINK_REFUSED_ERROR;
}

/** Login services offered on the Service screen: never the internal `umg_hls` (spec 6). */
export const OFFERED_LOGIN_SERVICES: readonly LoginService[] = LOGIN_SERVICES;

/** Everything stored about the fan (GDPR art. 15, 20), offered as a JSON download. */
export async function downloadMyData(deps: SessionDeps): Promise<Blob> {
  const data = await authed(deps).call('getMyData', {});
  return new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
}

/** Erases the fan (GDPR art. 17); the session ends and the page reloads as a stranger's. */
export async function deleteAccount(deps: SessionDeps): Promise<void> {
  await authed(deps).call('deleteMe', {});
  forgetSession(deps);
  deps.location.reload();
}
