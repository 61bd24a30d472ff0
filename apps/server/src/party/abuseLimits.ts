/**
 * Issue 10, "Abuse paths", on the party listener: Apple logins and anonymous signups are limited
 * per client address (in memory, per node); profile and media uploads per fan, whichever token
 * and node they come through (`limitUploadsOfFan`, counted in the database). 429 answers carry
 * `detail`.
 */
import rateLimit from '@fastify/rate-limit';
import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import { consumeAllowance } from '../platform/limits/counters.ts';
import { limitRoutes } from '../platform/routeLimits.ts';
import { bearerToken } from './auth/guards.ts';

/** Ours: uploads one fan may make per minute (profile pictures and chat media together). */
export const UPLOADS_PER_FAN_PER_MINUTE = 20;

/**
 * Counts one upload of `fanId` (429 past UPLOADS_PER_FAN_PER_MINUTE). Keyed by the fan, not the
 * bearer token: every new login of the same fan would otherwise bring a fresh allowance.
 */
export function limitUploadsOfFan(ctx: ServerContext, fanId: string): Promise<void> {
  return consumeAllowance(ctx.db, `uploads:${fanId}`, { max: UPLOADS_PER_FAN_PER_MINUTE, windowMs: 60_000, what: 'uploads per minute' }, ctx.now());
}

export async function registerPartyAbuseLimits(app: App, ctx: ServerContext): Promise<void> {
  await app.register(rateLimit, { global: false });
  const { abuse } = ctx.config;
  limitRoutes(app, [
    { method: 'POST', url: '/api/auth/apple/login', max: abuse.appleLoginsPerMinute, timeWindow: 60_000 },
    // Only signups without a login are anonymous: each would be a fresh fan with a fresh chat quota.
    { method: 'POST', url: '/api/parties/:id/users', max: abuse.anonSignupsPer10Min, timeWindow: 10 * 60_000, allowList: (req) => bearerToken(req) !== null },
  ]);
}
