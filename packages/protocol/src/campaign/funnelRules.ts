/**
 * The funnel's constants and rules without zod (`funnel.ts` holds the schemas): the campaign SDK
 * imports these, and its core must stay small.
 */

/** Every kind of funnel event, in funnel order first (visit → … → presave), then the side events. */
export const FUNNEL_EVENT_KINDS = ['visit', 'login', 'signup', 'confirmed', 'presave', 'gate_pass', 'play'] as const;
export type FunnelEventKind = (typeof FUNNEL_EVENT_KINDS)[number];

/** The funnel's steps, in order: visits → logins → signups → confirmed → pre-saves. */
export const FUNNEL_STEPS = ['visit', 'login', 'signup', 'confirmed', 'presave'] as const satisfies readonly FunnelEventKind[];
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/**
 * Kinds a page may send. Signups, confirmations and pre-saves happen at the server, which records
 * them itself (a page cannot inflate them).
 */
export const PAGE_FUNNEL_EVENT_KINDS = ['visit', 'login', 'gate_pass', 'play'] as const satisfies readonly FunnelEventKind[];
export type PageFunnelEventKind = (typeof PAGE_FUNNEL_EVENT_KINDS)[number];

/** Page variants of an A/B test: `a` is the page as edited, `b` the page with the variant's overrides. */
export const FUNNEL_VARIANTS = ['a', 'b'] as const;
export type FunnelVariant = (typeof FUNNEL_VARIANTS)[number];

/** Longest UTM value kept (longer ones are cut, as the SDK keeps them, spec 2 "Tracking"). */
export const FUNNEL_UTM_MAX = 100;
/** Events one ingest call may carry (a page batches what happened since its last send). */
export const FUNNEL_BATCH_MAX = 20;

/** The name the back office shows for a channel: `source / medium`, else the referrer host, else `direct`. */
export function funnelChannelName(c: { utm_source: string; utm_medium: string; referrer_host: string }): string {
  if (c.utm_source || c.utm_medium) return `${c.utm_source || '(none)'} / ${c.utm_medium || '(none)'}`;
  return c.referrer_host || 'direct';
}

/**
 * The variant of a visitor: FNV-1a of the campaign id and the visitor's first-party id, even → a,
 * odd → b. Stable for a visitor and campaign, independent across campaigns; `a` when the test is off.
 */
export function funnelVariantOf(campaignId: string, visitorId: string, isAbTestOn: boolean): FunnelVariant {
  if (!isAbTestOn) return 'a';
  let h = 0x811c9dc5;
  const s = `${campaignId}:${visitorId}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % 2 === 0 ? 'a' : 'b';
}
