/**
 * The campaign funnel (issue "a funnel a label can act on"): anonymous events a campaign page and
 * the server record, the report the back office reads, and the A/B page variants they compare.
 *
 * An event carries no personal data: its kind, the campaign, the territory (country, from the same
 * geo lookup as `GET /api/i18n/geo`, decided by the server), the UTM parameters, the referrer's
 * host and the page variant. Nothing that names or follows a visitor reaches the server: the
 * visitor id that picks the variant stays in the browser (decision 0039).
 */
import { z } from 'zod';
import { LocalizedText, PageUrl } from './page.ts';
import { FUNNEL_EVENT_KINDS, FUNNEL_STEPS, FUNNEL_VARIANTS, FUNNEL_UTM_MAX, PAGE_FUNNEL_EVENT_KINDS, FUNNEL_BATCH_MAX, type FunnelEventKind } from './funnelRules.ts';

const Utm = z.string().trim().max(FUNNEL_UTM_MAX);
/** A host name (`www.instagram.com`), lower case; empty when the visit came without a referrer. */
const ReferrerHost = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^$|^[a-z0-9.-]+(?::\d{1,5})?$/, 'Expected a host name');

/** Where a visit came from and what it saw: the keys of every event besides campaign, kind and territory. */
export const FunnelContext = z.strictObject({
  utm_source: Utm.default(''),
  utm_medium: Utm.default(''),
  utm_campaign: Utm.default(''),
  referrer_host: ReferrerHost.default(''),
  variant: z.enum(FUNNEL_VARIANTS).default('a'),
});
export type FunnelContext = z.infer<typeof FunnelContext>;
export type FunnelContextInput = z.input<typeof FunnelContext>;

/** One event a page sends: what happened, with its context. */
export const PageFunnelEvent = FunnelContext.extend({ kind: z.enum(PAGE_FUNNEL_EVENT_KINDS) });
export type PageFunnelEvent = z.input<typeof PageFunnelEvent>;

/** Body of `POST /api/campaigns/{id}/funnel/events`. */
export const FunnelEventsBody = z.strictObject({ events: z.array(PageFunnelEvent).min(1).max(FUNNEL_BATCH_MAX) });
export type FunnelEventsBody = z.input<typeof FunnelEventsBody>;

/** Answer of the ingest call: how many events were stored (0 for a campaign that records none). */
export const FunnelEventsResponse = z.object({ recorded: z.number().int().nonnegative() });
export type FunnelEventsResponse = z.infer<typeof FunnelEventsResponse>;

/** Time buckets of the report's series. */
export const FUNNEL_BUCKETS = ['hour', 'day', 'week'] as const;
export type FunnelBucket = (typeof FUNNEL_BUCKETS)[number];
/** At most this many buckets in one report (e.g. 40 days of hours, 8 years of weeks). */
export const FUNNEL_MAX_BUCKETS = 1000;

const Millis = z.coerce.number().int().min(0).max(8.64e15);

