/**
 * Issue 10: a bearer of any party could read the chat, player status and scoreboard of a
 * `login_required` party. Reading a party's live data now needs a signup in that party, a host or
 * admin grant in it, or the admin tool (CMS token). Parties open to anonymous signup stay readable
 * by any logged-in fan, as before.
 *
 * One hook on the party listener guards every live-data read route listed here, ahead of the
 * route's own checks (which still answer 401 for a missing bearer and 404 for an unknown party).
 */
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../context.ts';
import { toBool } from '../platform/db/columns.ts';
import { forbidden } from '../platform/errors.ts';
import type { App } from '../platform/http.ts';
import { prependPreHandler } from '../platform/routeHooks.ts';
import { bearerToken, requireCms } from './auth/guards.ts';
import { fanForToken } from './auth/sessions.ts';
import { findPartyCached } from './parties/queries.ts';
import { cmsActor, denial, fanActor } from './policies.ts';

/** The GET routes that read a party's live data. */
export const LIVE_READ_ROUTES: ReadonlySet<string> = new Set([
  '/api/parties/:id/chat/messages',
  '/api/parties/:id/chat/recent',
  '/api/parties/:id/player/status',
  '/api/parties/:id/chat/quiz/scoreboard',
]);

/** Refuses (403) a reader of a login-required party without `live.read` (see `policies.ts`); the CMS token reads. */
export async function checkLiveReader(ctx: ServerContext, req: FastifyRequest, partyId: string): Promise<void> {
  // The cached row (issue 16): every chat/recent and player status read passes here.
  const party = await findPartyCached(ctx.db, partyId);
  // Unknown parties and open parties: the route answers as it always did.
  if (!party || !toBool(party.login_required)) return;
  if (req.headers['x-cms-token'] !== undefined) {
    await requireCms(ctx, req);
    if (denial(cmsActor(party), 'live.read')) throw forbidden('The admin tool may not read this party');
    return;
  }
  const token = bearerToken(req);
  const fan = token ? await fanForToken(ctx.db, token, ctx.now()) : null;
  if (!fan) return; // the route's own guard answers 401
  // Who may read is the policy's `live.read`: signed-up fans, hosts and admins.
  if (denial(await fanActor(ctx, party, fan), 'live.read')) throw forbidden('Sign up for this party to read its chat, player status and scoreboard');
}

/** Gives each live-data read route (registered after this call) the check, ahead of its own handler. */
export function registerLiveReadAccess(app: App, ctx: ServerContext): void {
  const check = async (req: FastifyRequest) => checkLiveReader(ctx, req, (req.params as { id: string }).id);
  // On those routes only: a hook on every request cost each of them a promise (issue 16).
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // HEAD too: it answers the same status as GET.
    if (!methods.some((m) => m === 'GET' || m === 'HEAD') || !LIVE_READ_ROUTES.has(route.url)) return;
    prependPreHandler(route, check);
  });
}
