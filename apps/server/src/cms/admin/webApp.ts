import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import staticFiles from '@fastify/static';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { pageHeaders } from '../../platform/securityHeaders.ts';
import { webConfigMeta } from '../../platform/webConfig.ts';

/** Where `npm run build -w @fanfare/admin-web` writes the back office. */
export const ADMIN_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../admin-web/dist');

/**
 * The back office at `/admin/` (SPEC-NOTES: on the CMS port). Routes live in the URL's hash, so
 * one index.html answers `/admin/`; its assets are content-hashed and cached for good, the page
 * itself never, so a new build shows at once. The page carries the deployment's public URLs
 * (`<meta name="fanfare-config">`) and may not be framed by any site.
 */
export async function registerAdminWebApp(app: App, ctx: ServerContext, distDir: string = ADMIN_WEB_DIST): Promise<void> {
  const assetsDir = path.join(distDir, 'assets');
  fs.mkdirSync(assetsDir, { recursive: true });
  await app.register(staticFiles, {
    root: assetsDir,
    prefix: '/admin/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
  });

  app.get('/admin', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/admin/'));
  // The page learns every surface's public URL from here (the party API's for the Parties area).
  const configMeta = webConfigMeta(ctx.config);
  // Nobody may frame the back office (clickjacking of its buttons).
  app.get('/admin/', { schema: { hide: true }, helmet: pageHeaders('nobody', 'same-origin') }, async (_req, reply) => {
    let html: string;
    try {
      html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8').replace('</head>', `${configMeta}</head>`);
    } catch {
      ctx.logger.warn({ distDir }, 'back office is not built');
      return reply.status(503).type('text/plain; charset=utf-8').send('The back office is not built. Run: npm run build -w @fanfare/admin-web');
    }
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