/** Query of `GET /api/campaigns/{id}/funnel` (and its CSV): a time range in ms since the epoch, half open, and the bucket. */
export const FunnelQuery = z
  .strictObject({
    /** First instant counted (default: the campaign's first event). */
    from: Millis.optional(),
    /** First instant not counted (default: now). */
    to: Millis.optional(),
    bucket: z.enum(FUNNEL_BUCKETS).default('day'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from < q.to, { message: '`from` must be before `to`', path: ['from'] });
export type FunnelQuery = z.input<typeof FunnelQuery>;
/** The query as the server reads it (numbers coerced, bucket defaulted). */
export type FunnelQueryValues = z.output<typeof FunnelQuery>;

/** A count per event kind. */
export const FunnelCounts = z.object(Object.fromEntries(FUNNEL_EVENT_KINDS.map((k) => [k, z.number().int().nonnegative()])) as Record<FunnelEventKind, z.ZodNumber>);
export type FunnelCounts = z.infer<typeof FunnelCounts>;

/** A step of the funnel with its share of the step before and of the visits (0 to 1; 0 when the base is 0). */
export const FunnelStepRow = z.object({
  kind: z.enum(FUNNEL_STEPS),
  count: z.number().int().nonnegative(),
  rate_from_previous: z.number().min(0),
  rate_from_visits: z.number().min(0),
});

/** One channel: the events of one UTM source/medium/campaign and referrer host. */
export const FunnelChannelRow = z.object({
  channel: z.string(),
  utm_source: z.string(),
  utm_medium: z.string(),
  utm_campaign: z.string(),
  referrer_host: z.string(),
  counts: FunnelCounts,
});
export type FunnelChannelRow = z.infer<typeof FunnelChannelRow>;

/** Channels listed one by one (by visits); the rest are summed in one row named `other`, so the rows still add up to the totals. */
export const FUNNEL_MAX_CHANNELS = 200;

export const FunnelTerritoryRow = z.object({ territory: z.string(), counts: FunnelCounts });
export type FunnelTerritoryRow = z.infer<typeof FunnelTerritoryRow>;

export const FunnelBucketRow = z.object({ start: z.number().int(), counts: FunnelCounts });
export type FunnelBucketRow = z.infer<typeof FunnelBucketRow>;

export const FunnelVariantRow = z.object({ variant: z.enum(FUNNEL_VARIANTS), counts: FunnelCounts });

/**
 * Variant B against A for one step: the share of visits that reached it in each, and a two-sided
 * two-proportion z-test of the difference. `confidence` is 1 − p (0.95 reads "95 % confident the
 * variants differ"); null when either variant has no visits.
 */
export const FunnelComparisonRow = z.object({
  kind: z.enum(FUNNEL_STEPS),
  rate_a: z.number().min(0),
  rate_b: z.number().min(0),
  /** rate_b − rate_a. */
  difference: z.number(),
  z: z.number().nullable(),
  p_value: z.number().min(0).max(1).nullable(),
  confidence: z.number().min(0).max(1).nullable(),
});
export type FunnelComparisonRow = z.infer<typeof FunnelComparisonRow>;

/** Answer of `GET /api/campaigns/{id}/funnel`. Every breakdown adds up to `totals`. */
export const FunnelReport = z.object({
  campaign_id: z.string(),
  from: z.number().int().nullable(),
  to: z.number().int(),
  bucket: z.enum(FUNNEL_BUCKETS),
  totals: FunnelCounts,
  steps: z.array(FunnelStepRow),
  channels: z.array(FunnelChannelRow),
  territories: z.array(FunnelTerritoryRow),
  series: z.array(FunnelBucketRow),
  variants: z.array(FunnelVariantRow),
  /** Whether the campaign runs variant B now. */
  ab_test_enabled: z.boolean(),
  comparison: z.array(FunnelComparisonRow),
});
export type FunnelReport = z.infer<typeof FunnelReport>;

/**
 * Overrides of one page module in variant B: any of the title, subtitle, text, button label and
 * images (the cover of a hero) replace the module's own. A label tests a headline, a cover or a
 * call to action without building a second page.
 */
export const VariantModuleOverride = z.strictObject({
  /** The id of the page module (`data.page.modules[].id`). */
  module_id: z.string().min(1).max(100),
  title: LocalizedText.optional(),
  subtitle: LocalizedText.optional(),
  text: LocalizedText.optional(),
  button_label: LocalizedText.optional(),
  cover_image: PageUrl.nullable().optional(),
  image: PageUrl.nullable().optional(),
});
export type VariantModuleOverride = z.infer<typeof VariantModuleOverride>;

/** An A/B test of the page (`campaign.data.ab_test`): half the visitors see variant B. */
export const CampaignAbTest = z.strictObject({
  enabled: z.boolean().default(false),
  /** Variant B: overrides of modules of the page. */
  variant_b: z.array(VariantModuleOverride).max(50).default([]),
});
export type CampaignAbTest = z.infer<typeof CampaignAbTest>;

