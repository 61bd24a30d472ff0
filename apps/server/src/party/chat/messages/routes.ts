import {
  ChatMessageParams,
  ChatMessagesQuery,
  ChatMessagesResponse,
  PartyIdParam,
  PostChatMessageBody,
  PostChatMessageResponse,
} from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireFan } from '../../auth/guards.ts';
import { requireCmsForParty } from '../access.ts';
import { clearChat, deleteChatMessage, listChatMessages, postChatMessage, recentChatMessages } from './service.ts';

export async function registerMessageRoutes(app: App, ctx: ServerContext): Promise<void> {
  const tags = ['chat'];

  app.get(
    '/api/parties/:id/chat/messages',
    { schema: { tags, params: PartyIdParam, querystring: ChatMessagesQuery, response: { 200: ChatMessagesResponse } } },
    async (req) => {
      // Reading the chat needs a logged-in fan.
      await requireFan(ctx, req);
      return { items: await listChatMessages(ctx, req.params.id, req.query.limit, req.query.before, req.query.before_seq_id) };
    },
  );

  app.get('/api/parties/:id/chat/recent', { schema: { tags, params: PartyIdParam, response: { 200: ChatMessagesResponse } } }, async (req) => {
    await requireFan(ctx, req);
    return { items: await recentChatMessages(ctx, req.params.id) };
  });

  app.post(
    '/api/parties/:id/chat/messages',
    { schema: { tags, params: PartyIdParam, body: PostChatMessageBody, response: { 201: PostChatMessageResponse } } },
    async (req, reply) => {
      const fan = await requireFan(ctx, req);
      return reply.status(201).send(await postChatMessage(ctx, req.params.id, fan, req.body));
    },
  );

  app.delete('/api/parties/:id/chat/messages/:messageId', { schema: { tags, params: ChatMessageParams } }, async (req, reply) => {
    const fan = await requireFan(ctx, req);
    await deleteChatMessage(ctx, req.params.id, fan, req.params.messageId);
    return reply.status(204).send();
  });

  app.delete('/api/parties/:id/chat', { schema: { tags, params: PartyIdParam } }, async (req, reply) => {
    // CMS only: wiping the whole chat is an admin-tool action.
    await requireCmsForParty(ctx, req, req.params.id);
    await clearChat(ctx, req.params.id);
    return reply.status(204).send();
  });
}
