import websocket from '@fastify/websocket';
import type { ServerContext } from '../context.ts';
import { toBool } from '../platform/db/columns.ts';
import type { App } from '../platform/http.ts';
import type { JobScheduler } from '../platform/jobs.ts';
import { PartySocketServer, type ChannelRules } from '../realtime/sockets.ts';
import { fanForToken } from './auth/sessions.ts';
import { registerPartyRoutes } from './parties/routes.ts';
import { findPartyCached } from './parties/queries.ts';
import { can, fanActor } from './policies.ts';
import { registerReactionRoutes } from './presence/routes.ts';
import { SourcePeakSampler } from './stats/sourcePeaks.ts';
import { DashboardSockets } from './stats/dashboardSockets.ts';
import type { Closer, PartyRuntime } from './surface.ts';
import { timelineJobs } from './timeline/jobs.ts';
import { currentStatus } from './timeline/playback.ts';
import { registerTimelineRoutes } from './timeline/routes.ts';

/** Socket frames larger than this are refused by the socket library (close 1009). */
const MAX_INBOUND_FRAME_BYTES = 16 * 1024;

/**
 * The party's rules for the real-time sockets (spec 4): a party's stream is for fans signed up to
 * it, a `resync` carries the playback status, and `users_cleared` closes the removed fans' sockets.
 */
export function partyChannelRules(ctx: ServerContext): ChannelRules {
  return {
    async admit(partyId, token) {
      // Guards the party's event stream: only a valid token of a fan signed up for this party.
      const fan = token ? await fanForToken(ctx.db, token, ctx.now()) : null;
      if (!fan) return 'invalid or missing access token';
      // Cached: after a restart every fan of the party joins within seconds (the storm).
      const party = await findPartyCached(ctx.db, partyId);
      if (!party) return 'no such party';
      const actor = await fanActor(ctx, party, fan);
      if (!can(actor, 'party.listen')) return 'not signed up for this party';
      return { member: { id: fan.id, service: fan.service, premium: toBool(fan.premium) }, role: actor.role };
    },
    snapshot: (partyId) => currentStatus(ctx, partyId),
    closesSockets: (event) => event.type === 'users_cleared',
  };
}

/** The party's live side: its routes, the fan and dashboard sockets, reactions and timeline jobs. */
export async function registerPartyLive(app: App, ctx: ServerContext, jobs: JobScheduler, runtime: PartyRuntime): Promise<Closer[]> {
  const live = ctx.config.live;
  const sockets = new PartySocketServer(
    { hub: ctx.hub, rules: partyChannelRules(ctx), logger: ctx.logger, now: () => ctx.now(), metrics: ctx.metrics?.socketObserver() },
    {
      batchMs: live.socketBatchMs,
      busyBatchMs: live.socketBusyBatchMs,
      stormBatchMs: live.socketStormBatchMs,
      stormJoinsPerSecond: live.socketStormJoinsPerSecond,
      sweepChunk: live.socketSweepChunk,
      sweepBudgetMs: live.socketSweepBudgetMs,
      heartbeatMs: live.socketHeartbeatMs,
      sendBufferSoftBytes: live.socketSendBufferSoftBytes,
      sendBufferHardBytes: live.socketSendBufferHardBytes,
      slowGraceMs: live.socketSlowGraceMs,
      inboundPerSecond: live.socketInboundPerSecond,
      maxSocketsPerMember: ctx.config.abuse.maxSocketsPerFan,
      resumeMaxEvents: live.resumeMaxEvents,
      resumeMaxBytes: live.resumeMaxBytes,
      resumeWindowMs: live.resumeWindowMs,
    },
  );
  await app.register(websocket, {
    options: { maxPayload: MAX_INBOUND_FRAME_BYTES, perMessageDeflate: false },
    // On shutdown our sockets close with 4001 (reconnect elsewhere and resume).
    preClose: async () => {
      await sockets.close();
      for (const client of app.websocketServer.clients) client.close();
      app.websocketServer.close();
    },
  });
  runtime.drainSockets = () => sockets.drain(live.socketDrainPerSecond);
  const dashboards = new DashboardSockets(ctx, sockets);
  // Listeners by source outlive the sockets only as stored samples (the recap's figures).
  const sourcePeaks = new SourcePeakSampler(ctx, sockets, ctx.config.sourceSampleMs);
  await registerPartyRoutes(app, ctx, sockets, dashboards);
  await registerTimelineRoutes(app, ctx);
  const stopReactions = await registerReactionRoutes(app, ctx, sockets);
  jobs.add(...timelineJobs(ctx));
  return [stopReactions, () => sourcePeaks.close(), () => dashboards.close(), () => sockets.close()];
}
