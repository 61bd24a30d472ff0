import type { RouteOptions } from 'fastify';

type PreHandler = NonNullable<RouteOptions['preHandler']>;

/**
 * Puts `handler` first among a route's own pre-handlers (from an `onRoute` hook): a check that
 * only some routes need, run on those routes alone instead of as a hook on every request.
 */
export function prependPreHandler(route: RouteOptions, handler: PreHandler): void {
  const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
  route.preHandler = [handler, ...existing] as PreHandler;
}
