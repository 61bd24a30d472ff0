import type { ServerContext } from '../context.ts';
import { createApp, findApp } from './apps/service.ts';
import { createCampaign } from './campaigns/service.ts';

export const DEMO_APP_NAME = 'fanfare-demo';
export const DEMO_CAMPAIGN_SLUG = 'demo';
export const DEMO_NEWSLETTER_ID = 'fanfare-news';

/**
 * The demo campaign of a fresh install: a page for the demo party (`tag_manager.party_id`), with
 * one optional double opt-in newsletter in de and en and both streaming logins. Created once;
 * an edited demo campaign is left as it is.
 */
export async function seedDemoCampaign(ctx: ServerContext, partyId: string): Promise<void> {
  const app = (await findApp(ctx.db, DEMO_APP_NAME)) ?? (await createApp(ctx, { name: DEMO_APP_NAME, title: 'Fanfare demo label' }));
  const existing = await ctx.db
    .selectFrom('cms_campaigns')
    .select('id')
    .where('app_id', '=', app.id)
    .where('slug', '=', DEMO_CAMPAIGN_SLUG)
    .executeTakeFirst();
  if (existing) return;
  await createCampaign(ctx, {
    app_id: app.id,
    name: 'Demo: listening party campaign',
    slug: DEMO_CAMPAIGN_SLUG,
    tag_manager: { artist: 'Neon Harbour', genre: 'Synth-pop', division: 'Fanfare', party_id: partyId },
    enabled_services: ['spotify', 'apple'],
    newsletters: [
      {
        id: DEMO_NEWSLETTER_ID,
        enabled: true,
        signup_mode: 'optional',
        locales: {
          de: { addressbook_id: '1001', form_id: '2001', consent_text: 'Ja, ich möchte Neuigkeiten von Fanfare per E-Mail erhalten.' },
          en: { addressbook_id: '1002', form_id: '2002', consent_text: 'Yes, I would like news from Fanfare by e-mail.' },
        },
      },
    ],
  });
}

/** The first campaign whose `tag_manager.party_id` names this party, for the party page's newsletter form. */
export async function campaignForParty(ctx: ServerContext, partyId: string): Promise<{ id: string; newsletterIds: string[] } | null> {
  const rows = await ctx.db.selectFrom('cms_campaigns').select(['id', 'doc']).orderBy('created_at').execute();
  for (const row of rows) {
    const doc = JSON.parse(row.doc) as { tag_manager?: { party_id?: string | null }; newsletters?: { id: string; enabled: boolean }[] };
    if (doc.tag_manager?.party_id !== partyId) continue;
    const newsletterIds = (doc.newsletters ?? []).filter((n) => n.enabled).map((n) => n.id);
    return { id: row.id, newsletterIds };
  }
  return null;
}
