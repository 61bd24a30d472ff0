/**
 * Rate limits attached to routes by method and URL, from one table per surface, so the limits of
 * abuse-prone calls (logins, anonymous signups, uploads) live in one place instead of in each
 * route file. Uses @fastify/rate-limit's `rateLimit()` pre-handler (the plugin must be registered,
 * with `global: false`, before `limitRoutes` is called; routes must be declared after).
 */
import type { FastifyRequest, RouteOptions } from 'fastify';
import type { App } from './http.ts';
import { prependPreHandler } from './routeHooks.ts';

export interface RouteLimit {
  method: string;
  url: string;
  /** Requests allowed per `timeWindow` ms, per key (the client address unless `keyGenerator` says otherwise). */
  max: number;
  timeWindow: number;
  keyGenerator?: (req: FastifyRequest) => string;
  /** Requests this limit does not count (e.g. signups that carry a login). */
  allowList?: (req: FastifyRequest) => boolean;
}

type RateLimited = App & { rateLimit: (options: Omit<RouteLimit, 'method' | 'url'>) => NonNullable<RouteOptions['preHandler']> };

export function limitRoutes(app: App, limits: RouteLimit[]): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limit = limits.find((l) => l.url === route.url && methods.includes(l.method));
    if (!limit) return;
    const { method: _method, url: _url, ...options } = limit;
    prependPreHandler(route, (app as RateLimited).rateLimit(options));
  });
}
