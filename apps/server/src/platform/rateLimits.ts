/**
 * The named rate limits route entries declare (`RouteDef.rateLimit`), with their numbers from the
 * configuration (`config.abuse`). Limits per client address count in memory, per node
 * (@fastify/rate-limit, whose plugin each listener registers with `global: false`); the limit per
 * fan counts in the database, so every token and node of the fan shares one allowance. Each
 * refusal is a 429 with `detail` (and `Retry-After` from the plugin).
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { RouteRateLimit } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import type { App } from './http.ts';
import { consumeAllowance } from './limits/counters.ts';
import type { EntryCheck } from './route.ts';

interface AddressLimit {
  /** Requests allowed per `timeWindow` ms from one client address. */
  max: number;
  timeWindow: number;
}

type RateLimited = App & { rateLimit: (options: AddressLimit) => NonNullable<RouteOptions['preHandler']> };
type PluginCheck = (req: FastifyRequest, reply: Parameters<EntryCheck>[1]) => Promise<void>;

/** A limit per client address: one @fastify/rate-limit counter per route, as the plugin keeps them. */
function perAddress(limit: AddressLimit, counts: (caller: unknown) => boolean = () => true): (app: App) => EntryCheck {
  return (app) => {
    if (!('rateLimit' in app)) throw new Error('Register @fastify/rate-limit on the listener before its rate-limited routes');
    const check = (app as RateLimited).rateLimit(limit) as unknown as PluginCheck;
    return async (req, reply, caller) => {
      if (counts(caller)) await check(req, reply);
    };
  };
}

/** The checks of every named limit, for `routeWith`. */
export function routeRateLimits(ctx: ServerContext): Record<RouteRateLimit, (app: App) => EntryCheck> {
  const { abuse } = ctx.config;
  return {
    appleLogin: perAddress({ max: abuse.appleLoginsPerMinute, timeWindow: 60_000 }),
    // Only signups without a login are anonymous (the guard has checked a bearer that was sent):
    // each would be a fresh fan with a fresh chat quota.
    anonymousSignup: perAddress({ max: abuse.anonSignupsPer10Min, timeWindow: 10 * 60_000 }, (caller) => caller === null),
    // Keyed by the fan, not the bearer token: every new login of the same fan would otherwise
    // bring a fresh allowance.
    fanUploads: () => async (_req, _reply, caller) =>
      consumeAllowance(ctx.db, `uploads:${(caller as { id: string }).id}`, { max: abuse.uploadsPerFanPerMinute, windowMs: 60_000, what: 'uploads per minute' }, ctx.now()),
  };
}
