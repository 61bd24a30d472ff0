import { PartyIdParam, PostChatMessageResponse, PostPopupBody } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireStaff } from '../access.ts';
import { createPopup } from './service.ts';

export async function registerPopupRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.post(
    '/api/parties/:id/chat/popups',
    { schema: { tags: ['chat'], params: PartyIdParam, body: PostPopupBody, response: { 201: PostChatMessageResponse } } },
    async (req, reply) => {
      await requireStaff(ctx, req, req.params.id);
      return reply.status(201).send(await createPopup(ctx, req.params.id, req.body));
    },
  );
}
