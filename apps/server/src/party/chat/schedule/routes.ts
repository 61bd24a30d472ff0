import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireParty } from '../../parties/queries.ts';
import { partyRoute } from '../../route.ts';
import { createScheduled, deleteScheduled, listScheduled } from './service.ts';

/** Scheduled messages are admin-tool actions: every route's guard checks the CMS token first. */
export async function registerScheduleRoutes(app: App, ctx: ServerContext, pokeTimers: () => void): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.listScheduledMessages, async (req) => {
    await requireParty(ctx.db, req.params.id);
    return { items: await listScheduled(ctx, req.params.id) };
  });

  route(app, PARTY_ROUTES.postScheduledMessage, async (req) => {
    await requireParty(ctx.db, req.params.id);
    const created = await createScheduled(ctx, req.params.id, req.body);
    pokeTimers();
    return created;
  });

  route(app, PARTY_ROUTES.deleteScheduledMessage, async (req) => {
    await requireParty(ctx.db, req.params.id);
    await deleteScheduled(ctx, req.params.id, req.params.scheduleId);
  });
}
