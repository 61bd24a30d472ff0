import { CmsIdParam, NewsletterConfirmQuery, NewsletterSignupBody, NewsletterSignupResponse, OutboxResponse, SubscribersExportQuery } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { iso, mailerOf } from '../shared.ts';
import { requireCmsUser } from '../users/guards.ts';
import { confirmNewsletter, exportSubscribersCsv, signUpForNewsletters } from './service.ts';

const tags = ['newsletter'];

export async function registerNewsletterRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.post(
    '/api/campaigns/:id/newsletter/signup',
    {
      // Each signup sends an e-mail: limited per client so the form cannot be used to spam.
      config: { rateLimit: { max: 20, timeWindow: 60_000 } },
      schema: { tags, summary: 'Newsletter signup (double opt-in: a confirmation e-mail is sent)', params: CmsIdParam, body: NewsletterSignupBody, response: { 202: NewsletterSignupResponse } },
    },
    async (req, reply) => {
      const result = await signUpForNewsletters(ctx, req.params.id, req.body, {
        ip: req.ip,
        userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
      });
      return reply.status(202).send(result);
    },
  );

  app.get(
    '/api/newsletter/confirm',
    { schema: { tags, summary: 'The confirmation link: redirects to the page with newsletter_state', querystring: NewsletterConfirmQuery } },
    async (req, reply) => {
      const target = await confirmNewsletter(ctx, req.query.token);
      if (!target) throw notFound('Unknown confirmation link');
      return reply.header('referrer-policy', 'no-referrer').redirect(target, 303);
    },
  );

  app.get(
    '/api/newsletter/subscribers.csv',
    { schema: { tags, summary: 'Confirmed subscribers of a newsletter (CSV)', querystring: SubscribersExportQuery } },
    async (req, reply) => {
      await requireCmsUser(ctx, req, 'newsletter.export');
      const csv = await exportSubscribersCsv(ctx, req.query.newsletter_id);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="subscribers-${req.query.newsletter_id.replace(/[^\w-]/g, '_')}.csv"`)
        .send(csv);
    },
  );

  app.get('/api/outbox', { schema: { tags, summary: 'The local outbox (when no SMTP is configured)', response: { 200: OutboxResponse } } }, async (req) => {
    await requireCmsUser(ctx, req, 'outbox.read');
    const entries = await mailerOf(ctx).outbox();
    return { items: entries.map((e) => ({ id: e.id, to: e.to, from: e.from, subject: e.subject, text: e.text, created_at: iso(e.created_at) })) };
  });
}
