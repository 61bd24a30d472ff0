import { GRANT_LINK_REFUSED_ERROR } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import { signPayload, verifyPayload } from '../../platform/tokens.ts';
import { redeemGrantToken } from '../grants/service.ts';
import { issueAccessToken, type Fan } from './sessions.ts';

const STATE_TTL_MS = 10 * 60_000;

/** What survives the trip through the provider's consent page, signed so it cannot be altered. */
export interface LoginState {
  redirect_uri: string;
  party_id: string | null;
  grant: string | null;
  artist_ids: string[];
  hash_output: boolean;
  exp: number;
}

/**
 * Paths on our origins that are not pages of an app: an API call, an emulator's authorize step
 * (which redirects onward), stored files or docs. A login never returns there, so a token cannot
 * be bounced on through one of our own redirects.
 */
const NOT_A_PAGE = /^\/(?:api|emulator|uploads|media|docs)(?:\/|$)/i;

/**
 * True when `uri` points at an origin we may send a fan back to, on a page of an app. Guards against an open redirect
 * that would hand a fresh access token to a foreign site.
 */
export function isAllowedRedirect(ctx: ServerContext, uri: string): boolean {
  try {
    const url = new URL(uri);
    return (
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      ctx.config.allowedRedirectOrigins.includes(url.origin) &&
      !NOT_A_PAGE.test(url.pathname)
    );
  } catch {
    return false;
  }
}

export function encodeState(ctx: ServerContext, state: Omit<LoginState, 'exp'>): string {
  return signPayload({ ...state, exp: ctx.now() + STATE_TTL_MS }, ctx.config.sessionSecret);
}

/** The login state when its signature holds and it has not expired; null otherwise. */
export function decodeState(ctx: ServerContext, raw: string): LoginState | null {
  const state = verifyPayload<LoginState>(raw, ctx.config.sessionSecret);
  return state && state.exp > ctx.now() && isAllowedRedirect(ctx, state.redirect_uri) ? state : null;
}

/** Appends the login result to the redirect target, in its query or (hash_output) its fragment. */
export function resultUrl(redirectUri: string, params: Record<string, string>, hashOutput: boolean): string {
  const url = new URL(redirectUri);
  if (hashOutput) {
    url.hash = new URLSearchParams(params).toString();
  } else {
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  }
  return url.toString();
}

const REFUSED_MESSAGES = {
  unknown: 'This grant link is not valid for this party (it may have been revoked)',
  expired: 'This grant link has expired',
  used_up: 'This grant link has been used up',
} as const;

/**
 * After a provider login: redeem a grant token if one came along, then issue our bearer token. A
 * refused grant link (unknown, expired, used up) refuses the login with a 403 (issue 10): the fan
 * asked for a role they do not get, so no session is issued rather than a silent listener one.
 */
export async function completeLogin(ctx: ServerContext, fan: Fan, grant: string | null, partyId: string | null): Promise<string> {
  const now = ctx.now();
  if (grant) {
    const outcome = await redeemGrantToken(ctx.db, grant, fan.id, now, partyId);
    if (outcome !== 'redeemed') {
      ctx.logger.info({ fanId: fan.id, partyId, outcome }, 'login refused: grant link not redeemable');
      throw new HttpError(403, { message: REFUSED_MESSAGES[outcome], type: GRANT_LINK_REFUSED_ERROR, reason: outcome });
    }
  }
  return issueAccessToken(ctx.db, fan.id, now, ctx.config.accessTokenTtlMs);
}
