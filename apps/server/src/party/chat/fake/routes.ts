import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { requireParty } from '../../parties/queries.ts';
import { partyRoute } from '../../route.ts';
import type { FakeTraffic } from './service.ts';

/** Fake chat traffic is an admin-tool action (and our load generator): CMS token only (the guard). */
export async function registerFakeRoutes(app: App, ctx: ServerContext, fake: FakeTraffic): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.startFakeChat, async (req) => {
    await requireParty(ctx.db, req.params.id);
    await fake.start(req.params.id, req.body);
  });

  route(app, PARTY_ROUTES.stopFakeChat, async (req) => {
    await requireParty(ctx.db, req.params.id);
    await fake.stop(req.params.id);
  });
}
