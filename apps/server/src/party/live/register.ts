import websocket from '@fastify/websocket';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import type { JobScheduler } from '../../platform/jobs.ts';
import type { Closer } from '../surface.ts';
import { timelineJobs } from './jobs.ts';
import { registerReactionRoutes } from '../presence/routes.ts';
import { registerLiveRoutes } from './routes.ts';
import { PartySocketServer } from './socket.ts';
import { DashboardSockets } from '../stats/dashboardSockets.ts';

/** Socket frames larger than this are refused by the socket library (close 1009). */
const MAX_INBOUND_FRAME_BYTES = 16 * 1024;

/** Party management, tracks and votes, the timeline, the socket and the HLS stream. */
export async function registerLive(app: App, ctx: ServerContext, jobs: JobScheduler): Promise<Closer[]> {
  const live = ctx.config.live;
  const sockets = new PartySocketServer(ctx, {
    batchMs: live.socketBatchMs,
    sweepChunk: live.socketSweepChunk,
    sweepBudgetMs: live.socketSweepBudgetMs,
    handleWrites: live.socketHandleWrites,
    heartbeatMs: live.socketHeartbeatMs,
    sendBufferSoftBytes: live.socketSendBufferSoftBytes,
    sendBufferHardBytes: live.socketSendBufferHardBytes,
    slowGraceMs: live.socketSlowGraceMs,
    inboundPerSecond: live.socketInboundPerSecond,
  });
  await app.register(websocket, {
    options: { maxPayload: MAX_INBOUND_FRAME_BYTES, perMessageDeflate: false },
    // On shutdown our sockets close with 4001 (reconnect elsewhere and resume).
    preClose: async () => {
      await sockets.close();
      for (const client of app.websocketServer.clients) client.close();
      app.websocketServer.close();
    },
  });
  const dashboards = new DashboardSockets(ctx, sockets);
  await registerLiveRoutes(app, ctx, sockets, dashboards);
  const stopReactions = await registerReactionRoutes(app, ctx, sockets);
  jobs.add(...timelineJobs(ctx));
  return [stopReactions, () => dashboards.close(), () => sockets.close()];
}
