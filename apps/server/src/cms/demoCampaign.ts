import { CampaignPage, type CampaignAbTest, type CampaignPageInput, type CreateCampaignBody, type NewsletterEntry, ReleaseSettings } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import { createApp, findApp } from './apps/service.ts';
import { createCampaign } from './campaigns/service.ts';
import { publishCampaign } from './editorial/publish.ts';
import { SYSTEM_ACTOR } from './editorial/versions.ts';
import { uploadAccessCodes } from './tokenGate/service.ts';

export const DEMO_APP_NAME = 'fanfare-demo';
/** The demo label's name, as fans see it in the opt-in mail and page (the app's `label_name`). */
export const DEMO_LABEL_NAME = 'Tidewater Records';
/** The demo party's campaign (its newsletter is offered on the party page). */
export const DEMO_CAMPAIGN_SLUG = 'demo';
/** The release campaign page with every module. */
export const DEMO_RELEASE_SLUG = 'tidal-lights';
/** The optional newsletter (the label's news), also offered on the party page. */
export const DEMO_NEWSLETTER_ID = 'fanfare-news';
/** The required newsletter of the demo campaign page (the artist's updates: a condition of taking part). */
export const DEMO_REQUIRED_NEWSLETTER_ID = 'neon-harbour-updates';
/** The token-gate page and the campaign behind it. */
export const DEMO_GATE_SLUG = 'demo-gate';
export const DEMO_GATED_SLUG = 'demo-vip';
export const DEMO_GATE_PRODUCT_ID = 'tidal-lights-vinyl';
/**
 * Access codes "printed with the record" for the demo token gate (public on purpose: `npm start`
 * prints them). Each works many times so a demo does not run out.
 */
export const DEMO_ACCESS_CODES = ['TIDAL-LIGHTS-0001', 'TIDAL-LIGHTS-0002', 'TIDAL-LIGHTS-0003'] as const;
const DEMO_ACCESS_CODE_USES = 10_000;
/** A fresh demo campaign page counts down this long before it goes live, so the countdown shows. */
export const DEMO_COUNTDOWN_MS = 2 * 60_000;

const optionalNewsletter: NewsletterEntry = {
  id: DEMO_NEWSLETTER_ID,
  enabled: true,
  signup_mode: 'optional',
  locales: {
    de: { addressbook_id: '1001', form_id: '2001', consent_text: 'Ja, ich möchte Neuigkeiten von Tidewater Records per E-Mail erhalten.' },
    en: { addressbook_id: '1002', form_id: '2002', consent_text: 'Yes, I would like news from Tidewater Records by e-mail.' },
  },
};

const requiredNewsletter: NewsletterEntry = {
  id: DEMO_REQUIRED_NEWSLETTER_ID,
  enabled: true,
  signup_mode: 'required',
  locales: {
    de: { addressbook_id: '1101', form_id: '2101', consent_text: 'Ich melde mich für die Neon-Harbour-Updates an und stimme der Verarbeitung meiner E-Mail-Adresse dafür zu.' },
    en: { addressbook_id: '1102', form_id: '2102', consent_text: 'I sign up for the Neon Harbour updates and agree to my e-mail address being processed for them.' },
  },
};

/** The territories of the demo release: each flips at the same wall-clock time in its own zone. */
export const DEMO_TERRITORIES = ['DE', 'AT', 'CH', 'GB', 'US'];

