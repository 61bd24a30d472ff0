/**
 * Issue 10, "Abuse paths", on the party listener: Apple logins and anonymous signups are limited
 * per client address, profile and media uploads per fan. 429 answers carry `detail`.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import { limitRoutes } from '../platform/routeLimits.ts';
import { bearerToken } from './auth/guards.ts';

/** Ours: uploads one fan may make per minute (profile pictures and chat media together). */
export const UPLOADS_PER_FAN_PER_MINUTE = 20;

const byFanOrAddress = (req: FastifyRequest) => bearerToken(req) ?? req.ip;

export async function registerPartyAbuseLimits(app: App, ctx: ServerContext): Promise<void> {
  await app.register(rateLimit, { global: false });
  const { abuse } = ctx.config;
  limitRoutes(app, [
    { method: 'POST', url: '/api/auth/apple/login', max: abuse.appleLoginsPerMinute, timeWindow: 60_000 },
    // Only signups without a login are anonymous: each would be a fresh fan with a fresh chat quota.
    { method: 'POST', url: '/api/parties/:id/users', max: abuse.anonSignupsPer10Min, timeWindow: 10 * 60_000, allowList: (req) => bearerToken(req) !== null },
    { method: 'POST', url: '/api/parties/:id/uploads/profile', max: UPLOADS_PER_FAN_PER_MINUTE, timeWindow: 60_000, keyGenerator: byFanOrAddress },
    { method: 'POST', url: '/api/parties/:id/uploads/media', max: UPLOADS_PER_FAN_PER_MINUTE, timeWindow: 60_000, keyGenerator: byFanOrAddress },
  ]);
}
