import { CMS_ROUTES, TOKEN_GATE_ACCESS_KEY_HEADER } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { campaignViewOf } from '../editorial/preview.ts';
import { cmsRoute } from '../route.ts';
import { checkWithProvider, listAccessKeys, revokeAccessKey, uploadAccessCodes, verifyAccess } from './service.ts';

export async function registerTokenGateRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);

  // Guessing of access codes is slowed per product and client address inside the service (codes
  // belong to a product, so campaigns sharing one share the guesses).
  route(app, CMS_ROUTES.tokenGateCheck, async (req) =>
    checkWithProvider(ctx, req.params.id, req.body.credentials, req.ip, await campaignViewOf(ctx, req, req.params.id, req.query.preview)),
  );

  route(app, CMS_ROUTES.tokenGateVerify, async (req, reply) => {
    const key = req.headers[TOKEN_GATE_ACCESS_KEY_HEADER];
    void reply.header('cache-control', 'private, no-store');
    return verifyAccess(ctx, req.params.id, typeof key === 'string' && key !== '' ? key : null, await campaignViewOf(ctx, req, req.params.id, req.query.preview));
  });

  route(app, CMS_ROUTES.uploadAccessCodes, async (req) => uploadAccessCodes(ctx, req.params.product_id, req.body, req.query.max_uses));

  route(app, CMS_ROUTES.listAccessKeys, async (req) => ({ items: await listAccessKeys(ctx, req.params.id) }));

  route(app, CMS_ROUTES.revokeAccessKey, async (req) => {
    await revokeAccessKey(ctx, req.params.id, req.params.key_id);
  });
}
