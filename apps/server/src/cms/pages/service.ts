import { CAMPAIGN_META, type Campaign } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import { findApp } from '../apps/service.ts';
import { toCampaign, selectCampaigns } from '../campaigns/queries.ts';
import { escapeHtml } from '../../platform/html.ts';

/** The campaign of a page address (app name or id, slug); 404 when there is none. */
export async function campaignForPage(ctx: ServerContext, appIdOrName: string, slug: string): Promise<Campaign> {
  const app = await findApp(ctx.db, appIdOrName);
  const row = app
    ? await selectCampaigns(ctx.db).where('cms_campaigns.app_id', '=', app.id).where('cms_campaigns.slug', '=', slug).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Campaign not found');
  return toCampaign(ctx, row);
}

/** What a visitor's page may see of a campaign: everything but the editors' lock. */
export function publicCampaign(campaign: Campaign): Campaign {
  return { ...campaign, lock: null };
}

/**
 * A minimal campaign page: the campaign JSON and the environment as page metadata (what the
 * campaign SDK reads), the campaign's own meta tags, and a heading. The default page replaces the
 * body later; the metadata stays.
 */
export function renderCampaignPage(ctx: ServerContext, campaign: Campaign): string {
  const pub = publicCampaign(campaign);
  const meta = (name: string, content: string) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`;
  const own = Object.entries(pub.meta_tags)
    .filter(([k]) => k !== 'title' && !k.startsWith('fanfare:'))
    .map(([k, v]) => (k.startsWith('og:') ? `<meta property="${escapeHtml(k)}" content="${escapeHtml(v)}">` : meta(k, v)));
  const title = pub.meta_tags.title ?? pub.name;
  const lang = pub.i18n?.default_locale ?? 'de';
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    meta(CAMPAIGN_META.campaignId, pub.id),
    meta(CAMPAIGN_META.campaign, JSON.stringify(pub)),
    meta(CAMPAIGN_META.environment, ctx.config.cms.environment),
    ...own,
    '</head>',
    '<body>',
    `<main id="campaign-root"><h1>${escapeHtml(pub.name)}</h1></main>`,
    '</body>',
    '</html>',
  ].join('\n');
}
