import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { partyRoute } from '../route.ts';
import { currentStatus, endParty, startParty, stopParty } from './playback.ts';
import { getTracks, putTracks, setVote } from './tracks.ts';

/** The timeline calls (start, stop, end, status), tracks and votes. */
export async function registerTimelineRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);

  // Start: the admin tool (CMS token) always; a fan when their role is in `partyStartAllowed`.
  // Stop and end: the admin tool (spec 6) or the party's hosts and admins in the app (the entries' abilities).
  route(app, PARTY_ROUTES.startParty, async (req) => startParty(ctx, req.params.id));
  route(app, PARTY_ROUTES.stopParty, async (req) => stopParty(ctx, req.params.id));
  route(app, PARTY_ROUTES.endParty, async (req) => endParty(ctx, req.params.id));

  // The timeline is for logged-in fans (the guard) who may read the party's live data (`live.read`).
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
