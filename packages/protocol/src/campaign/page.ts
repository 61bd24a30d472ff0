/**
 * What a campaign page shows (SPEC-NOTES "Campaign page, editor and back office"): the look and
 * the modules of the page, kept in the campaign's `data.page`. The CMS validates it on every
 * create and patch, so an unknown module type is refused by the server, not ignored by the page.
 * The campaign page (`apps/campaign-web`) renders it; the back office edits it.
 *
 * Texts a label writes are per locale (`{ de: '...', en: '...' }`); the page shows the current
 * locale's, else the default locale's. The page's own labels come from the campaign translations.
 */
import { z } from 'zod';
import { FONTS } from '../party/constants.ts';

/** A text per locale code, e.g. `{ de: 'Hallo', en: 'Hello' }`. */
export const LocalizedText = z.record(z.string().regex(/^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/), z.string().max(5000));
export type LocalizedText = z.infer<typeof LocalizedText>;

/** An image or link address: absolute http(s), or a path on the CMS (uploads). */
export const PageUrl = z
  .string()
  .max(2000)
  .refine((v) => /^https?:\/\/\S+$/i.test(v) || /^\/[^/\s]\S*$/.test(v), { message: 'Expected an absolute http(s) URL or a path starting with /' });

const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Expected a colour as #rrggbb');

/** The page's look (spec 2 "Font choices"; colours and images are the label's). */
export const PageLook = z.strictObject({
  font: z.enum(FONTS).default('poppins'),
  /** Accent: buttons, links, progress. */
  primary_color: Color.default('#ff5a36'),
  background_color: Color.default('#14142b'),
  /** Text on the background; the page checks contrast and falls back to white or navy. */
  text_color: Color.optional(),
  background_image: PageUrl.nullable().optional(),
});
export type PageLook = z.infer<typeof PageLook>;

const moduleBase = { id: z.string().min(1).max(100), title: LocalizedText.optional() };

/** Cover art, title and subtitle. */
export const HeroModule = z.strictObject({ ...moduleBase, type: z.literal('hero'), subtitle: LocalizedText.optional(), cover_image: PageUrl.nullable().optional() });
/** A countdown to the campaign's `starts_at`; after `ends_at` an ended notice. */
export const CountdownModule = z.strictObject({ ...moduleBase, type: z.literal('countdown'), ended_text: LocalizedText.optional() });
/** The signup form for the campaign's newsletters, with each newsletter's consent text. */
export const NewsletterModule = z.strictObject({ ...moduleBase, type: z.literal('newsletter'), text: LocalizedText.optional() });
/** Music: provider login and playback of these tracks, or HLS previews for visitors not logged in. */
export const PlayerModule = z.strictObject({
  ...moduleBase,
  type: z.literal('player'),
  /** Spotify ids of the tracks, in order (at most 50: one lookup batch, spec 9). */
  spotify_track_ids: z.array(z.string().min(1).max(100)).min(1).max(50),
});
/** Pre-save: provider login, the choice (album or tracks, follow the artist) and the consent wording of `data.release`. */
export const PresaveModule = z.strictObject({ ...moduleBase, type: z.literal('presave'), text: LocalizedText.optional() });
/** Free text. */
export const TextModule = z.strictObject({ ...moduleBase, type: z.literal('text'), body: LocalizedText });
/** A card (spec 2) with optional text and a button linking somewhere. */
export const CardModule = z.strictObject({
  ...moduleBase,
  type: z.literal('card'),
  text: LocalizedText.optional(),
  button_label: LocalizedText.optional(),
  url: PageUrl.nullable().optional(),
  image: PageUrl.nullable().optional(),
});
/** Social networks a links module can point to (spec 2 icon set). */
export const SOCIAL_NETWORKS = ['instagram', 'facebook', 'tiktok', 'youtube', 'x'] as const;
/** Ticket and social links. */
export const LinksModule = z.strictObject({
  ...moduleBase,
  type: z.literal('links'),
  ticket_url: PageUrl.nullable().optional(),
  ticket_label: LocalizedText.optional(),
  socials: z.array(z.strictObject({ network: z.enum(SOCIAL_NETWORKS), url: PageUrl })).max(10).default([]),
});

/** Every module type a page can hold. */
export const PageModule = z.discriminatedUnion('type', [HeroModule, CountdownModule, NewsletterModule, PlayerModule, TextModule, CardModule, LinksModule, PresaveModule]);
export type PageModule = z.infer<typeof PageModule>;
export const PAGE_MODULE_TYPES = ['hero', 'countdown', 'newsletter', 'player', 'text', 'card', 'links', 'presave'] as const;
export type PageModuleType = (typeof PAGE_MODULE_TYPES)[number];

/** Imprint and privacy links shown in the page footer. */
export const PageLegal = z.strictObject({ imprint_url: PageUrl.nullable().optional(), privacy_url: PageUrl.nullable().optional() });

/** A campaign page: its look, modules in order, and legal links (`campaign.data.page`). */
export const CampaignPage = z.strictObject({
  look: PageLook.default({ font: 'poppins', primary_color: '#ff5a36', background_color: '#14142b' }),
  modules: z.array(PageModule).max(50).default([]),
  legal: PageLegal.default({}),
});
export type CampaignPage = z.infer<typeof CampaignPage>;
export type CampaignPageInput = z.input<typeof CampaignPage>;
