import {
  Campaign,
  CampaignLock,
  CampaignsQuery,
  CampaignsResponse,
  CloneCampaignBody,
  CmsIdParam,
  CreateCampaignBody,
  PatchCampaignBody,
  SlugExistsParams,
  SlugExistsResponse,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { requireCmsUser } from '../users/guards.ts';
import {
  acquireLock,
  cloneCampaign,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  patchCampaign,
  releaseLock,
  slugExists,
} from './service.ts';

const tags = ['cms campaigns'];

export async function registerCampaignRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.get('/api/campaigns', { schema: { tags, querystring: CampaignsQuery, response: { 200: CampaignsResponse } } }, async (req) => {
    await requireCmsUser(ctx, req, 'campaigns.read');
    return { items: await listCampaigns(ctx, req.query.app_id) };
  });

  app.get('/api/campaigns/:id', { schema: { tags, params: CmsIdParam, response: { 200: Campaign } } }, async (req) => {
    await requireCmsUser(ctx, req, 'campaigns.read');
    return getCampaign(ctx, req.params.id);
  });

  app.post('/api/campaigns', { schema: { tags, body: CreateCampaignBody, response: { 201: Campaign } } }, async (req, reply) => {
    await requireCmsUser(ctx, req, 'campaigns.write');
    return reply.status(201).send(await createCampaign(ctx, req.body));
  });

  app.post(
    '/api/campaigns/:id/patch',
    { schema: { tags, summary: 'Change fields (409 while someone else holds the lock)', params: CmsIdParam, body: PatchCampaignBody, response: { 200: Campaign } } },
    async (req) => patchCampaign(ctx, await requireCmsUser(ctx, req, 'campaigns.write'), req.params.id, req.body),
  );

  app.post(
    '/api/campaigns/:id/clone',
    { schema: { tags, params: CmsIdParam, body: CloneCampaignBody, response: { 201: Campaign } } },
    async (req, reply) => {
      await requireCmsUser(ctx, req, 'campaigns.write');
      return reply.status(201).send(await cloneCampaign(ctx, req.params.id, req.body));
    },
  );

  app.get(
    '/api/campaigns/:app/:slug/exists',
    { schema: { tags, params: SlugExistsParams, response: { 200: SlugExistsResponse } } },
    async (req) => {
      await requireCmsUser(ctx, req, 'campaigns.read');
      return { exists: await slugExists(ctx, req.params.app, req.params.slug) };
    },
  );

  app.delete('/api/campaigns/:id', { schema: { tags, params: CmsIdParam } }, async (req, reply) => {
    await deleteCampaign(ctx, await requireCmsUser(ctx, req, 'campaigns.delete'), req.params.id);
    return reply.status(204).send();
  });

  app.put(
    '/api/campaigns/:id/lock',
    { schema: { tags, summary: 'Take or renew the edit lock', params: CmsIdParam, response: { 200: CampaignLock } } },
    async (req) => acquireLock(ctx, await requireCmsUser(ctx, req, 'campaigns.write'), req.params.id),
  );

  app.delete('/api/campaigns/:id/lock', { schema: { tags, summary: 'Release the edit lock', params: CmsIdParam } }, async (req, reply) => {
    await releaseLock(ctx, await requireCmsUser(ctx, req, 'campaigns.write'), req.params.id);
    return reply.status(204).send();
  });
}
