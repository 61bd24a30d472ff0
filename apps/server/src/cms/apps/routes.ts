import { AppsResponse, CmsApp, CmsIdParam, CreateAppBody } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { requireCmsUser } from '../users/guards.ts';
import { createApp, listApps, reloadAppConfig } from './service.ts';

const tags = ['cms apps'];

export async function registerAppRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.get('/api/apps', { schema: { tags, response: { 200: AppsResponse } } }, async (req) => {
    await requireCmsUser(ctx, req, 'apps.read');
    return { items: await listApps(ctx.db) };
  });

  app.post('/api/apps', { schema: { tags, body: CreateAppBody, response: { 201: CmsApp } } }, async (req, reply) => {
    await requireCmsUser(ctx, req, 'apps.create');
    return reply.status(201).send(await createApp(ctx, req.body));
  });

  app.post(
    '/api/apps/:id/config/reload',
    { schema: { tags, summary: 'Reload the app configuration (DATA_DIR/apps/<name>.json) and drop cached translations', params: CmsIdParam, response: { 200: CmsApp } } },
    async (req) => {
      await requireCmsUser(ctx, req, 'apps.reload');
      return reloadAppConfig(ctx, req.params.id);
    },
  );
}
