import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { createHandover, redeemHandover } from './service.ts';

export async function registerHandoverRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  // Limited per client: each call stores a row (the table also has a global cap).
  const limited = { config: { rateLimit: { max: 20, timeWindow: 60_000 } } };
  route(app, CMS_ROUTES.createHandover, async (req) => createHandover(ctx, req.params.id, req.body), limited);
  // Tokens are 256-bit random: the limit is against noise, not guessing.
  route(app, CMS_ROUTES.redeemHandover, async (req) => redeemHandover(ctx, req.params.id, req.body.token), { config: { rateLimit: { max: 60, timeWindow: 60_000 } } });
}
