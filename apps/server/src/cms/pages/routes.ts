import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { escapeHtml } from '../../platform/html.ts';
import { isPreviewOf } from '../editorial/preview.ts';
import { cmsRoute } from '../route.ts';
import { cmsTokenOf, requireCmsUser } from '../users/guards.ts';
import { campaignForPage, renderCampaignPage, renderCampaignWebApp } from './service.ts';
import { CAMPAIGN_WEB_DIST, frameAncestors, registerCampaignWebAssets } from './webApp.ts';

/**
 * Campaign pages: `GET /c/{app}/{slug}` (the campaign's `url`) serves the built campaign page with
 * the campaign JSON and the environment as metadata; its assets under `/campaign-web/assets/`.
 */
export async function registerPageRoutes(app: App, ctx: ServerContext, distDir: string = CAMPAIGN_WEB_DIST): Promise<void> {
  const readIndex = await registerCampaignWebAssets(app, distDir);
  const csp = frameAncestors(ctx);

  cmsRoute(ctx)(app, CMS_ROUTES.campaignPage, async (req, reply) => {
    void reply
      .type('text/html; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .header('content-security-policy', csp)
      .header('cache-control', 'no-cache');
    try {
      // An editor sees the draft: through a preview link (the preview frame), or with a back-office token.
      const editor = cmsTokenOf(req) ? await requireCmsUser(ctx, req, 'campaigns.read').catch(() => null) : null;
      const campaign = await campaignForPage(ctx, req.params.app, req.params.slug, (id) => editor !== null || isPreviewOf(ctx, req.query.preview, id));
      const indexHtml = readIndex();
      return reply.send(indexHtml === null ? renderCampaignPage(ctx, campaign) : renderCampaignWebApp(ctx, campaign, indexHtml));
    } catch (e) {
      if (e instanceof HttpError && e.statusCode === 404) {
        return reply.status(404).send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>${escapeHtml('This campaign does not exist')}</h1></body></html>`);
      }
      throw e;
    }
  });
}
