import { LoginService, SERVICE_TOKEN_REFRESH_WINDOW_MS } from '@fanfare/protocol';

/** The login-result parameters the app takes from the address (spec 4, login flow step 1). */
export const LOGIN_QUERY_KEYS = ['access_token', 'service_token', 'service_expires_at', 'auth_service', 'error'] as const;

export interface LoginParams {
  accessToken: string | null;
  serviceToken: string | null;
  serviceExpiresAt: number | null;
  authService: LoginService | null;
  error: string | null;
}

/**
 * Reads the login result from a URL's query and returns the URL without those parameters
 * (spec 4: taken, stored and removed from the address). The hash (route) is kept.
 */
export function takeLoginParams(href: string): { params: LoginParams | null; cleanedHref: string } {
  const url = new URL(href);
  const q = url.searchParams;
  if (!LOGIN_QUERY_KEYS.some((k) => q.has(k))) return { params: null, cleanedHref: href };
  const service = LoginService.safeParse(q.get('auth_service'));
  const expires = Number(q.get('service_expires_at'));
  const params: LoginParams = {
    accessToken: q.get('access_token') || null,
    serviceToken: q.get('service_token') || null,
    serviceExpiresAt: Number.isFinite(expires) && expires > 0 ? expires : null,
    authService: service.success ? service.data : null,
    error: q.get('error') || null,
  };
  for (const k of LOGIN_QUERY_KEYS) q.delete(k);
  return { params, cleanedHref: url.toString() };
}

/**
 * Takes a music user token handed back in the query by an authorize page that stands in for
 * MusicKit (the Apple emulator), and returns the URL without it.
 */
export function takeMusicUserToken(href: string): { token: string | null; cleanedHref: string } {
  const url = new URL(href);
  const token = url.searchParams.get('music_user_token');
  if (token === null) return { token: null, cleanedHref: href };
  url.searchParams.delete('music_user_token');
  return { token: token || null, cleanedHref: url.toString() };
}

/** A login failure is tracked when `error` and `auth_service` are both present (spec 4 step 2). */
export function isLoginFailure(p: LoginParams | null): p is LoginParams & { error: string; authService: LoginService } {
  return !!p && p.error !== null && p.authService !== null;
}

/**
 * Service token refresh rule (spec 4 and 9): a `spotify` token that expires within 9 minutes
 * (540000 ms) is reloaded.
 */
export function needsServiceTokenRefresh(service: string | null, expiresAtMs: number | null, nowMs: number): boolean {
  if (service !== 'spotify' || expiresAtMs === null) return false;
  return expiresAtMs - nowMs <= SERVICE_TOKEN_REFRESH_WINDOW_MS;
}

/** Local storage keys, per party (spec 4: "stored under a per-party local key"). */
export function storageKeys(partyId: string) {
  const p = `fanfare.party.${partyId}`;
  return {
    token: `${p}.token`,
    service: `${p}.service`,
    serviceToken: `${p}.serviceToken`,
    serviceExpiresAt: `${p}.serviceExpiresAt`,
    /** The party grant key (route `/grant/{grantToken}`, spec 2). */
    grant: `${p}.grant`,
    locale: 'fanfare.locale',
  } as const;
}
export type StorageKeys = ReturnType<typeof storageKeys>;
