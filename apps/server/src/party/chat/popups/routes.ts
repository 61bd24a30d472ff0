import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { partyRoute } from '../../route.ts';
import { createPopup } from './service.ts';

export async function registerPopupRoutes(app: App, ctx: ServerContext): Promise<void> {
  // Hosts and admins in the app; the admin tool from the back office's dashboard (issue 14).
  partyRoute(ctx)(app, PARTY_ROUTES.postPopup, async (req) => createPopup(ctx, req.params.id, req.body));
}
