/**
 * The in-app browser handover: a campaign page opened inside Instagram, Facebook, TikTok,
 * Snapchat or X cannot log in with a provider (Google refuses embedded browsers, and cookies and
 * redirects get lost), so it hands the visit over to the system browser. What the visitor chose so
 * far travels through a short-lived, single-use token in the URL, kept hashed on the server.
 */
import { z } from 'zod';
import { IsoDateTime } from '../common.ts';
import { NewsletterConsent } from './calls.ts';
import { CampaignService, LocaleCode } from './entities.ts';

/** The query parameter that carries a handover token to the campaign page. */
export const HANDOVER_QUERY_PARAM = 'handover';

/** The apps whose in-app browsers the page hands over from. */
export const IN_APP_BROWSERS = ['instagram', 'facebook', 'tiktok', 'snapchat', 'x'] as const;
export type InAppBrowser = (typeof IN_APP_BROWSERS)[number];

const UtmValue = z.string().trim().min(1).max(200);

/** What survives the handover: locale, UTM parameters, consents not yet sent, the login wanted. */
export const HandoverState = z.object({
  locale: LocaleCode.optional(),
  utm: z
    .object({ utm_source: UtmValue.optional(), utm_medium: UtmValue.optional(), utm_campaign: UtmValue.optional() })
    .strict()
    .default({}),
  /** The newsletter consents ticked but not sent yet. */
  consents: z.array(NewsletterConsent).max(20).default([]),
  /** The provider login the visitor asked for; the system browser continues with it. */
  service: CampaignService.optional(),
  /** The in-app browser it came from (no personal data: for the funnel's channel only). */
  from: z.enum(IN_APP_BROWSERS).optional(),
});
export type HandoverState = z.infer<typeof HandoverState>;
export type HandoverStateInput = z.input<typeof HandoverState>;

/** Answer of `POST /api/campaigns/{id}/handover` (201): the URL to open in the system browser. */
export const HandoverLink = z.object({
  url: z.url(),
  expires_at: IsoDateTime,
});
export type HandoverLink = z.infer<typeof HandoverLink>;

/** Body of `POST /api/campaigns/{id}/handover/redeem`: the token of the URL (single use). */
export const HandoverRedeemBody = z.object({ token: z.string().min(16).max(200) });
export type HandoverRedeemBody = z.infer<typeof HandoverRedeemBody>;
