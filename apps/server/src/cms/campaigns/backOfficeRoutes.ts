import { CMS_ROUTES, type CampaignLock, type CampaignLockEvent } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { currentLock, takeOverLock } from './lockEvents.ts';
import { searchCampaigns } from './search.ts';

/** How often an open lock stream re-reads the lock (changes made by other nodes, renewals, expiry). */
const LOCK_POLL_MS = 2_000;

const lockKey = (lock: CampaignLock | null) => (lock ? `${lock.user_id}|${lock.locked_at}` : '');

/** The back office's campaign calls: the paged list, the lock take-over and the lock event stream. */
export async function registerCampaignBackOfficeRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.searchCampaigns, async (req) => searchCampaigns(ctx, req.query));
  route(app, CMS_ROUTES.takeOverCampaignLock, async (req, _reply, user) => takeOverLock(ctx, user, req.params.id));

  route(app, CMS_ROUTES.campaignLockEvents, async (req, reply) => {
    const id = req.params.id;
    let lock = await currentLock(ctx, id);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-store', 'x-accel-buffering': 'no' });
    const send = (event: CampaignLockEvent) => {
      lock = event.lock;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    };
    send({ campaign_id: id, lock, reason: 'current' });
    const unlisten = ctx.campaignLocks.listen(id, send);
    let polling = false;
    const timer = setInterval(() => {
      if (polling) return;
      polling = true;
      currentLock(ctx, id)
        .then((now) => {
          if (lockKey(now) !== lockKey(lock)) send({ campaign_id: id, lock: now, reason: now ? 'acquired' : 'released' });
          else res.write(': keep-alive\n\n');
        })
        // The campaign is gone (or the database is away): end the stream; the editor reconnects.
        .catch(() => res.end())
        .finally(() => {
          polling = false;
        });
    }, LOCK_POLL_MS);
    res.on('close', () => {
      clearInterval(timer);
      unlisten();
    });
    return reply;
  });
}
