/**
 * Synthetic funnel events for the demo release campaign, so that `npm start` shows a funnel with
 * data. Clearly synthetic: every event's `utm_campaign` is `demo-synthetic`. Seeded once (never
 * when the campaign already has events), from a fixed seed, over the 14 days before start.
 */
import type { FunnelEventKind, FunnelVariant } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { DEMO_APP_NAME, DEMO_RELEASE_SLUG } from '../demoCampaign.ts';
import { recordFunnelEvents, type FunnelEventInput } from './service.ts';

export const DEMO_FUNNEL_UTM_CAMPAIGN = 'demo-synthetic';
const VISITS = 1200;

/** Channels with their share of visits and how well they convert. */
const CHANNELS = [
  { utm_source: 'instagram', utm_medium: 'social', referrer_host: 'l.instagram.com', share: 0.4, conversion: 1 },
  { utm_source: 'tiktok', utm_medium: 'social', referrer_host: 'www.tiktok.com', share: 0.25, conversion: 0.7 },
  { utm_source: 'newsletter', utm_medium: 'email', referrer_host: '', share: 0.15, conversion: 1.8 },
  { utm_source: '', utm_medium: '', referrer_host: 'www.google.com', share: 0.1, conversion: 0.9 },
  { utm_source: '', utm_medium: '', referrer_host: '', share: 0.1, conversion: 1.1 },
] as const;
const TERRITORIES = [['DE', 0.45], ['AT', 0.15], ['CH', 0.1], ['GB', 0.15], ['US', 0.15]] as const;

function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T extends { share: number } | readonly [string, number]>(rnd: () => number, items: readonly T[]): T {
  let x = rnd();
  for (const item of items) {
    x -= Array.isArray(item) ? (item[1] as number) : (item as { share: number }).share;
    if (x < 0) return item;
  }
  return items.at(-1)!;
}

/** Seeds the funnel of the demo release campaign unless it has events. */
export async function seedDemoFunnel(ctx: ServerContext): Promise<void> {
  const campaign = await ctx.db
    .selectFrom('cms_campaigns')
    .innerJoin('cms_apps', 'cms_apps.id', 'cms_campaigns.app_id')
    .select('cms_campaigns.id')
    .where('cms_apps.name', '=', DEMO_APP_NAME)
    .where('cms_campaigns.slug', '=', DEMO_RELEASE_SLUG)
    .executeTakeFirst();
  if (!campaign) return;
  const campaignId = campaign.id;
  const any = await ctx.db.selectFrom('funnel_events').select('campaign_id').where('campaign_id', '=', campaignId).limit(1).executeTakeFirst();
  if (any) return;
  const rnd = random(2046);
  const now = ctx.now();
  const events: FunnelEventInput[] = [];
  for (let i = 0; i < VISITS; i++) {
    const channel = pick(rnd, CHANNELS);
    const [territory] = pick(rnd, TERRITORIES);
    const variant: FunnelVariant = rnd() < 0.5 ? 'a' : 'b';
    // Variant B (a shorter headline) converts a little better, so the comparison has something to show.
    const lift = channel.conversion * (variant === 'b' ? 1.25 : 1);
    const at = now - Math.floor(rnd() * 14 * 86_400_000);
    const context = { utm_source: channel.utm_source, utm_medium: channel.utm_medium, utm_campaign: DEMO_FUNNEL_UTM_CAMPAIGN, referrer_host: channel.referrer_host, variant };
    const steps: [FunnelEventKind, number][] = [['visit', 1], ['play', 0.45], ['login', 0.3 * lift], ['signup', 0.5], ['confirmed', 0.7], ['presave', 0.6]];
    let reached = true;
    for (const [step, [kind, p]] of steps.entries()) {
      // Plays are a side path; the rest are the funnel's steps, each reached only after the one before.
      if (kind === 'play') {
        if (rnd() < p) events.push({ campaignId, kind, territory, context, at: at + 30_000 });
        continue;
      }
      reached = reached && rnd() < p;
      if (!reached) break;
      events.push({ campaignId, kind, territory, context, at: Math.min(now, at + step * 5 * 60_000) });
    }
  }
  for (let i = 0; i < events.length; i += 500) await recordFunnelEvents(ctx, events.slice(i, i + 500));
}
