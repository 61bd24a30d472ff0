import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { escapeHtml } from '../../platform/html.ts';
import { isPreviewOf } from '../editorial/preview.ts';
import { cmsRoute } from '../route.ts';
import { altTextsOf } from '../uploads/service.ts';
import { campaignForPage, pageStringsOf, partyReplayUrl, renderCampaignPage, renderCampaignWebApp } from './service.ts';
import { pageHeaders } from '../../platform/securityHeaders.ts';
import { framingOrigins } from '../../platform/webConfig.ts';
import { CAMPAIGN_WEB_DIST, registerCampaignWebAssets } from './webApp.ts';
import { cmsTokenOf, requireCmsUser } from '../users/guards.ts';

/**
 * Campaign pages: `GET /c/{app}/{slug}` (the campaign's `url`) serves the built campaign page with
 * the campaign JSON and the environment as metadata; its assets under `/campaign-web/assets/`.
 */
export async function registerPageRoutes(app: App, ctx: ServerContext, distDir: string = CAMPAIGN_WEB_DIST): Promise<void> {
  const readIndex = await registerCampaignWebAssets(app, distDir);
  // The back office previews the page in a frame (and other backends' editors may): the CMS and the
  // configured origins may frame it; any other site is refused, against clickjacking of its buttons.
  const headers = pageHeaders(framingOrigins(ctx.config), 'strict-origin-when-cross-origin');

  cmsRoute(ctx)(app, CMS_ROUTES.campaignPage, async (req, reply) => {
    // A table entry takes no route options: helmet's headers are set here.
    reply.helmet(headers);
    void reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
    try {
      // An editor sees the draft: through a preview link (the preview frame), or with a back-office token.
      const editor = cmsTokenOf(req) ? await requireCmsUser(ctx, req, 'campaigns.read').catch(() => null) : null;
      const campaign = await campaignForPage(ctx, req.params.app, req.params.slug, (id) => editor !== null || isPreviewOf(ctx, req.query.preview, id));
      const indexHtml = readIndex();
      // The media library's alt texts of the page's images travel with the page.
      const altOf = await altTextsOf(ctx, pageStringsOf(campaign));
      const replayUrl = await partyReplayUrl(ctx, campaign);
      return reply.send(indexHtml === null ? renderCampaignPage(ctx, campaign, altOf, replayUrl) : renderCampaignWebApp(ctx, campaign, indexHtml, altOf, replayUrl));
    } catch (e) {
      if (e instanceof HttpError && e.statusCode === 404) {
        return reply.status(404).send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>${escapeHtml('This campaign does not exist')}</h1></body></html>`);
      }
      throw e;
    }
  });
}
