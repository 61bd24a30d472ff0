import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { createApp, listApps, reloadAppConfig } from './service.ts';

export async function registerAppRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.listApps, async () => ({ items: await listApps(ctx.db) }));
  route(app, CMS_ROUTES.createApp, async (req) => createApp(ctx, req.body));
  route(app, CMS_ROUTES.reloadAppConfig, async (req) => reloadAppConfig(ctx, req.params.id));
}
