import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { actorOf } from '../editorial/versions.ts';
import { cmsRoute } from '../route.ts';
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

export async function registerCampaignRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.listCampaigns, async (req) => ({ items: await listCampaigns(ctx, req.query.app_id) }));
  route(app, CMS_ROUTES.getCampaign, async (req) => getCampaign(ctx, req.params.id));
  route(app, CMS_ROUTES.createCampaign, async (req, _reply, user) => createCampaign(ctx, req.body, actorOf(user)));
  route(app, CMS_ROUTES.patchCampaign, async (req, _reply, user) => patchCampaign(ctx, user, req.params.id, req.body));
  route(app, CMS_ROUTES.cloneCampaign, async (req, _reply, user) => cloneCampaign(ctx, req.params.id, req.body, actorOf(user)));
  route(app, CMS_ROUTES.slugExists, async (req) => ({ exists: await slugExists(ctx, req.params.app, req.params.slug) }));
  route(app, CMS_ROUTES.deleteCampaign, async (req, _reply, user) => deleteCampaign(ctx, user, req.params.id));
  route(app, CMS_ROUTES.lockCampaign, async (req, _reply, user) => acquireLock(ctx, user, req.params.id));
  route(app, CMS_ROUTES.unlockCampaign, async (req, _reply, user) => releaseLock(ctx, user, req.params.id));
}
