import type { RouteDef } from '@fanfare/protocol';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.ts';
import { forbidden, unauthorized } from '../platform/errors.ts';
import { idempotency } from '../platform/idempotency.ts';
import { routeRateLimits } from '../platform/rateLimits.ts';
import { routeWith, type EntryCheck, type Guards } from '../platform/route.ts';
import { bearerToken, requireCms, requireCmsOrFan, requireFan } from './auth/guards.ts';
import { fanForToken, type Fan } from './auth/sessions.ts';
import { requirePartyCached } from './parties/queries.ts';
import { cmsActor, denialIn, fanActor } from './policies.ts';
import { audited, type AuditOptions } from '../cms/editorial/audit.ts';
import { getParty } from './parties/service.ts';

/**
 * Who may call a party route, by its table entry's `auth`. The guard settles the caller's
 * identity (a fan's bearer, the admin tool's `X-Cms-Token`); what that caller may do in the
 * party is the entry's `ability` (`abilityCheck`).
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

/** The fan a guard's caller names, or null for the admin tool (per `auth` kind, see `partyGuards`). */
const FAN_OF: Partial<Record<RouteDef['auth'], (caller: unknown) => Fan | null>> = {
  bearer: (caller) => caller as Fan,
  bearer_host: (caller) => caller as Fan,
  cms: () => null,
  cms_or_bearer: (caller) => (caller as { fan: Fan | null }).fan,
};

/**
 * Enforces an entry's `ability` in the party of its `:id`: 404 for an unknown party, then 403
 * with the policy's reason (`policies.ts`). Runs where the handlers' own checks ran before: after
 * the guard (401) and the input's validation.
 */
function abilityCheck(ctx: ServerContext) {
  return (def: RouteDef): EntryCheck => {
    const ability = def.ability!;
    const fanOf = FAN_OF[def.auth];
    if (!fanOf) throw new Error(`${def.method} ${def.path}: an ability needs a known caller; auth "${def.auth}" has none`);
    if (!def.params || !('id' in def.params.shape)) throw new Error(`${def.method} ${def.path}: an ability is held in the party of :id`);
    // The cached row: every chat post and chat/recent read passes here, and the read cache drops
    // the row when any node writes the party.
    return async (req, _reply, caller) => {
      const party = await requirePartyCached(ctx.db, (req.params as { id: string }).id);
      const fan = fanOf(caller);
      const reason = await denialIn(party, ability, () => (fan ? fanActor(ctx, party, fan) : cmsActor(party)));
      if (reason) throw forbidden(reason);
    };
  };
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
  const route = routeWith(partyGuards(ctx), {
    ability: abilityCheck(ctx),
    rateLimits: routeRateLimits(ctx),
    idempotency: idempotency({ db: ctx.db, now: () => ctx.now(), logger: ctx.logger }),
  });
  const audit: AuditOptions<unknown> = {
    actorOf: partyCmsActor,
    load: async (entityType, id) => (entityType === 'parties' ? getParty(ctx, id) : undefined),
  };
  return ((app, def, handler, extras) => route(app, def, audited(ctx, def, handler, audit), extras)) as typeof route;
};
