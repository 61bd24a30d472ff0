import { z } from 'zod';
import { CAMPAIGN_META, PROVIDER_SDK_META } from '@fanfare/protocol';

/** The party the app opens when nothing else names one (the demo party of a fresh install). */
export const DEFAULT_PARTY_ID = 'demo';

/** The part of a campaign's configuration the party app reads (campaign spec 3: tag_manager.party_id). */
const CampaignConfig = z.looseObject({
  tag_manager: z.looseObject({ party_id: z.string().min(1).nullish() }).nullish(),
});

/**
 * Campaign configuration embedded in the page as metadata, under the name the CMS writes
 * (`CAMPAIGN_META.campaign`, `<meta name="fanfare:campaign">`), or a global.
 */
export function readCampaignConfig(doc: Document, win: Window): z.infer<typeof CampaignConfig> | null {
  const raw =
    doc.querySelector(`meta[name="${CAMPAIGN_META.campaign}"]`)?.getAttribute('content') ??
    ((win as unknown as { __FANFARE_CAMPAIGN__?: unknown }).__FANFARE_CAMPAIGN__ as unknown);
  if (raw == null || raw === '') return null;
  try {
    const json: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const parsed = CampaignConfig.safeParse(json);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Which party this page is for (spec 2): a party id from the campaign configuration wins; then
 * the id the server wrote into the page; then `/p/{partyId}/` in the path; else the default.
 */
export function resolvePartyId(doc: Document, win: Window): string {
  const fromCampaign = readCampaignConfig(doc, win)?.tag_manager?.party_id;
  if (fromCampaign) return fromCampaign;
  const fromMeta = doc.querySelector('meta[name="fanfare-party-id"]')?.getAttribute('content');
  if (fromMeta) return fromMeta;
  const fromPath = /\/p\/([^/]+)\/?/.exec(win.location.pathname)?.[1];
  if (fromPath) return decodeURIComponent(fromPath);
  return DEFAULT_PARTY_ID;
}

/** Links of the footer. The spec names them but not their targets; a page may set them by meta tag. */
export function footerLinks(doc: Document): { imprint: string; privacy: string; terms: string } {
  const meta = (name: string, fallback: string) => doc.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || fallback;
  return {
    imprint: meta('fanfare-imprint-url', '/legal/imprint'),
    privacy: meta('fanfare-privacy-url', '/legal/privacy'),
    terms: meta('fanfare-terms-url', '/legal/terms'),
  };
}

/** The newsletters the page's campaign offers (`<meta name="fanfare-newsletter-ids">`, comma-separated). */
export function newsletterIds(doc: Document): string[] {
  const raw = doc.querySelector('meta[name="fanfare-newsletter-ids"]')?.getAttribute('content') ?? '';
  return raw.split(',').map((id) => id.trim()).filter(Boolean);
}

/** The newsletter call of the campaign system, when the page names one; until then the form is hidden. */
export function newsletterEndpoint(doc: Document): string | null {
  return doc.querySelector('meta[name="fanfare-newsletter-url"]')?.getAttribute('content') || null;
}

/**
 * MusicKit as the server names it for this page (`PROVIDER_SDK_META`): the official MusicKit JS v3
 * with real credentials, the Apple emulator's stand-in otherwise; null: Apple cannot log in here.
 */
export function musicKitSettings(doc: Document): { src: string; developerToken: string } | null {
  const meta = (name: string) => doc.querySelector(`meta[name="${name}"]`)?.getAttribute('content') || null;
  const src = meta(PROVIDER_SDK_META.musicKitSrc);
  const developerToken = meta(PROVIDER_SDK_META.appleDeveloperToken);
  return src && developerToken ? { src, developerToken } : null;
}