/** `at` as a wall-clock time (YYYY-MM-DDTHH:mm) in `timeZone`. */
function wallClock(at: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date(at));
  const n = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${n('year')}-${n('month')}-${n('day')}T${n('hour')}:${n('minute')}`;
}

/**
 * The demo release clock: out in Germany when the countdown ends (the next full minute after it),
 * and at that same local time in each other territory's zone (an hour later in the UK, six in
 * New York), with the pre-save saving the first demo album and following its artist.
 */
function demoRelease(ctx: ServerContext): ReleaseSettings {
  const album = ctx.catalog.albums[0]!;
  const at = Math.ceil((ctx.now() + DEMO_COUNTDOWN_MS) / 60_000) * 60_000;
  return ReleaseSettings.parse({
    clock: { mode: 'local', local_time: wallClock(at, 'Europe/Berlin'), territories: {} },
    spotify: { album_id: album.spotify_id, track_ids: ctx.catalog.albumTracks(album).map((t) => t.spotify_id), artist_ids: album.artist_keys.map((k) => ctx.catalog.artistByKey(k).spotify_id) },
    apple: { album_id: album.apple_id, song_ids: [] },
    consent_text: {
      de: 'Ja, speichert das Album zum Erscheinen in meiner Bibliothek (und folgt, wenn gewählt, der Band). Ich bekomme eine Bestätigung per E-Mail.',
      en: 'Yes, save the album to my library when it is out (and follow the band, if chosen). I get a receipt by e-mail.',
    },
  });
}

/**
 * The release page's A/B test, running: half the visitors see a shorter call to action under the
 * headline (variant B), so the Funnel tab compares two variants (the seeded events favour B).
 */
export const DEMO_AB_TEST: CampaignAbTest = {
  enabled: true,
  variant_b: [{ module_id: 'hero', subtitle: { de: 'Neues Album. Jetzt vorab speichern.', en: 'New album. Pre-save it now.' } }],
};

/** The page of the release campaign: every module, on the first demo album. */
function releasePage(ctx: ServerContext, gateUrl: string): CampaignPage {
  const album = ctx.catalog.albums[0]!;
  const media = (rel: string) => `${ctx.config.publicUrl}/media/catalog/${rel}`;
  const page: CampaignPageInput = {
    look: { font: 'poppins', primary_color: '#ff5a36', background_color: '#14142b' },
    modules: [
      {
        type: 'hero',
        id: 'hero',
        title: { de: album.name, en: album.name },
        subtitle: { de: 'Das neue Album von Neon Harbour. Jetzt reinhören.', en: 'The new album by Neon Harbour. Listen now.' },
        cover_image: media(album.image),
      },
      { type: 'countdown', id: 'countdown', title: { de: 'Das Album erscheint in', en: 'The album drops in' } },
      {
        type: 'presave',
        id: 'presave',
        title: { de: 'Vorab speichern', en: 'Pre-save' },
        text: { de: 'Wir legen das Album zum Erscheinen in deinem Land in deine Bibliothek.', en: 'We put the album in your library when it is out in your country.' },
      },
      { type: 'player', id: 'player', title: { de: 'Jetzt reinhören', en: 'Listen now' }, spotify_track_ids: ctx.catalog.albumTracks(album).map((t) => t.spotify_id) },
      {
        type: 'newsletter',
        id: 'newsletter',
        title: { de: 'Nichts verpassen', en: 'Never miss a thing' },
        text: { de: 'Tourdaten, Vorverkauf und neue Musik zuerst per E-Mail.', en: 'Tour dates, presales and new music first, by e-mail.' },
      },
      {
        type: 'card',
        id: 'vinyl',
        title: { de: 'Vinyl gekauft?', en: 'Bought the vinyl?' },
        text: { de: 'Mit dem Code aus der Hülle kommst du in den VIP-Bereich.', en: 'The code in the sleeve gets you into the VIP area.' },
        button_label: { de: 'Code eingeben', en: 'Enter code' },
        url: gateUrl,
        image: media(album.image),
      },
      {
        type: 'text',
        id: 'about',
        title: { de: 'Über das Album', en: 'About the album' },
        body: {
          de: 'Vier Songs über Häfen, Lichter und lange Nächte am Meer.\n\nAufgenommen an der Nordsee.',
          en: 'Four songs about harbours, lights and long nights by the sea.\n\nRecorded on the North Sea coast.',
        },
      },
      {
        type: 'links',
        id: 'links',
        ticket_url: 'https://tickets.example.com/neon-harbour',
        ticket_label: { de: 'Tickets für die Tour', en: 'Tour tickets' },
        socials: [
          { network: 'instagram', url: 'https://instagram.com/neonharbour' },
          { network: 'tiktok', url: 'https://tiktok.com/@neonharbour' },
          { network: 'youtube', url: 'https://youtube.com/@neonharbour' },
        ],
      },
    ],
    // This install's own legal pages (LEGAL_DIR or the party settings fill them), not an example domain.
    legal: { imprint_url: `${ctx.config.publicUrl}/legal/imprint`, privacy_url: `${ctx.config.publicUrl}/legal/privacy` },
  };
  return CampaignPage.parse(page);
}

async function campaignExists(ctx: ServerContext, appId: string, slug: string): Promise<boolean> {
  return !!(await ctx.db.selectFrom('cms_campaigns').select('id').where('app_id', '=', appId).where('slug', '=', slug).executeTakeFirst());
}

/** Creates and publishes a demo campaign (the demo is there to be seen) unless it exists. */
async function createUnlessExists(ctx: ServerContext, body: CreateCampaignBody): Promise<void> {
  if (await campaignExists(ctx, body.app_id, body.slug)) return;
  const campaign = await createCampaign(ctx, body);
  await publishCampaign(ctx, SYSTEM_ACTOR, campaign.id, undefined);
}

/**
 * The demo campaigns of a fresh install, each created once (an edited one is left as it is):
 * - `tidal-lights`: a release page with every module: a hero with cover art, a countdown (two
 *   minutes on a fresh install), the demo album's tracks, a newsletter with a required and an
 *   optional consent in de and en, a card to the token gate, text, ticket and social links;
 * - `demo`: the demo party's campaign (`tag_manager.party_id`), whose optional newsletter the
 *   party page offers;
 * - `demo-gate`: a token-gate page that takes the printed demo codes and sends the fan on to
 * - `demo-vip`: a campaign behind the token gate.
 */
export async function seedDemoCampaign(ctx: ServerContext, partyId: string): Promise<void> {
  const app = (await findApp(ctx.db, DEMO_APP_NAME)) ?? (await createApp(ctx, { name: DEMO_APP_NAME, title: 'Fanfare demo label', config: { label_name: DEMO_LABEL_NAME } }));
  const pageUrl = (slug: string) => `${ctx.config.cmsPublicUrl}/c/${DEMO_APP_NAME}/${slug}`;
  const album = ctx.catalog.albums[0]!;
  const cover = `${ctx.config.publicUrl}/media/catalog/${album.image}`;
  const trackIds = ctx.catalog.albumTracks(album).map((t) => t.spotify_id);

  await createUnlessExists(ctx, {
    app_id: app.id,
    name: `Demo: ${album.name} release`,
    slug: DEMO_RELEASE_SLUG,
    tag_manager: { artist: 'Neon Harbour', genre: 'Synth-pop', division: 'Fanfare' },
    enabled_services: ['spotify', 'apple'],
    starts_at: new Date(ctx.now() + DEMO_COUNTDOWN_MS).toISOString(),
    newsletters: [optionalNewsletter, requiredNewsletter],
    meta_tags: { title: `${album.name}: Neon Harbour`, description: 'The new album by Neon Harbour', 'og:image': cover },
    data: { participating_countries: DEMO_TERRITORIES, page: releasePage(ctx, pageUrl(DEMO_GATE_SLUG)), release: demoRelease(ctx), ab_test: DEMO_AB_TEST },
  });

  await createUnlessExists(ctx, {
    app_id: app.id,
    name: 'Demo: listening party campaign',
    slug: DEMO_CAMPAIGN_SLUG,
    tag_manager: { artist: 'Neon Harbour', genre: 'Synth-pop', division: 'Fanfare', party_id: partyId },
    enabled_services: ['spotify', 'apple'],
    newsletters: [optionalNewsletter],
    data: {
      page: CampaignPage.parse({
        modules: [
          { type: 'hero', id: 'hero', title: { de: `${album.name}: Listening Party`, en: `${album.name}: listening party` }, cover_image: cover },
          {
            type: 'card',
            id: 'party',
            title: { de: 'Hör mit uns gemeinsam', en: 'Listen with us' },
            button_label: { de: 'Zur Listening Party', en: 'Join the listening party' },
            url: `${ctx.config.publicUrl}/p/${partyId}/`,
          },
          { type: 'newsletter', id: 'newsletter' },
          { type: 'player', id: 'player', spotify_track_ids: trackIds },
        ],
        // This install's own legal pages (LEGAL_DIR or the party settings fill them), not an example domain.
    legal: { imprint_url: `${ctx.config.publicUrl}/legal/imprint`, privacy_url: `${ctx.config.publicUrl}/legal/privacy` },
      }),
    },
  });

  await createUnlessExists(ctx, {
    app_id: app.id,
    name: 'Demo: token gate',
    slug: DEMO_GATE_SLUG,
    tag_manager: { artist: 'Neon Harbour' },
    is_token_gate: true,
    // The gate page checks codes for the same product as the campaign behind it (keys are per product).
    token_gate: { enabled: true, product_id: DEMO_GATE_PRODUCT_ID },
    token_gated_campaign_url: pageUrl(DEMO_GATED_SLUG),
    data: {
      page: CampaignPage.parse({
        look: { font: 'mono', primary_color: '#ffd166', background_color: '#101820' },
        modules: [{ type: 'hero', id: 'hero', title: { de: 'VIP-Bereich', en: 'VIP area' }, subtitle: { de: 'Nur mit dem Code aus der Vinyl-Hülle.', en: 'Only with the code from the vinyl sleeve.' }, cover_image: cover }],
      }),
    },
  });

  await createUnlessExists(ctx, {
    app_id: app.id,
    name: 'Demo: VIP campaign behind the token gate',
    slug: DEMO_GATED_SLUG,
    tag_manager: { artist: 'Neon Harbour' },
    enabled_services: ['spotify', 'apple'],
    token_gate: { enabled: true, product_id: DEMO_GATE_PRODUCT_ID },
    token_gate_url: pageUrl(DEMO_GATE_SLUG),
    data: {
      page: CampaignPage.parse({
        look: { font: 'mono', primary_color: '#ffd166', background_color: '#101820' },
        modules: [
          { type: 'hero', id: 'hero', title: { de: 'Willkommen im VIP-Bereich', en: 'Welcome to the VIP area' }, cover_image: cover },
          { type: 'text', id: 'vip', body: { de: 'Danke fürs Vinyl! Hier hörst du das Album vor allen anderen.', en: 'Thanks for buying the vinyl! Here you hear the album before anyone else.' } },
          { type: 'player', id: 'player', spotify_track_ids: trackIds },
        ],
      }),
    },
  });
  // Uploading the same codes again only resets their use limit.
  await uploadAccessCodes(ctx, DEMO_GATE_PRODUCT_ID, DEMO_ACCESS_CODES.join('\n'), DEMO_ACCESS_CODE_USES);
}

/**
 * The first campaign whose `tag_manager.party_id` names this party, for the party page's
 * newsletter form and token gate. The party page has one tick box, so it offers only the
 * campaign's optional and implicit newsletters: a required one is a condition of the campaign
 * page's own form, with its own consent text. `tokenGate` is set when the campaign's gate is on
 * and names a product and a gate URL (listening-party §2: the party sends fans without access there).
 */
export async function campaignForParty(
  ctx: ServerContext,
  partyId: string,
): Promise<{ id: string; newsletterIds: string[]; tokenGate: { productId: string; gateUrl: string } | null } | null> {
  const rows = await ctx.db.selectFrom('cms_campaigns').select(['id', 'doc']).orderBy('created_at').execute();
  for (const row of rows) {
    const doc = JSON.parse(row.doc) as {
      tag_manager?: { party_id?: string | null };
      newsletters?: { id: string; enabled: boolean; signup_mode?: string }[];
      token_gate?: { enabled?: boolean; product_id?: string | null } | null;
      token_gate_url?: string | null;
    };
    if (doc.tag_manager?.party_id !== partyId) continue;
    const newsletterIds = (doc.newsletters ?? []).filter((n) => n.enabled && n.signup_mode !== 'required').map((n) => n.id);
    const gate = doc.token_gate;
    const tokenGate = gate?.enabled && gate.product_id && doc.token_gate_url ? { productId: gate.product_id, gateUrl: doc.token_gate_url } : null;
    return { id: row.id, newsletterIds, tokenGate };
  }
  return null;
}
