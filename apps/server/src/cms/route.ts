import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.ts';
import { unauthorized } from '../platform/errors.ts';
import { routeRateLimits } from '../platform/rateLimits.ts';
import { routeWith, type Guards } from '../platform/route.ts';
import { cmsTokenOf, requireCmsUser } from './users/guards.ts';

/** The token of `Authorization: Bearer <token>` (or a bare token in the header). */
export function accountTokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization?.trim();
  if (!header) return null;
  return /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? (/^\S+$/.test(header) ? header : null);
}

/**
 * Who may call a CMS route, by its table entry's `auth`: the public, a back-office user whose
 * roles grant the entry's `permission` (the user is handed to the handler), or a campaign account
 * (its token is handed over; the account service checks it).
 */
export function cmsGuards(ctx: ServerContext) {
  return {
    none: async () => null,
    cms: async (req: FastifyRequest, def) => requireCmsUser(ctx, req, def.permission),
    // A token, when sent, must be valid: an expired admin session must not turn into a self-registration.
    cms_optional: async (req: FastifyRequest) => (cmsTokenOf(req) ? requireCmsUser(ctx, req) : null),
    account: async (req: FastifyRequest) => {
      const token = accountTokenOf(req);
      if (!token) throw unauthorized('Missing bearer token');
      return { token };
    },
  } satisfies Guards;
}

/** `route(app, CMS_ROUTES.x, handler)` for the CMS listener. */
export const cmsRoute = (ctx: ServerContext) => routeWith(cmsGuards(ctx), { rateLimits: routeRateLimits(ctx) });
