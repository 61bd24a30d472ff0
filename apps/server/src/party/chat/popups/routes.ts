import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { partyRoute } from '../../route.ts';
import { requireStaff } from '../access.ts';
import { createPopup } from './service.ts';

export async function registerPopupRoutes(app: App, ctx: ServerContext): Promise<void> {
  partyRoute(ctx)(app, PARTY_ROUTES.postPopup, async (req) => {
    await requireStaff(ctx, req, req.params.id);
    return createPopup(ctx, req.params.id, req.body);
  });
}
