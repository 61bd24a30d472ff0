import { GrantByServiceParams, GrantByTokenParams, GrantsResponse, PartyIdParam, PostGrantBody, PostGrantResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { requireCms } from '../auth/guards.ts';
import { requireParty } from '../parties/queries.ts';
import { DEMO_PARTY_ID } from '../../demo/seed.ts';
import { createGrant, deleteGrantByAccount, deleteGrantByToken, grantLink, listGrants } from './service.ts';

/** Grants are admin actions: every route checks the CMS token first. */
export async function registerGrantRoutes(app: App, ctx: ServerContext): Promise<void> {
  const tags = ['grants'];
  app.get('/api/parties/:id/grants', { schema: { tags, params: PartyIdParam, response: { 200: GrantsResponse } } }, async (req) => {
    await requireCms(ctx, req);
    await requireParty(ctx.db, req.params.id);
    return { items: await listGrants(ctx.db, req.params.id) };
  });

  app.post(
    '/api/parties/:id/grants',
    { schema: { tags, params: PartyIdParam, body: PostGrantBody, response: { 201: PostGrantResponse } } },
    async (req, reply) => {
      await requireCms(ctx, req);
      await requireParty(ctx.db, req.params.id);
      const grant = await createGrant(ctx.db, req.params.id, req.body, ctx.now());
      const link = grant.token ? grantLink(ctx.config.publicUrl, req.params.id, DEMO_PARTY_ID, grant.token) : null;
      return reply.status(201).send({ ...grant, link });
    },
  );

  app.delete('/api/parties/:id/grants/:service/:serviceId', { schema: { tags, params: GrantByServiceParams } }, async (req, reply) => {
    await requireCms(ctx, req);
    await deleteGrantByAccount(ctx.db, req.params.id, req.params.service, req.params.serviceId);
    return reply.status(204).send();
  });

  app.delete('/api/parties/:id/grants/:token', { schema: { tags, params: GrantByTokenParams } }, async (req, reply) => {
    await requireCms(ctx, req);
    await deleteGrantByToken(ctx.db, req.params.id, req.params.token);
    return reply.status(204).send();
  });
}
