import {
  AppTranslationsParams,
  AppTranslationsQuery,
  CmsIdParam,
  CountriesQuery,
  CountriesResponse,
  TranslationsResponse,
  UserGeo,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { countryList } from './countries.ts';
import { appTranslations, campaignTranslations, geoOf } from './service.ts';

const tags = ['i18n'];

/** Public calls of the campaign pages: translations, geo, countries. */
export async function registerI18nRoutes(app: App, ctx: ServerContext): Promise<void> {
  app.get(
    '/api/campaigns/:id/translations',
    { schema: { tags, summary: "A campaign's translations (404 when it has none)", params: CmsIdParam, response: { 200: TranslationsResponse } } },
    async (req) => campaignTranslations(ctx, req.params.id),
  );

  app.get(
    '/api/apps/:app/translations',
    { schema: { tags, summary: "An app's translations; ?fresh bypasses the cache", params: AppTranslationsParams, querystring: AppTranslationsQuery, response: { 200: TranslationsResponse } } },
    async (req) => {
      const fresh = req.query.fresh !== undefined && req.query.fresh !== 'false' && req.query.fresh !== '0';
      return appTranslations(ctx, req.params.app, fresh);
    },
  );

  app.get('/api/i18n/geo', { schema: { tags, response: { 200: UserGeo } } }, async (req, reply) => {
    void reply.header('cache-control', 'private, no-store').header('vary', `accept-language, ${ctx.config.cms.geoCountryHeader}`);
    return geoOf(ctx, req.headers);
  });

  app.get('/api/i18n/countries', { schema: { tags, querystring: CountriesQuery, response: { 200: CountriesResponse } } }, async (req, reply) => {
    void reply.header('cache-control', 'public, max-age=86400');
    return { items: countryList(req.query.locale ?? 'en') };
  });
}
