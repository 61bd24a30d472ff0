import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { ServerContext } from '../context.ts';
import type { App } from '../platform/http.ts';
import { registerCmsDataRightsRoutes } from '../dataRights/routes.ts';
import { registerAccountRoutes } from './accounts/routes.ts';
import { registerAdminWebApp } from './admin/webApp.ts';
import { registerAppRoutes } from './apps/routes.ts';
import { registerCampaignBackOfficeRoutes } from './campaigns/backOfficeRoutes.ts';
import { registerCampaignRoutes } from './campaigns/routes.ts';
import { registerEditorialRoutes } from './editorial/routes.ts';
import { registerFunnelRoutes } from './funnel/routes.ts';
import { registerI18nRoutes } from './i18n/routes.ts';
import { registerNewsletterLedgerRoutes } from './newsletter/ledgerRoutes.ts';
import { registerHandoverRoutes } from './handover/routes.ts';
import { registerNewsletterRoutes } from './newsletter/routes.ts';
import { registerCmsMusicRoutes } from './music/routes.ts';
import { registerPageRoutes } from './pages/routes.ts';
import { registerPresaveRoutes } from './presave/routes.ts';
import { registerTokenGateCodeRoutes } from './tokenGate/codesRoutes.ts';
import { registerTokenGateRoutes } from './tokenGate/routes.ts';
import { registerUploadFolderMoveRoutes } from './uploads/moveRoutes.ts';
import { registerCmsUploadRoutes } from './uploads/routes.ts';
import { registerCmsUserRoutes } from './users/routes.ts';

/** The CMS API (campaign system, spec campaign-pages.md section 7). Health checks and docs come from the platform. */
export async function registerCmsSurface(app: App, ctx: ServerContext): Promise<void> {
  // Campaign and party pages on other origins call the CMS from the browser (newsletter, i18n,
  // accounts, token gate). Only the configured origins may: the same list that login redirects
  // may return to. Tokens travel in headers, never cookies, so no credentials are allowed.
  const allowed = new Set(ctx.config.allowedRedirectOrigins);
  await app.register(cors, {
    origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: ['content-type', 'authorization', 'token-gate-access-key', 'x-session-id'],
    maxAge: 600,
  });
  // Limits apply only to the routes that ask for one (login, signup, code checks), never to static
  // files: their entries' `rateLimit`, or their route config.
  await app.register(rateLimit, { global: false });
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: 5 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  await registerCmsUserRoutes(app, ctx);
  await registerCmsDataRightsRoutes(app, ctx);
  await registerAppRoutes(app, ctx);
  await registerCampaignRoutes(app, ctx);
  await registerCampaignBackOfficeRoutes(app, ctx);
  await registerEditorialRoutes(app, ctx);
  await registerI18nRoutes(app, ctx);
  await registerNewsletterRoutes(app, ctx);
  await registerHandoverRoutes(app, ctx);
  await registerNewsletterLedgerRoutes(app, ctx);
  await registerAccountRoutes(app, ctx);
  await registerTokenGateRoutes(app, ctx);
  await registerPresaveRoutes(app, ctx);
  await registerTokenGateCodeRoutes(app, ctx);
  await registerFunnelRoutes(app, ctx);
  await registerCmsUploadRoutes(app, ctx);
  await registerUploadFolderMoveRoutes(app, ctx);
  await registerCmsMusicRoutes(app, ctx);
  await registerPageRoutes(app, ctx);
  await registerAdminWebApp(app, ctx);
}
