import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { geoOf } from '../i18n/service.ts';
import { cmsRoute } from '../route.ts';
import { cancelPresave, getPresave, presaveReport, savePresave, territoryRelease } from './service.ts';

/** Pre-saves (`/api/campaigns/{id}/presave`) and the release per territory. */
export async function registerPresaveRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);

  route(
    app,
    CMS_ROUTES.presave,
    async (req, _reply, { token }) =>
      savePresave(ctx, token, req.params.id, req.body, {
        ip: req.ip,
        userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
        // The territory is the server's reading of the request, as `/api/i18n/geo` answers it.
        country: geoOf(ctx, req.headers).country_code,
      }),
    { config: { rateLimit: { max: 30, timeWindow: 60_000 } } },
  );
  route(app, CMS_ROUTES.getPresave, async (req, _reply, { token }) => getPresave(ctx, token, req.params.id));
  route(app, CMS_ROUTES.cancelPresave, async (req, _reply, { token }) => cancelPresave(ctx, token, req.params.id));
  route(app, CMS_ROUTES.getTerritoryRelease, async (req, reply) => {
    // The state flips at the release: never cached for long.
    void reply.header('cache-control', 'public, max-age=15');
    return territoryRelease(ctx, req.params.id, req.params.country);
  });
  route(app, CMS_ROUTES.presaveReport, async (req) => presaveReport(ctx, req.params.id));
}
