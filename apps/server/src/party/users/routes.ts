import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { partyRoute } from '../route.ts';
import { partyProfile, serviceToken, signUp, systemProfile } from './service.ts';

export async function registerUserRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);
  // The bearer is optional on signup: parties without login_required accept anonymous signups.
  route(app, PARTY_ROUTES.signup, async (req, _reply, fan) => signUp(ctx, req.params.id, fan, req.body));
  route(app, PARTY_ROUTES.getPartyMe, async (req, _reply, fan) => partyProfile(ctx, req.params.id, fan));
  route(app, PARTY_ROUTES.getSystemMe, async (req, _reply, fan) => systemProfile(ctx, fan, req.query.party_id));
  route(app, PARTY_ROUTES.getServiceToken, async (_req, _reply, fan) => serviceToken(ctx, fan));
}
