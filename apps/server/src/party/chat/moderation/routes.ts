import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireParty } from '../../parties/queries.ts';
import { partyRoute } from '../../route.ts';
import { deleteAllUsers, listPartyUsers, setCanChat } from './service.ts';

/** Blocking, unblocking and listing users (host/admin), removing all users (CMS). */
export async function registerModerationRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  // Hosts and admins in the app; the admin tool from the back office's live chat view (issue 14).
  route(app, PARTY_ROUTES.blockUser, async (req) => setCanChat(ctx, req.params.id, req.params.userId, false));
  route(app, PARTY_ROUTES.unblockUser, async (req) => setCanChat(ctx, req.params.id, req.params.userId, true));

  // The user list (with e-mails) is personal data: hosts and admins only (`users.list`).
  route(app, PARTY_ROUTES.listUsers, async (req) => {
    return { items: await listPartyUsers(ctx, req.params.id, req.query.can_chat) };
  });

  // CMS only (the guard): removing every user is an admin-tool action.
  route(app, PARTY_ROUTES.deleteUsers, async (req) => {
    await requireParty(ctx.db, req.params.id);
    await deleteAllUsers(ctx, req.params.id);
  });
}
