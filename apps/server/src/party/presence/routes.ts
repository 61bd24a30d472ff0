import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { conflict } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { requirePartyCached } from '../parties/queries.ts';
import { currentStatus } from '../timeline/playback.ts';
import type { PartySocketServer } from '../../realtime/sockets.ts';
import { partyRoute } from '../route.ts';
import type { Closer } from '../surface.ts';
import { ReactionAggregator } from './reactions.ts';

/**
 * Quick reactions (issue 15): `POST /api/parties/{id}/reactions` counts a signed-up fan's reaction
 * on the playing track, or in the waiting room before the start; the fans of the party get the
 * sums once per window over the socket.
 */
export async function registerReactionRoutes(app: App, ctx: ServerContext, sockets: PartySocketServer): Promise<Closer> {
  const aggregator = new ReactionAggregator((partyId, event) => sockets.broadcastControl(partyId, event), () => ctx.now());

  partyRoute(ctx)(app, PARTY_ROUTES.sendReaction, async (req, _reply, fan) => {
    const partyId = req.params.id;
    // The waiting room is already a party: its reactions count too, on no track.
    if ((await requirePartyCached(ctx.db, partyId)).started_at == null) {
      aggregator.record(partyId, fan.id, req.body.reaction, null);
      return { reaction: req.body.reaction, track_id: null };
    }
    const status = await currentStatus(ctx, partyId);
    if (!status || status.is_paused) throw conflict('Reactions are for the playing track; nothing plays right now');
    aggregator.record(partyId, fan.id, req.body.reaction, status.track.id);
    return { reaction: req.body.reaction, track_id: status.track.id };
  });
  return async () => aggregator.close();
}
