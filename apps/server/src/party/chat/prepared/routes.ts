import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { App } from '../../../platform/http.ts';
import { partyRoute } from '../../route.ts';
import { createPrepared, deletePrepared, listPrepared } from './service.ts';

/** Prepared polls and quizzes: the route guard lets in the party's hosts and admins and the admin tool (`questions.prepare`). */
export async function registerPreparedRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.listPreparedQuestions, async (req) => ({ items: await listPrepared(ctx, req.params.id) }));

  route(app, PARTY_ROUTES.postPreparedQuestion, async (req) => createPrepared(ctx, req.params.id, req.body));

  route(app, PARTY_ROUTES.deletePreparedQuestion, async (req) => {
    await deletePrepared(ctx, req.params.id, req.params.preparedId);
  });
}
