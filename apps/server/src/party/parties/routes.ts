import { DASHBOARD_VIEW, PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { getParty, listParties, putParty } from './service.ts';
import { partyRoute } from '../route.ts';
import { restorePartyVersion, savePartyVersion } from './versions.ts';
import type { DashboardSockets } from '../stats/dashboardSockets.ts';
import type { PartySocketServer } from '../../realtime/sockets.ts';

/** Party management; `GET /api/parties/{id}` also upgrades to the party socket. */
export async function registerPartyRoutes(app: App, ctx: ServerContext, sockets: PartySocketServer, dashboards: DashboardSockets): Promise<void> {
  const route = partyRoute(ctx);

  route(app, PARTY_ROUTES.getParty, async (req) => getParty(ctx, req.params.id), {
    // The same path upgraded: the party socket (spec 4 and 7). The token travels in the query
    // because browsers cannot set socket headers; the socket server checks it.
    wsHandler: ((socket: Parameters<PartySocketServer['accept']>[0], req: { params: { id: string }; query: unknown; socket: Parameters<PartySocketServer['accept']>[1] }) => {
      const query = req.query as { access_token?: unknown; view?: unknown };
      const token = typeof query.access_token === 'string' ? query.access_token : undefined;
      // Issue 14: the hosts' dashboard gets the party's aggregated figures, not its event stream.
      if (query.view === DASHBOARD_VIEW) return dashboards.accept(socket, req.params.id, token);
      sockets.accept(socket, req.socket, req.params.id, token);
    }) as never,
    // A draining node (SIGTERM in a cluster) takes no new sockets: a proxy passes a 503 on to the
    // next node (proxy_next_upstream http_503), a client connected directly retries later.
    onRequest: async (req, reply) => {
      if (!sockets.draining || !req.headers.upgrade) return;
      return reply.code(503).header('retry-after', '1').send({ detail: 'This node is shutting down; connect again and resume' });
    },
  });

  // The back office's list of parties: CMS token or a back-office user's bearer (the guard).
  route(app, PARTY_ROUTES.listParties, async () => ({ items: await listParties(ctx) }));

  // Creating and editing parties is an admin action: CMS token only (the guard).
  route(app, PARTY_ROUTES.putParty, async (req, _reply, who) => {
    const party = await putParty(ctx, req.params.id, req.body);
    await savePartyVersion(ctx, req.params.id, party, { id: who.id, name: who.name });
    return party;
  });

  // Restoring a saved version is an edit of the settings: the admin tool only (ability `party.edit`).
  route(app, PARTY_ROUTES.restorePartyVersion, async (req, _reply, who) => restorePartyVersion(ctx, req.params.id, req.params.version, { id: who.id, name: who.name }));
}
