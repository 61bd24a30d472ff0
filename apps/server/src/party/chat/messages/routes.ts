import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireParty } from '../../parties/queries.ts';
import { cmsActor, denial } from '../../policies.ts';
import { partyRoute } from '../../route.ts';
import { badRequest, forbidden } from '../../../platform/errors.ts';
import { clearChat, deleteChatMessage, listChatMessages, listChatMessagesAfter, postChatMessage, recentChatPage } from './service.ts';

export async function registerMessageRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  // Reading the chat needs a logged-in fan (the guard).
  route(app, PARTY_ROUTES.listChatMessages, async (req) => {
    const { limit, before, before_seq_id, after_seq_id } = req.query;
    if (after_seq_id === undefined) return { items: await listChatMessages(ctx, req.params.id, limit, before, before_seq_id) };
    // Two cursors would contradict each other: the catch-up reads forward, `before` backward.
    if (before !== undefined || before_seq_id !== undefined) throw badRequest('after_seq_id cannot be combined with before or before_seq_id');
    return listChatMessagesAfter(ctx, req.params.id, after_seq_id, limit);
  });

  route(app, PARTY_ROUTES.listRecentChatMessages, async (req) => recentChatPage(ctx, req.params.id));

  route(app, PARTY_ROUTES.postChatMessage, async (req, _reply, fan) => postChatMessage(ctx, req.params.id, fan, req.body));

  // No ability on the entry: a fan deletes their own message, a host or admin any, so the message
  // row decides (the service checks); the admin tool (issue 14: the back office's live chat view)
  // any, after the party policy's check.
  route(app, PARTY_ROUTES.deleteChatMessage, async (req, _reply, caller) => {
    if (!caller.fan) {
      const reason = denial(cmsActor(await requireParty(ctx.db, req.params.id)), 'chat.deleteAny');
      if (reason) throw forbidden(reason);
    }
    await deleteChatMessage(ctx, req.params.id, caller.fan, req.params.messageId);
  });

  // CMS only (the guard): wiping the whole chat is an admin-tool action.
  route(app, PARTY_ROUTES.clearChat, async (req) => {
    await requireParty(ctx.db, req.params.id);
    await clearChat(ctx, req.params.id);
  });
}
