import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { campaignViewOf } from '../editorial/preview.ts';
import { geoOf } from '../i18n/service.ts';
import { cmsRoute } from '../route.ts';
import { iso } from '../shared.ts';
import { confirmNewsletter, exportSubscribersCsv, signUpForNewsletters } from './service.ts';

export async function registerNewsletterRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);

  route(
    app,
    CMS_ROUTES.newsletterSignup,
    async (req) =>
      signUpForNewsletters(
        ctx,
        req.params.id,
        req.body,
        {
          ip: req.ip,
          userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null,
          territory: geoOf(ctx, req.headers).country_code,
        },
        await campaignViewOf(ctx, req, req.params.id, req.query.preview),
      ),
    // Each signup sends an e-mail: limited per client so the form cannot be used to spam.
    { config: { rateLimit: { max: 20, timeWindow: 60_000 } } },
  );

  route(app, CMS_ROUTES.confirmNewsletter, async (req, reply) => {
    const target = await confirmNewsletter(ctx, req.query.token);
    if (!target) throw notFound('Unknown confirmation link');
    return reply.header('referrer-policy', 'no-referrer').redirect(target, 303);
  });

  route(app, CMS_ROUTES.exportSubscribers, async (req, reply) => {
    const csv = await exportSubscribersCsv(ctx, req.query.newsletter_id);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="subscribers-${req.query.newsletter_id.replace(/[^\w-]/g, '_')}.csv"`)
      .send(csv);
  });

  route(app, CMS_ROUTES.listOutbox, async () => {
    const entries = await ctx.mailer.outbox();
    return { items: entries.map((e) => ({ id: e.id, to: e.to, from: e.from, subject: e.subject, text: e.text, created_at: iso(e.created_at) })) };
  });
}
