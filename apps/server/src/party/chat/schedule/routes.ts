import {
  PartyIdParam,
  PostScheduledMessageBody,
  PostScheduledMessageResponse,
  ScheduledMessageParams,
  ScheduledMessagesResponse,
} from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireCmsForParty } from '../access.ts';
import { createScheduled, deleteScheduled, listScheduled } from './service.ts';

/** Scheduled messages are admin-tool actions: every route checks the CMS token first. */
export async function registerScheduleRoutes(app: App, ctx: ServerContext, pokeTimers: () => void): Promise<void> {
  const tags = ['chat'];

  app.get(
    '/api/parties/:id/chat/schedule',
    { schema: { tags, params: PartyIdParam, response: { 200: ScheduledMessagesResponse } } },
    async (req) => {
      await requireCmsForParty(ctx, req, req.params.id);
      return { items: await listScheduled(ctx, req.params.id) };
    },
  );

  app.post(
    '/api/parties/:id/chat/schedule',
    { schema: { tags, params: PartyIdParam, body: PostScheduledMessageBody, response: { 201: PostScheduledMessageResponse } } },
    async (req, reply) => {
      await requireCmsForParty(ctx, req, req.params.id);
      const created = await createScheduled(ctx, req.params.id, req.body);
      pokeTimers();
      return reply.status(201).send(created);
    },
  );

  app.delete('/api/parties/:id/chat/schedule/:scheduleId', { schema: { tags, params: ScheduledMessageParams } }, async (req, reply) => {
    await requireCmsForParty(ctx, req, req.params.id);
    await deleteScheduled(ctx, req.params.id, req.params.scheduleId);
    return reply.status(204).send();
  });
}
