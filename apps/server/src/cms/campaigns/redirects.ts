import type { Campaign } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';

/**
 * True when `uri` may receive a fan after a campaign login or a newsletter confirmation: an
 * http(s) URL on a configured origin (ALLOWED_REDIRECT_ORIGINS) or on one of the campaign's own
 * pages (its CMS page, WordPress page, gate pages). Guards against open redirects that would hand
 * tokens or a confirmed address to a foreign site.
 */
export function isCampaignRedirectAllowed(ctx: ServerContext, campaign: Campaign, uri: string): boolean {
  let origin: string;
  try {
    const url = new URL(uri);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    origin = url.origin;
  } catch {
    return false;
  }
  const own = [campaign.url, campaign.wp_url, campaign.token_gate_url, campaign.token_gated_campaign_url].flatMap((u) => {
    try {
      return u ? [new URL(u).origin] : [];
    } catch {
      return [];
    }
  });
  return ctx.config.allowedRedirectOrigins.includes(origin) || own.includes(origin);
}
