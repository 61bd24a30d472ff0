import type { FastifyRequest } from 'fastify';
import { CAMPAIGN_PREVIEW_PARAM, type PreviewLink } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { signPayload, verifyPayload } from '../../platform/tokens.ts';
import { iso } from '../shared.ts';
import { cmsTokenOf, requireCmsUser } from '../users/guards.ts';

/** How long a preview link shows an unpublished page (the editor asks for a new one on each load). */
export const PREVIEW_LINK_TTL_MS = 60 * 60_000;

interface PreviewClaim {
  /** The campaign's id. */
  c: string;
  /** Expiry, ms since the epoch. */
  e: number;
}

/**
 * A signed, short-lived link to a campaign's page that shows its draft: the editor's preview frame
 * cannot send the back-office token, and the token must never travel in an address.
 */
export function previewLink(ctx: ServerContext, campaignId: string, pageUrl: string): PreviewLink {
  const expiresAt = ctx.now() + PREVIEW_LINK_TTL_MS;
  const token = signPayload({ c: campaignId, e: expiresAt } satisfies PreviewClaim, ctx.config.sessionSecret);
  return { url: `${pageUrl}?${CAMPAIGN_PREVIEW_PARAM}=${encodeURIComponent(token)}`, expires_at: iso(expiresAt) };
}

/** True when `token` is an unexpired preview token of this campaign. */
export function isPreviewOf(ctx: ServerContext, token: string | undefined, campaignId: string): boolean {
  if (!token) return false;
  const claim = verifyPayload<PreviewClaim>(token, ctx.config.sessionSecret);
  return !!claim && claim.c === campaignId && typeof claim.e === 'number' && claim.e > ctx.now();
}

/** Which version of a campaign a call answers for: visitors get the published one, editors the draft. */
export type CampaignView = 'published' | 'draft';

/**
 * The version a public call of the page answers for: the draft when the call carries the page's
 * preview token (`preview`, passed on by a page opened through a preview link) or a back-office
 * token that may read campaigns; else the published version.
 */
export async function campaignViewOf(ctx: ServerContext, req: FastifyRequest, campaignId: string, preview: string | undefined): Promise<CampaignView> {
  if (isPreviewOf(ctx, preview, campaignId)) return 'draft';
  if (!cmsTokenOf(req)) return 'published';
  const editor = await requireCmsUser(ctx, req, 'campaigns.read').catch(() => null);
  return editor ? 'draft' : 'published';
}
