import { Readable } from 'node:stream';
import { CMS_ROUTES } from '@fanfare/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { pageConsents, pageSubscribers, streamConsentsCsv, streamSubscribersCsv } from './ledger.ts';

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
}
