import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { partyRoute } from '../../route.ts';
import { authorizeFan } from '../../policies.ts';
import { createPopup } from './service.ts';

export async function registerPopupRoutes(app: App, ctx: ServerContext): Promise<void> {
  partyRoute(ctx)(app, PARTY_ROUTES.postPopup, async (req, _reply, fan) => {
    await authorizeFan(ctx, req.params.id, fan, 'popups.create');
    return createPopup(ctx, req.params.id, req.body);
  });
}
