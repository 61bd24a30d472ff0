/**
 * Calls the back office needs beyond spec section 7: server-side paging, search and filters for
 * long lists (campaigns, subscribers, consents, access codes), the lock take-over and its event
 * stream, and moving (renaming) a media folder.
 */
import { z } from 'zod';
import { Id, IsoDateTime } from '../common.ts';
import { Campaign, CampaignLock } from './entities.ts';

/** Longest page any back-office list answers. */
export const BACK_OFFICE_MAX_PAGE_SIZE = 100;
export const BACK_OFFICE_DEFAULT_PAGE_SIZE = 25;

const paging = {
  /** 1-based. */
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(BACK_OFFICE_MAX_PAGE_SIZE).default(BACK_OFFICE_DEFAULT_PAGE_SIZE),
};

/** A page of a list: the items, the total count and the page asked for. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().nonnegative(), page: z.number().int(), page_size: z.number().int() });
}

// ---------------------------------------------------------------------------------------------
// Campaigns list
// ---------------------------------------------------------------------------------------------

/** When a campaign runs, relative to now: before `starts_at`, between, after `ends_at`; `test` is the flag. */
export const CAMPAIGN_LIST_STATES = ['scheduled', 'live', 'ended', 'test'] as const;
export type CampaignListState = (typeof CAMPAIGN_LIST_STATES)[number];
export const CAMPAIGN_SORT_FIELDS = ['name', 'slug', 'created_at', 'updated_at', 'starts_at', 'ends_at'] as const;

/** Query of `GET /api/campaigns/search`. */
export const CampaignsPageQuery = z.object({
  /** Part of the name or slug (case-insensitive). */
  q: z.string().trim().max(200).optional(),
  app_id: Id.optional(),
  state: z.enum(CAMPAIGN_LIST_STATES).optional(),
  sort: z.enum(CAMPAIGN_SORT_FIELDS).default('updated_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  ...paging,
});
export type CampaignsPageQuery = z.input<typeof CampaignsPageQuery>;
export const CampaignsPage = pageOf(Campaign);
export type CampaignsPage = z.infer<typeof CampaignsPage>;

// ---------------------------------------------------------------------------------------------
// Edit locks
// ---------------------------------------------------------------------------------------------

/**
 * A frame of `GET /api/campaigns/{id}/lock/events` (server-sent events, `data:` is this JSON): the
 * campaign's lock now, sent on connect and on every change. A holder whose lock moved to someone
 * else learns it from this frame at once.
 */
export const CampaignLockEvent = z.object({
  campaign_id: Id,
  lock: CampaignLock.nullable(),
  /** What changed it: a take-over names the new holder. */
  reason: z.enum(['current', 'acquired', 'released', 'taken_over']),
});
export type CampaignLockEvent = z.infer<typeof CampaignLockEvent>;

// ---------------------------------------------------------------------------------------------
// Newsletter subscribers and consent ledger
// ---------------------------------------------------------------------------------------------

export const NEWSLETTER_SUBSCRIBER_STATES = ['pending', 'confirmed'] as const;

/** Query of the subscribers and consents of a campaign (lists and CSV exports). */
export const NewsletterLedgerQuery = z.object({
  newsletter_id: z.string().min(1).max(100).optional(),
  state: z.enum(NEWSLETTER_SUBSCRIBER_STATES).optional(),
  /** Part of the e-mail address. */
  q: z.string().trim().max(254).optional(),
  ...paging,
});
export type NewsletterLedgerQuery = z.input<typeof NewsletterLedgerQuery>;

/** Query of the subscribers and consents of every campaign: the same filters, and optionally one campaign. */
export const AllNewsletterLedgerQuery = NewsletterLedgerQuery.extend({ campaign_id: Id.optional() });
export type AllNewsletterLedgerQuery = z.input<typeof AllNewsletterLedgerQuery>;

/** A subscriber of one newsletter. */
export const NewsletterSubscriber = z.object({
  id: Id,
  email: z.string(),
  newsletter_id: z.string(),
  campaign_id: Id,
  locale: z.string(),
  address_book_id: z.string(),
  form_id: z.string(),
  /** Name and country given with the signup, if any. */
  name: z.string().nullable(),
  country: z.string().nullable(),
  state: z.enum(NEWSLETTER_SUBSCRIBER_STATES),
  created_at: IsoDateTime,
  confirmed_at: IsoDateTime.nullable(),
});
export type NewsletterSubscriber = z.infer<typeof NewsletterSubscriber>;
export const SubscribersPage = pageOf(NewsletterSubscriber);
export type SubscribersPage = z.infer<typeof SubscribersPage>;

/** One consent of the ledger: what the fan agreed to, in which words, when and from where. */
export const NewsletterConsentRecord = z.object({
  id: Id,
  email: z.string(),
  newsletter_id: z.string(),
  campaign_id: Id,
  signup_mode: z.string(),
  accepted: z.boolean(),
  /** The exact consent text shown, stored with the consent (older consents: the campaign's text of that version, else null). */
  consent_text: z.string().nullable(),
  consent_text_version: z.string(),
  locale: z.string(),
  source_page: z.string(),
  ip: z.string(),
  created_at: IsoDateTime,
  confirmed_at: IsoDateTime.nullable(),
});
export type NewsletterConsentRecord = z.infer<typeof NewsletterConsentRecord>;
export const ConsentsPage = pageOf(NewsletterConsentRecord);
export type ConsentsPage = z.infer<typeof ConsentsPage>;

// ---------------------------------------------------------------------------------------------
// Token gate access codes
// ---------------------------------------------------------------------------------------------

/** An access code as an admin sees it: never the code (stored hashed), only its uses. */
export const TokenGateCode = z.object({
  id: Id,
  product_id: z.string(),
  uses: z.number().int().nonnegative(),
  max_uses: z.number().int().positive(),
  created_at: IsoDateTime,
});
export type TokenGateCode = z.infer<typeof TokenGateCode>;
export const TokenGateCodesPageQuery = z.object({ ...paging });
export const TokenGateCodesPage = pageOf(TokenGateCode).extend({
  /** Uses of all codes of the product. */
  total_uses: z.number().int().nonnegative(),
});
export type TokenGateCodesPage = z.infer<typeof TokenGateCodesPage>;

// ---------------------------------------------------------------------------------------------
// Media folders
// ---------------------------------------------------------------------------------------------

/** `POST /api/uploads/folders_move`: renames a folder by moving it (and everything under it). */
export const MoveFolderBody = z.strictObject({
  from: z.string().min(1).max(500),
  to: z.string().min(1).max(500),
});
export type MoveFolderBody = z.infer<typeof MoveFolderBody>;
