import { DASHBOARD_VIEW, PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { getParty, listParties, peekParty, putParty } from '../parties/service.ts';
import { authorizeCmsOrFan } from '../policies.ts';
import { partyRoute } from '../route.ts';
import { currentStatus, endParty, startParty, stopParty } from './playback.ts';
import type { DashboardSockets } from '../stats/dashboardSockets.ts';
import type { PartySocketServer } from './socket.ts';
import { getTracks, putTracks, setVote } from './tracks.ts';

/** Party management, the timeline calls, tracks and votes; `GET /api/parties/{id}` also upgrades to the socket. */
export async function registerLiveRoutes(app: App, ctx: ServerContext, sockets: PartySocketServer, dashboards: DashboardSockets): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.getParty, async (req) => getParty(ctx, req.params.id), {
    // Every fan's app reads the party on each load: held in the read caches, it is answered from
    // memory ahead of Fastify (decision 0023).
    fromMemory: (params) => peekParty(ctx, params.id),
    // The same path upgraded: the party socket (spec 4 and 7). The token travels in the query
    // because browsers cannot set socket headers; the socket server checks it.
    wsHandler: ((socket: Parameters<PartySocketServer['accept']>[0], req: { params: { id: string }; query: unknown }) => {
      const query = req.query as { access_token?: unknown; view?: unknown };
      const token = typeof query.access_token === 'string' ? query.access_token : undefined;
      // Issue 14: the hosts' dashboard gets the party's aggregated figures, not its event stream.
      if (query.view === DASHBOARD_VIEW) return dashboards.accept(socket, req.params.id, token);
      sockets.accept(socket, req.params.id, token);
    }) as never,
  });

  // The back office's list of parties: CMS token or a back-office user's bearer (the guard).
  route(app, PARTY_ROUTES.listParties, async () => ({ items: await listParties(ctx) }));

  // Creating and editing parties is an admin action: CMS token only (the guard).
  route(app, PARTY_ROUTES.putParty, async (req) => putParty(ctx, req.params.id, req.body));

  // Start: the admin tool (CMS token) always; a fan when their role is in `partyStartAllowed`.
  route(app, PARTY_ROUTES.startParty, async (req, _reply, caller) => {
    await authorizeCmsOrFan(ctx, req.params.id, caller, 'party.start');
    return startParty(ctx, req.params.id);
  });

  // Stop and end: the admin tool (spec 6) or the party's hosts and admins in the app.
  route(app, PARTY_ROUTES.stopParty, async (req, _reply, caller) => {
    await authorizeCmsOrFan(ctx, req.params.id, caller, 'party.stop');
    return stopParty(ctx, req.params.id);
  });

  route(app, PARTY_ROUTES.endParty, async (req, _reply, caller) => {
    await authorizeCmsOrFan(ctx, req.params.id, caller, 'party.end');
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
