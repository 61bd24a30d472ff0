import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.ts';
import { unauthorized } from '../platform/errors.ts';
import { routeWith, type Guards } from '../platform/route.ts';
import { bearerToken, requireCms, requireCmsOrFan, requireFan } from './auth/guards.ts';
import { fanForToken } from './auth/sessions.ts';
import { audited, type AuditOptions } from '../cms/editorial/audit.ts';
import { getParty } from './parties/service.ts';

/**
 * Who may call a party route, by its table entry's `auth`. The guard settles the caller's
 * identity (a fan's bearer, the admin tool's `X-Cms-Token`); what that caller may do in a given
 * party (host, admin) is the handler's check.
 */
export function partyGuards(ctx: ServerContext) {
  return {
    none: async () => null,
    bearer: async (req: FastifyRequest) => requireFan(ctx, req),
    // Parties without login_required accept anonymous signups; a token, when sent, must be valid.
    bearer_optional: async (req: FastifyRequest) => {
      const token = bearerToken(req);
      if (!token) return null;
      const fan = await fanForToken(ctx.db, token, ctx.now());
      if (!fan) throw unauthorized('Invalid or expired access token');
      return fan;
    },
    bearer_host: async (req: FastifyRequest) => requireFan(ctx, req),
    cms: async (req: FastifyRequest) => requireCms(ctx, req),
    // A CMS token, when sent, must be accepted (a wrong one is refused, not ignored); a bearer is
    // a fan's access token or a back-office user's own token (issue 15).
    cms_or_bearer: async (req: FastifyRequest) => requireCmsOrFan(ctx, req),
  } satisfies Guards;
}

/** The back-office caller of a party call: the `cms` guard's identity, or the CMS side of `cms_or_bearer`. */
function partyCmsActor(caller: unknown) {
  const who = caller && typeof caller === 'object' && 'cms' in caller ? caller.cms : caller;
  if (who && typeof who === 'object' && 'id' in who && 'name' in who && typeof who.id === 'string' && typeof who.name === 'string') return { id: who.id, name: who.name };
  return null;
}

/**
 * `route(app, PARTY_ROUTES.x, handler)` for the party listener. A back-office caller's writes are
 * recorded in the audit log like the CMS API's, with the party before and after.
 */
export const partyRoute = (ctx: ServerContext) => {
  const route = routeWith(partyGuards(ctx));
  const audit: AuditOptions<unknown> = {
    actorOf: partyCmsActor,
    load: async (entityType, id) => (entityType === 'parties' ? getParty(ctx, id) : undefined),
  };
  return ((app, def, handler, extras) => route(app, def, audited(ctx, def, handler, audit), extras)) as typeof route;
};
