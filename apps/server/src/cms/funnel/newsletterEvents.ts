/**
 * The newsletter's funnel events, recorded by the server in the signup's and the confirmation's own
 * transactions. Only a signup that carried the page's funnel context (sent with the visitor's
 * tracking consent, decision 0039) is counted; its confirmation is counted with the same keys.
 */
import { FunnelContext, type FunnelContextInput } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { recordFunnelEvent } from './service.ts';

/** What the confirmation row keeps for its later `confirmed` event (null without consent). */
export function funnelContextOfConfirmation(context: FunnelContextInput | undefined, territory: string | undefined): string | null {
  if (!context) return null;
  return JSON.stringify({ ...FunnelContext.parse(context), territory: territory ?? '' });
}

export async function recordSignupFunnelEvent(ctx: ServerContext, trx: Db, campaignId: string, context: FunnelContextInput | undefined, territory: string | undefined): Promise<void> {
  if (!context) return;
  await recordFunnelEvent(ctx, { campaignId, kind: 'signup', territory: territory ?? '', context }, trx);
}

export async function recordConfirmedFunnelEvent(ctx: ServerContext, trx: Db, campaignId: string, stored: string | null | undefined): Promise<void> {
  const saved = parseJson<(FunnelContextInput & { territory?: string }) | null>(stored, null);
  if (!saved) return;
  const { territory, ...context } = saved;
  await recordFunnelEvent(ctx, { campaignId, kind: 'confirmed', territory: territory ?? '', context }, trx);
}
