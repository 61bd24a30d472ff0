import { FakeChatBody, PartyIdParam } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireCmsForParty } from '../access.ts';
import type { FakeTraffic } from './service.ts';

/** Fake chat traffic is an admin-tool action (and our load generator): CMS token only. */
export async function registerFakeRoutes(app: App, ctx: ServerContext, fake: FakeTraffic): Promise<void> {
  const tags = ['chat'];

  app.post('/api/parties/:id/chat/fake', { schema: { tags, params: PartyIdParam, body: FakeChatBody } }, async (req, reply) => {
    await requireCmsForParty(ctx, req, req.params.id);
    await fake.start(req.params.id, req.body);
    return reply.status(204).send();
  });

  app.delete('/api/parties/:id/chat/fake', { schema: { tags, params: PartyIdParam } }, async (req, reply) => {
    await requireCmsForParty(ctx, req, req.params.id);
    await fake.stop(req.params.id);
    return reply.status(204).send();
  });
}
