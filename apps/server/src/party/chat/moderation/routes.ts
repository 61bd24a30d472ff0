import { PartyIdParam, PartyUserParams, UserChatRightResponse, UsersQuery, UsersResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireCmsForParty, requireStaff } from '../access.ts';
import { deleteAllUsers, listPartyUsers, setCanChat } from './service.ts';

/** Blocking, unblocking and listing users (host/admin), removing all users (CMS). */
export async function registerModerationRoutes(app: App, ctx: ServerContext): Promise<void> {
  const tags = ['users'];

  app.delete(
    '/api/parties/:id/users/:userId/can_chat',
    { schema: { tags, params: PartyUserParams, response: { 200: UserChatRightResponse } } },
    async (req) => {
      await requireStaff(ctx, req, req.params.id);
      return setCanChat(ctx, req.params.id, req.params.userId, false);
    },
  );

  app.put(
    '/api/parties/:id/users/:userId/can_chat',
    { schema: { tags, params: PartyUserParams, response: { 200: UserChatRightResponse } } },
    async (req) => {
      await requireStaff(ctx, req, req.params.id);
      return setCanChat(ctx, req.params.id, req.params.userId, true);
    },
  );

  app.get(
    '/api/parties/:id/users',
    { schema: { tags, params: PartyIdParam, querystring: UsersQuery, response: { 200: UsersResponse } } },
    async (req) => {
      // The user list (with e-mails) is for hosts and admins only.
      await requireStaff(ctx, req, req.params.id);
      return { items: await listPartyUsers(ctx, req.params.id, req.query.can_chat) };
    },
  );

  app.delete('/api/parties/:id/users', { schema: { tags, params: PartyIdParam } }, async (req, reply) => {
    // CMS only: removing every user is an admin-tool action.
    await requireCmsForParty(ctx, req, req.params.id);
    await deleteAllUsers(ctx, req.params.id);
    return reply.status(204).send();
  });
}
