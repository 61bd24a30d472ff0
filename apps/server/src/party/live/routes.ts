import {
  EndPartyResponse,
  GetPartyResponse,
  PartyIdParam,
  PartyTrackParams,
  PartyTracksResponse,
  PlayerStatusResponse,
  PutPartyBody,
  PutPartyResponse,
  PutTracksBody,
  PutTracksResponse,
  StartPartyResponse,
  StopPartyResponse,
  VoteResponse,
} from '@fanfare/protocol';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { requireCms, requireFan } from '../auth/guards.ts';
import { roleInParty } from '../grants/service.ts';
import { requireParty } from '../parties/queries.ts';
import { getParty, putParty } from '../parties/service.ts';
import { canStartParty, currentStatus, endParty, startParty, stopParty } from './playback.ts';
import type { PartySocketServer } from './socket.ts';
import { getTracks, putTracks, setVote } from './tracks.ts';

/** Party management, the timeline calls, tracks and votes; `GET /api/parties/{id}` also upgrades to the socket. */
export async function registerLiveRoutes(app: App, ctx: ServerContext, sockets: PartySocketServer): Promise<void> {
  const tags = ['parties'];

  app.route({
    method: 'GET',
    url: '/api/parties/:id',
    schema: { tags, params: PartyIdParam, response: { 200: GetPartyResponse } },
    handler: async (req) => getParty(ctx, req.params.id),
    // The same path upgraded: the party socket (spec 4 and 7). The token travels in the query
    // because browsers cannot set socket headers; the socket server checks it.
    wsHandler: (socket, req) => {
      const query = req.query as { access_token?: unknown };
      sockets.accept(socket, req.params.id, typeof query.access_token === 'string' ? query.access_token : undefined);
    },
  });

  app.put('/api/parties/:id', { schema: { tags, params: PartyIdParam, body: PutPartyBody, response: { 200: PutPartyResponse } } }, async (req) => {
    // Creating and editing parties is an admin action: CMS token only.
    await requireCms(ctx, req);
    return putParty(ctx, req.params.id, req.body);
  });

  app.post('/api/parties/:id/start', { schema: { tags, params: PartyIdParam, response: { 200: StartPartyResponse } } }, async (req) => {
    await requireParty(ctx.db, req.params.id);
    // Start is for the roles `partyStartAllowed` names (host, admin or both); the admin tool's
    // CMS token may always start.
    if (!(await hasCmsToken(ctx, req))) {
      const fan = await requireFan(ctx, req);
      const role = await roleInParty(ctx.db, req.params.id, fan);
      if (!(await canStartParty(ctx, req.params.id, role))) throw forbidden('Your role may not start this party');
    }
    return startParty(ctx, req.params.id);
  });

  app.post('/api/parties/:id/stop', { schema: { tags, params: PartyIdParam, response: { 200: StopPartyResponse } } }, async (req) => {
    // Stopping the timeline: the admin tool (CMS token) or the party's hosts and admins in the app.
    await requireCmsOrPartyStaff(ctx, req, req.params.id);
    return stopParty(ctx, req.params.id);
  });

  app.post('/api/parties/:id/end', { schema: { tags, params: PartyIdParam, response: { 200: EndPartyResponse } } }, async (req) => {
    // Ending the party: the admin tool (CMS token) or the party's hosts and admins in the app.
    await requireCmsOrPartyStaff(ctx, req, req.params.id);
    return endParty(ctx, req.params.id);
  });

  app.get('/api/parties/:id/player/status', { schema: { tags, params: PartyIdParam, response: { 200: PlayerStatusResponse } } }, async (req) => {
    // The timeline is for logged-in fans.
    await requireFan(ctx, req);
    const status = await currentStatus(ctx, req.params.id);
    return { status, server_time_ms: ctx.now() };
  });

  app.get('/api/parties/:id/tracks', { schema: { tags, params: PartyIdParam, response: { 200: PartyTracksResponse } } }, async (req) =>
    getTracks(ctx, req.params.id),
  );

  app.put('/api/parties/:id/tracks', { schema: { tags, params: PartyIdParam, body: PutTracksBody, response: { 200: PutTracksResponse } } }, async (req) => {
    // Choosing the music is an admin action (CMS token).
    await requireCms(ctx, req);
    return putTracks(ctx, req.params.id, req.body);
  });

  app.post('/api/parties/:id/tracks/:trackId/votes', { schema: { tags, params: PartyTrackParams, response: { 200: VoteResponse } } }, async (req) =>
    setVote(ctx, req.params.id, await requireFan(ctx, req), req.params.trackId, true),
  );

  app.delete('/api/parties/:id/tracks/:trackId/votes', { schema: { tags, params: PartyTrackParams, response: { 200: VoteResponse } } }, async (req) =>
    setVote(ctx, req.params.id, await requireFan(ctx, req), req.params.trackId, false),
  );
}

/** True when the request carries an accepted CMS token (a wrong one is refused, not ignored). */
async function hasCmsToken(ctx: ServerContext, req: FastifyRequest): Promise<boolean> {
  if (req.headers['x-cms-token'] === undefined) return false;
  await requireCms(ctx, req);
  return true;
}

/**
 * Spec 6 lists stop and end among the CMS actions; the app's host controls carry the fan's bearer
 * instead. Either passes: a CMS token, or the bearer of a fan whose role in this party is host or
 * admin. A listener's bearer is refused (403), no credentials at all 401.
 */
async function requireCmsOrPartyStaff(ctx: ServerContext, req: FastifyRequest, partyId: string): Promise<void> {
  if (await hasCmsToken(ctx, req)) return;
  const fan = await requireFan(ctx, req);
  const role = await roleInParty(ctx.db, partyId, fan);
  if (role !== 'host' && role !== 'admin') throw forbidden('Only the party\'s hosts and admins may do this');
}
