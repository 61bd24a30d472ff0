/**
 * Party-wide slow mode (issue 10: anonymous signups each bypassed the per-fan chat limit). While
 * `frontend.chatSlowModeSeconds` is above 0, each listener may post one message per that many
 * seconds, whoever they are; hosts, admins and the fake-traffic generator are exempt.
 */
import { CHAT_SLOW_MODE_ERROR, PARTY_ROUTES, type Role } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { requireParty, type PartyRow } from '../parties/queries.ts';
import { storedSettingsOf } from '../parties/service.ts';
import { partyRoute } from '../route.ts';
import { roleHas } from '../policies.ts';

/** The party's slow-mode interval in seconds (`frontend.chatSlowModeSeconds`); 0 when off. */
export function slowModeSecondsOf(row: Pick<PartyRow, 'frontend'>): number {
  return storedSettingsOf(row).chatSlowModeSeconds ?? 0;
}

/** 429 `ChatSlowMode` when the fan posted within the party's slow-mode interval. */
export async function enforceSlowMode(
  ctx: ServerContext,
  partyId: string,
  author: { role: Role; fanId: string },
  exempt = false,
  /** The party row when the caller has it (one read less inside the posting transaction). */
  known?: PartyRow,
): Promise<void> {
  if (exempt || roleHas(author.role, 'chat.ignoreSlowMode')) return;
  const party = known ?? (await requireParty(ctx.db, partyId));
  const seconds = slowModeSecondsOf(party);
  if (seconds <= 0) return;
  const now = ctx.now();
  const since = now - seconds * 1000;
  // A deleted message counts as well (chat_deleted_posts): deleting does not shorten the wait.
  const last = await ctx.db
    .selectFrom(
      ctx.db
        .selectFrom('chat_messages')
        .select('timestamp_ms')
        .where('party_id', '=', partyId)
        .where('sender_id', '=', author.fanId)
        .where('timestamp_ms', '>', since)
        .unionAll(ctx.db.selectFrom('chat_deleted_posts').select('timestamp_ms').where('party_id', '=', partyId).where('sender_id', '=', author.fanId).where('timestamp_ms', '>', since))
        .as('posts'),
    )
    .select((eb) => eb.fn.max<number | string | null>('timestamp_ms').as('last'))
    .executeTakeFirst();
  if (last?.last == null) return;
  const retryAfterMs = Math.max(0, Number(last.last) + seconds * 1000 - now);
  throw new HttpError(429, {
    message: `Slow mode: one message per ${seconds} s. Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    type: CHAT_SLOW_MODE_ERROR,
    retry_after_ms: retryAfterMs,
  });
}

/** `PUT /api/parties/{id}/chat/slow_mode`: hosts and admins of the party switch slow mode (the entry's `chat.slowMode`). */
export async function registerSlowModeRoutes(app: App, ctx: ServerContext): Promise<void> {
  partyRoute(ctx)(app, PARTY_ROUTES.setSlowMode, async (req) => {
    const party = await requireParty(ctx.db, req.params.id);
    const frontend = { ...storedSettingsOf(party), chatSlowModeSeconds: req.body.seconds };
    await ctx.db.updateTable('parties').set({ frontend: JSON.stringify(frontend), updated_at: ctx.now() }).where('id', '=', party.id).execute();
    return { seconds: req.body.seconds };
  });
}
