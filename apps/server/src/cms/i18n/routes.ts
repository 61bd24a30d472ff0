import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { campaignViewOf } from '../editorial/preview.ts';
import { cmsRoute } from '../route.ts';
import { countryList } from './countries.ts';
import { appTranslations, campaignTranslations, geoOf } from './service.ts';

/** Public calls of the campaign pages: translations, geo, countries. */
export async function registerI18nRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  route(app, CMS_ROUTES.getCampaignTranslations, async (req) =>
    campaignTranslations(ctx, req.params.id, await campaignViewOf(ctx, req, req.params.id, req.query.preview)),
  );

  route(app, CMS_ROUTES.getAppTranslations, async (req) => {
    const fresh = req.query.fresh !== undefined && req.query.fresh !== 'false' && req.query.fresh !== '0';
    return appTranslations(ctx, req.params.app, fresh);
  });

  route(app, CMS_ROUTES.getGeo, async (req, reply) => {
    void reply.header('cache-control', 'private, no-store').header('vary', `accept-language, ${ctx.config.cms.geoCountryHeader}`);
    return geoOf(ctx, req.headers);
  });

  route(app, CMS_ROUTES.listCountries, async (req, reply) => {
    void reply.header('cache-control', 'public, max-age=86400');
    return { items: countryList(req.query.locale ?? 'en') };
  });
}
