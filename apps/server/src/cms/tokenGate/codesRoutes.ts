import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { pageAccessCodes } from './codes.ts';

/** The back office's view of a product's access codes: how often each was used. */
export async function registerTokenGateCodeRoutes(app: App, ctx: ServerContext): Promise<void> {
  cmsRoute(ctx)(app, CMS_ROUTES.listTokenGateCodes, async (req) => pageAccessCodes(ctx, req.params.product_id, req.query));
}
