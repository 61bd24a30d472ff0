/**
 * The in-app browser handover (docs/decisions/0038): a visit inside Instagram, Facebook, TikTok,
 * Snapchat or X moves to the system browser with what the visitor chose so far. The state is
 * kept server-side for a few minutes under a single-use token stored as its hash; the URL
 * carries only the token.
 */
import { HANDOVER_QUERY_PARAM, HandoverState, type HandoverLink, type HandoverStateInput } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { hashToken, newId, newToken } from '../../platform/tokens.ts';
import { requirePublishedCampaign } from '../editorial/publish.ts';
import { newslettersOf } from '../newsletter/service.ts';
import { iso } from '../shared.ts';

/**
 * At most this many handovers wait at once (all campaigns). Each row is a few hundred bytes and
 * lives minutes: the cap bounds the table even under a flood that the per-client limit misses.
 */
export const HANDOVER_MAX_PENDING = 20_000;

/**
 * Stores a visit's state for the system browser and answers the campaign page's URL with the
 * token. Consents for newsletters the campaign does not have, and locales it does not offer, are
 * dropped rather than carried.
 */
export async function createHandover(ctx: ServerContext, campaignId: string, input: HandoverStateInput): Promise<HandoverLink> {
  const campaign = await requirePublishedCampaign(ctx, campaignId);
  const state = HandoverState.parse(input);
  const newsletterIds = new Set(newslettersOf(campaign).map((n) => n.id));
  const locales = campaign.i18n?.locales?.map((l) => l.code) ?? ['de', 'en'];
  const kept: HandoverState = {
    ...state,
    locale: state.locale && locales.includes(state.locale) ? state.locale : undefined,
    consents: state.consents.filter((c) => newsletterIds.has(c.id)),
  };
  const now = ctx.now();
  // Expired handovers go on every new one (the index on expires_at keeps this cheap).
  await ctx.db.deleteFrom('cms_handovers').where('expires_at', '<=', now).execute();
  const pending = await ctx.db.selectFrom('cms_handovers').select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirstOrThrow();
  if (Number(pending.n) >= HANDOVER_MAX_PENDING) throw new HttpError(503, 'Too many handovers at the moment; please try again in a few minutes');
  const token = newToken();
  const expiresAt = now + ctx.config.cms.handoverTtlMs;
  await ctx.db
    .insertInto('cms_handovers')
    .values({ id: newId(), token_hash: hashToken(token), campaign_id: campaign.id, state: JSON.stringify(kept), created_at: now, expires_at: expiresAt })
    .execute();
  const url = new URL(campaign.url);
  url.searchParams.set(HANDOVER_QUERY_PARAM, token);
  return { url: url.toString(), expires_at: iso(expiresAt) };
}

/**
 * The state of a handover, once: the row is deleted as it is read (one statement, so two
 * browsers racing for one link never both get it). Unknown, used or expired: 404.
 */
export async function redeemHandover(ctx: ServerContext, campaignId: string, token: string): Promise<HandoverState> {
  const row = await ctx.db
    .deleteFrom('cms_handovers')
    .where('token_hash', '=', hashToken(token))
    .where('campaign_id', '=', campaignId)
    .where('expires_at', '>', ctx.now())
    .returning('state')
    .executeTakeFirst();
  if (!row) throw notFound('Unknown, used or expired handover link');
  return HandoverState.parse(JSON.parse(row.state));
}
