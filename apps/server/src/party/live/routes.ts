import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import type { Fan } from '../auth/sessions.ts';
import { roleInParty } from '../grants/service.ts';
import { requireParty } from '../parties/queries.ts';
import { getParty, putParty } from '../parties/service.ts';
import { partyRoute } from '../route.ts';
import { canStartParty, currentStatus, endParty, startParty, stopParty } from './playback.ts';
import type { PartySocketServer } from './socket.ts';
import { getTracks, putTracks, setVote } from './tracks.ts';

/** Party management, the timeline calls, tracks and votes; `GET /api/parties/{id}` also upgrades to the socket. */
export async function registerLiveRoutes(app: App, ctx: ServerContext, sockets: PartySocketServer): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.getParty, async (req) => getParty(ctx, req.params.id), {
    // The same path upgraded: the party socket (spec 4 and 7). The token travels in the query
    // because browsers cannot set socket headers; the socket server checks it.
    wsHandler: ((socket: Parameters<PartySocketServer['accept']>[0], req: { params: { id: string }; query: unknown }) => {
      const query = req.query as { access_token?: unknown };
      sockets.accept(socket, req.params.id, typeof query.access_token === 'string' ? query.access_token : undefined);
    }) as never,
  });

  // Creating and editing parties is an admin action: CMS token only (the guard).
  route(app, PARTY_ROUTES.putParty, async (req) => putParty(ctx, req.params.id, req.body));

  route(app, PARTY_ROUTES.startParty, async (req, _reply, caller) => {
    await requireParty(ctx.db, req.params.id);
    // Start is for the roles `partyStartAllowed` names (host, admin or both); the admin tool's
    // CMS token may always start.
    if (caller.fan) {
      const role = await roleInParty(ctx.db, req.params.id, caller.fan);
      if (!(await canStartParty(ctx, req.params.id, role))) throw forbidden('Your role may not start this party');
    }
    return startParty(ctx, req.params.id);
  });

  // Stopping the timeline: the admin tool (CMS token) or the party's hosts and admins in the app.
  route(app, PARTY_ROUTES.stopParty, async (req, _reply, caller) => {
    await requirePartyStaff(ctx, req.params.id, caller.fan);
    return stopParty(ctx, req.params.id);
  });

  // Ending the party: the admin tool (CMS token) or the party's hosts and admins in the app.
  route(app, PARTY_ROUTES.endParty, async (req, _reply, caller) => {
    await requirePartyStaff(ctx, req.params.id, caller.fan);
    return endParty(ctx, req.params.id);
  });

  // The timeline is for logged-in fans (the guard).
  route(app, PARTY_ROUTES.getPlayerStatus, async (req) => {
    const status = await currentStatus(ctx, req.params.id);
    return { status, server_time_ms: ctx.now() };
  });

  route(app, PARTY_ROUTES.getTracks, async (req) => getTracks(ctx, req.params.id));

  // Choosing the music is an admin action (CMS token, the guard).
  route(app, PARTY_ROUTES.putTracks, async (req) => putTracks(ctx, req.params.id, req.body));

  route(app, PARTY_ROUTES.voteTrack, async (req, _reply, fan) => setVote(ctx, req.params.id, fan, req.params.trackId, true));

  route(app, PARTY_ROUTES.unvoteTrack, async (req, _reply, fan) => setVote(ctx, req.params.id, fan, req.params.trackId, false));
}

/**
 * Spec 6 lists stop and end among the CMS actions; the app's host controls carry the fan's bearer
 * instead. Either passes (the guard): a CMS token, or the bearer of a fan whose role in this party
 * is host or admin. A listener's bearer is refused (403), no credentials at all 401.
 */
async function requirePartyStaff(ctx: ServerContext, partyId: string, fan: Fan | null): Promise<void> {
  if (!fan) return;
  const role = await roleInParty(ctx.db, partyId, fan);
  if (role !== 'host' && role !== 'admin') throw forbidden("Only the party's hosts and admins may do this");
}
