import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { campaignViewOf } from '../editorial/preview.ts';
import { geoOf } from '../i18n/service.ts';
import { cmsRoute } from '../route.ts';
import { iso } from '../shared.ts';
import { confirmationPage, unknownLinkPage } from './confirmation.ts';
import { confirmNewsletter, exportSubscribersCsv, readConfirmation, signUpForNewsletters } from './service.ts';

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

  // The e-mail's link: a page whose button confirms. It only reads: e-mail security scanners
  // open every link with a GET, and such a GET must not subscribe anyone. Its URL holds the
  // token: no referrer, no caching, no indexing.
  route(app, CMS_ROUTES.confirmNewsletter, async (req, reply) => {
    const found = await readConfirmation(ctx, req.query.token);
    // A browser gets a readable page for an unknown link; any other client the usual JSON `detail`.
    if (!found && !String(req.headers.accept ?? '').includes('text/html')) throw notFound('Unknown confirmation link');
    void reply.type('text/html; charset=utf-8').header('referrer-policy', 'no-referrer').header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
    if (!found) return reply.code(404).send(unknownLinkPage());
    return reply.send(confirmationPage({ ...found, token: req.query.token }));
  });

  // The confirmation itself: the page's form posts (urlencoded, so it works without script) or a
  // client's JSON. The form parser is registered for this route's scope only.
  await app.register(async (scoped: App) => {
    scoped.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    route(scoped, CMS_ROUTES.confirmNewsletterSubmit, async (req, reply) => {
      const target = await confirmNewsletter(ctx, req.body.token);
      if (!target) throw notFound('Unknown confirmation link');
      return reply.header('referrer-policy', 'no-referrer').redirect(target, 303);
    });
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
