import { Readable } from 'node:stream';
import { CMS_ROUTES } from '@fanfare/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { pageConsents, pageSubscribers, scopeOf, streamConsentsCsv, streamSubscribersCsv } from './ledger.ts';

/** Sends CSV chunks as they come. The first chunk is read before answering, so an unknown campaign is a clean 404. */
export async function sendCsv(reply: FastifyReply, name: string, rows: AsyncGenerator<string>): Promise<FastifyReply> {
  const first = await rows.next();
  async function* all() {
    if (!first.done) yield first.value;
    yield* rows;
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
    .send(Readable.from(all()));
}

/**
 * Subscribers and the consent ledger of a campaign for the back office: paged lists and streamed
 * CSV. They are personal data: the table entries require `newsletter.export`.
 */
export async function registerNewsletterLedgerRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.listNewsletterSubscribers, async (req) => pageSubscribers(ctx, req.params.id, req.query));
  route(app, CMS_ROUTES.listNewsletterConsents, async (req) => pageConsents(ctx, req.params.id, req.query));
  route(app, CMS_ROUTES.exportNewsletterSubscribersCsv, async (req, reply) =>
    sendCsv(reply, `subscribers-${req.params.id}.csv`, streamSubscribersCsv(ctx, req.params.id, req.query)),
  );
  route(app, CMS_ROUTES.exportNewsletterConsentsCsv, async (req, reply) => sendCsv(reply, `consents-${req.params.id}.csv`, streamConsentsCsv(ctx, req.params.id, req.query)));
  // The same across campaigns, for the back office's Subscribers section (campaign_id narrows it to one).
  route(app, CMS_ROUTES.listAllNewsletterSubscribers, async (req) => pageSubscribers(ctx, scopeOf(null, req.query), req.query));
  route(app, CMS_ROUTES.listAllNewsletterConsents, async (req) => pageConsents(ctx, scopeOf(null, req.query), req.query));
  route(app, CMS_ROUTES.exportAllNewsletterSubscribersCsv, async (req, reply) =>
    sendCsv(reply, `subscribers-${req.query.campaign_id ?? 'all'}.csv`, streamSubscribersCsv(ctx, scopeOf(null, req.query), req.query)),
  );
  route(app, CMS_ROUTES.exportAllNewsletterConsentsCsv, async (req, reply) =>
    sendCsv(reply, `consents-${req.query.campaign_id ?? 'all'}.csv`, streamConsentsCsv(ctx, scopeOf(null, req.query), req.query)),
  );
}
