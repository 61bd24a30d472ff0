import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { geoOf } from '../i18n/service.ts';
import { cmsRoute } from '../route.ts';
import { funnelCsv, funnelReport, recordPageFunnelEvents } from './service.ts';

/** Page events a client address may send per minute: a busy shared address (a venue's Wi-Fi) stays well within it. */
export const FUNNEL_EVENTS_PER_MINUTE = 120;

/** The funnel: the pages' anonymous events in, the back office's report and CSV out. */
export async function registerFunnelRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(
    app,
    CMS_ROUTES.recordFunnelEvents,
    async (req, reply) => {
      // The territory is the server's geo lookup (as GET /api/i18n/geo answers), never the page's word.
      const recorded = await recordPageFunnelEvents(ctx, req.params.id, geoOf(ctx, req.headers).country_code, req.body);
      void reply.header('cache-control', 'no-store');
      return { recorded };
    },
    // Anyone may post: bounded per client address (each call carries at most 20 events).
    { config: { rateLimit: { max: FUNNEL_EVENTS_PER_MINUTE, timeWindow: 60_000 } } },
  );
  route(app, CMS_ROUTES.campaignFunnel, async (req, reply) => {
    void reply.header('cache-control', 'private, no-store');
    return funnelReport(ctx, req.params.id, req.query);
  });
  route(app, CMS_ROUTES.exportCampaignFunnelCsv, async (req, reply) => {
    const csv = funnelCsv(await funnelReport(ctx, req.params.id, req.query));
    return reply
      .type('text/csv; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="funnel-${req.params.id.replace(/[^\w-]/g, '_')}.csv"`)
      .send(csv);
  });
}
