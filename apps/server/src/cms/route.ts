import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.ts';
import { unauthorized } from '../platform/errors.ts';
import { idempotency } from '../platform/idempotency.ts';
import { routeRateLimits } from '../platform/rateLimits.ts';
import { routeWith, type Guards } from '../platform/route.ts';
import { getCampaign } from './campaigns/service.ts';
import { audited, type AuditOptions } from './editorial/audit.ts';
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

/** The back-office user a guard handed over (a campaign account or the public is no actor). */
function cmsActor(caller: unknown) {
  if (caller && typeof caller === 'object' && 'email' in caller && 'id' in caller && typeof caller.email === 'string' && typeof caller.id === 'string') {
    return { id: caller.id, name: caller.email };
  }
  return null;
}

/**
 * `route(app, CMS_ROUTES.x, handler)` for the CMS listener. Every back-office write it registers
 * is recorded in the audit log (`editorial/audit.ts`), with a campaign's state before and after.
 */
export const cmsRoute = (ctx: ServerContext) => {
  const route = routeWith(cmsGuards(ctx), {
    rateLimits: routeRateLimits(ctx),
    idempotency: idempotency({ db: ctx.db, now: () => ctx.now(), logger: ctx.logger }),
  });
  const audit: AuditOptions<unknown> = {
    actorOf: cmsActor,
    load: async (entityType, id) => (entityType === 'campaigns' ? getCampaign(ctx, id) : undefined),
  };
  return ((app, def, handler, extras) => route(app, def, audited(ctx, def, handler, audit), extras)) as typeof route;
};
