import { CAMPAIGN_META, type Campaign } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import { findApp } from '../apps/service.ts';
import { toCampaign, selectCampaigns } from '../campaigns/queries.ts';
import { publishedCampaign } from '../editorial/publish.ts';
import { escapeHtml } from '../../platform/html.ts';
import { coverPreload, renderSkeleton } from './skeleton.ts';
import { providerSdkMetas } from '../../providers/sdkScripts.ts';

/**
 * The campaign of a page address (app name or id, slug): its published version, or its draft for
 * an editor (`showDraft` of the campaign's id: a preview link or a back-office token). 404 when
 * there is none, and for visitors while it is not published.
 */
export async function campaignForPage(ctx: ServerContext, appIdOrName: string, slug: string, showDraft: (campaignId: string) => boolean = () => false): Promise<Campaign> {
  const app = await findApp(ctx.db, appIdOrName);
  const row = app
    ? await selectCampaigns(ctx.db).where('cms_campaigns.app_id', '=', app.id).where('cms_campaigns.slug', '=', slug).executeTakeFirst()
    : undefined;
  if (!row) throw notFound('Campaign not found');
  if (showDraft(row.id)) return toCampaign(ctx, row);
  const published = publishedCampaign(ctx, row);
  if (!published) throw notFound('Campaign not found');
  return published;
}

/** Every string of the campaign's page that may be an image URL (module fields at any depth). */
export function pageStringsOf(campaign: Campaign): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 8) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(campaign.data.page, 0);
  return out;
}

/** What a visitor's page may see of a campaign: everything but the editors' lock and who published it. */
export function publicCampaign(campaign: Campaign): Campaign {
  return { ...campaign, lock: null, published_by: null };
}

/** The page's head: title, language, the campaign JSON and environment (what the SDK reads), the campaign's own meta tags. */
function pageHead(ctx: ServerContext, campaign: Campaign, altOf: Record<string, string>, replayUrl: string | null): { lang: string; title: string; metas: string[] } {
  const pub = publicCampaign(campaign);
  const meta = (name: string, content: string) => `<meta name="${escapeHtml(name)}" content="${escapeHtml(content)}">`;
  const own = Object.entries(pub.meta_tags)
    .filter(([k]) => k !== 'title' && k !== 'viewport' && k !== 'charset' && !k.startsWith('fanfare:'))
    .map(([k, v]) => (k.startsWith('og:') ? `<meta property="${escapeHtml(k)}" content="${escapeHtml(v)}">` : meta(k, v)));
  return {
    lang: pub.i18n?.default_locale ?? 'de',
    title: pub.meta_tags.title ?? pub.name,
    metas: [
      meta(CAMPAIGN_META.campaignId, pub.id),
      meta(CAMPAIGN_META.campaign, JSON.stringify(pub)),
      meta(CAMPAIGN_META.environment, ctx.config.cms.environment),
      // Where the page's calls go (the CMS's public URL); the spec's environment default
      // (local: port 1337) applies only to a page without it.
      meta(CAMPAIGN_META.backendOrigin, new URL(ctx.config.cmsPublicUrl).origin),
      meta(CAMPAIGN_META.mediaAlt, JSON.stringify(altOf)),
      // The replay of the campaign's party, once built (issue 47): the page links to it.
      ...(replayUrl ? [meta(CAMPAIGN_META.partyReplay, replayUrl)] : []),
      // The providers' SDK scripts: official with credentials, the emulators' stand-ins otherwise.
      ...providerSdkMetas(ctx.config).map(([name, content]) => meta(name, content)),
      ...own,
    ],
  };
}

/**
 * A minimal campaign page: the metadata and a heading. Served while the campaign page app is not
 * built, so the metadata contract holds either way.
 */
export function renderCampaignPage(ctx: ServerContext, campaign: Campaign, altOf: Record<string, string> = {}, replayUrl: string | null = null): string {
  const head = pageHead(ctx, campaign, altOf, replayUrl);
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(head.lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(head.title)}</title>`,
    ...head.metas,
    '</head>',
    '<body>',
    `<main id="campaign-root"><h1>${escapeHtml(campaign.name)}</h1></main>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/**
 * The built campaign page (`apps/campaign-web`) for one campaign: its `index.html` with the
 * language, the title and the metadata written into the head. Everything written is escaped.
 */
export function renderCampaignWebApp(ctx: ServerContext, campaign: Campaign, indexHtml: string, altOf: Record<string, string> = {}, replayUrl: string | null = null): string {
  const head = pageHead(ctx, campaign, altOf, replayUrl);
  return indexHtml
    .replace(/<html lang="[^"]*">/, `<html lang="${escapeHtml(head.lang)}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`)
    .replace('</head>', `${[coverPreload(publicCampaign(campaign)), ...head.metas].join('\n')}\n</head>`)
    .replace(/<div id="root">[\s\S]*?<\/div>\s*<noscript>/, `<div id="root">${renderSkeleton(publicCampaign(campaign), head.lang, altOf)}</div>\n<noscript>`);
}

/**
 * The party app's replay address of the campaign's party (`tag_manager.party_id`), when its replay
 * is built (issue 47); null otherwise. One primary-key read per page view.
 */
export async function partyReplayUrl(ctx: ServerContext, campaign: Campaign): Promise<string | null> {
  const partyId = campaign.tag_manager?.party_id;
  if (!partyId) return null;
  const row = await ctx.db.selectFrom('party_replays').select('build').where('party_id', '=', partyId).where('build', '>', 0).executeTakeFirst();
  return row ? `${ctx.config.publicUrl}/p/${encodeURIComponent(partyId)}/#/replay` : null;
}
