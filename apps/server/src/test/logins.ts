import { PartyClient } from '@fanfare/client/party';
import { LoginRedirectSuccess } from '@fanfare/protocol';
import { z } from 'zod';

export interface ScriptedLogin {
  accessToken: string;
  serviceToken: string;
  serviceExpiresAt: number;
  /** The final redirect target, with the login result in its query. */
  finalUrl: URL;
}

/**
 * The whole Spotify redirect login as a browser would do it, approving at the emulator as the demo
 * fan named by `hint` (login_hint). Follows every redirect by hand and returns the final query.
 */
export async function loginWithSpotify(
  partyUrl: string,
  hint: string,
  opts: { partyId?: string; grant?: string; redirectUri?: string } = {},
): Promise<ScriptedLogin> {
  const finalUrl = await spotifyRedirectChain(partyUrl, hint, opts);
  const result = LoginRedirectSuccess.parse(Object.fromEntries(finalUrl.searchParams));
  return {
    accessToken: result.access_token,
    serviceToken: result.service_token,
    serviceExpiresAt: result.service_expires_at,
    finalUrl,
  };
}

/** Runs the redirect chain and returns where it ends (the app's redirect_uri with its result). */
export async function spotifyRedirectChain(
  partyUrl: string,
  hint: string | null,
  opts: { partyId?: string; grant?: string; redirectUri?: string; hashOutput?: boolean } = {},
): Promise<URL> {
  const start = new URL(`${partyUrl}/api/auth/spotify/login`);
  start.searchParams.set('redirect_uri', opts.redirectUri ?? `${partyUrl}/`);
  start.searchParams.set('party_id', opts.partyId ?? 'demo');
  start.searchParams.set('hash_output', opts.hashOutput ? 'true' : 'false');
  if (opts.grant) start.searchParams.set('grant', opts.grant);
  let url = start.toString();
  const appOrigin = new URL(opts.redirectUri ?? `${partyUrl}/`);
  for (let hop = 0; hop < 6; hop++) {
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) throw new Error(`Login stopped at ${url} with ${res.status}: ${await res.text()}`);
    const next = new URL(location, url);
    if (next.pathname.endsWith('/accounts/authorize') && hint !== null) next.searchParams.set('login_hint', hint);
    if (next.pathname.endsWith('/accounts/authorize') && hint === null) {
      // A person pressing "Cancel" on the consent page.
      const back = new URL(next.searchParams.get('redirect_uri')!);
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('state', next.searchParams.get('state')!);
      url = back.toString();
      continue;
    }
    if (next.origin === appOrigin.origin && next.pathname === appOrigin.pathname) return next;
    url = next.toString();
  }
  throw new Error('Too many redirects');
}

/** A Music User Token of the Apple emulator for the fan named by `hint` (the emulator's consent step, not an API route: raw fetch). */
export async function appleMusicUserToken(partyUrl: string, hint: string): Promise<string> {
  const res = await fetch(`${partyUrl}/emulator/apple/authorize?login_hint=${encodeURIComponent(hint)}`);
  return z.object({ music_user_token: z.string() }).parse(await res.json()).music_user_token;
}

/** Logs in at the Apple emulator as a demo fan and returns our bearer token (through the typed party client). */
export async function loginWithApple(partyUrl: string, hint: string, body: { grant_token?: string; party_id?: string } = {}): Promise<string> {
  const musicUserToken = await appleMusicUserToken(partyUrl, hint);
  const res = await new PartyClient({ baseUrl: partyUrl }).call('appleLogin', { body: { music_user_token: musicUserToken, ...body } });
  return res.access_token;
}
