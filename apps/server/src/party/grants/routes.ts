import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { requireParty } from '../parties/queries.ts';
import { partyRoute } from '../route.ts';
import { DEMO_PARTY_ID } from '../../demo/seed.ts';
import { createGrant, deleteGrantByAccount, deleteGrantByToken, grantLink, listGrants } from './service.ts';

/** Grants are admin actions: every route's guard checks the CMS token first. */
export async function registerGrantRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.listGrants, async (req) => {
    await requireParty(ctx.db, req.params.id);
    return { items: await listGrants(ctx.db, req.params.id) };
  });

  route(app, PARTY_ROUTES.postGrant, async (req) => {
    await requireParty(ctx.db, req.params.id);
    const grant = await createGrant(ctx.db, req.params.id, req.body, ctx.now());
    const link = grant.token ? grantLink(ctx.config.publicUrl, req.params.id, DEMO_PARTY_ID, grant.token) : null;
    return { ...grant, link };
  });

  route(app, PARTY_ROUTES.deleteGrantByService, async (req) => {
    await deleteGrantByAccount(ctx.db, req.params.id, req.params.service, req.params.serviceId);
  });

  route(app, PARTY_ROUTES.deleteGrantByToken, async (req) => {
    await deleteGrantByToken(ctx.db, req.params.id, req.params.token);
  });
}
