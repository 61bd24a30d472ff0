import type { PostScheduledMessageBody, ScheduledMessage } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import type { Db } from '../../../platform/db/database.ts';
import type { ChatTables } from '../../../platform/db/tables/chat.ts';
import { notFound } from '../../../platform/errors.ts';
import { newId } from '../../../platform/tokens.ts';
import { requireParty } from '../../parties/queries.ts';
import { checkSticker, postSystemText } from '../messages/service.ts';

type ScheduleRow = ChatTables['chat_schedule'];

function toScheduled(row: ScheduleRow): ScheduledMessage {
  return {
    id: row.id,
    text: row.text,
    sticker: row.sticker,
    post_at: new Date(Number(row.post_at)).toISOString(),
    recurring_interval: row.recurring_interval ? Number(row.recurring_interval) : null,
  };
}

/** The party's scheduled messages, by time. */
export async function listScheduled(ctx: ServerContext, partyId: string): Promise<ScheduledMessage[]> {
  await requireParty(ctx.db, partyId);
  const rows = await ctx.db.selectFrom('chat_schedule').selectAll().where('party_id', '=', partyId).orderBy('post_at').orderBy('created_at').execute();
  return rows.map(toScheduled);
}

/**
 * Schedules a message (sticker from the party's list only) at `post_at`, repeated every
 * `recurring_interval` seconds when set. A time in the past posts at once.
 */
export async function createScheduled(ctx: ServerContext, partyId: string, body: PostScheduledMessageBody): Promise<ScheduledMessage> {
  const party = await requireParty(ctx.db, partyId);
  checkSticker(party, body.sticker);
  const postAt = Date.parse(body.post_at);
  const row: ScheduleRow = {
    id: newId(),
    party_id: partyId,
    text: body.text,
    sticker: body.sticker ?? null,
    post_at: postAt,
    recurring_interval: body.recurring_interval ?? null,
    next_run_at: postAt,
    last_posted_at: null,
    created_at: ctx.now(),
  };
  await ctx.db.insertInto('chat_schedule').values(row).execute();
  return toScheduled(row);
}

export async function deleteScheduled(ctx: ServerContext, partyId: string, id: string): Promise<void> {
  await requireParty(ctx.db, partyId);
  const res = await ctx.db.deleteFrom('chat_schedule').where('party_id', '=', partyId).where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound(`No scheduled message ${id} in this party`);
}

/** The run after `due` that is later than `now` (missed repeats while down are skipped), or null. */
export function followingRun(due: number, intervalSeconds: number | null, now: number): number | null {
  if (!intervalSeconds) return null;
  const step = intervalSeconds * 1000;
  return due + Math.max(1, Math.floor((now - due) / step) + 1) * step;
}

/**
 * Claims one due run: moves `next_run_at` on only if it still holds the due time read, so when
 * several nodes see the same run exactly one of them gets to post it.
 */
async function claimRun(db: Db, row: ScheduleRow, now: number): Promise<boolean> {
  const res = await db
    .updateTable('chat_schedule')
    .set({ next_run_at: followingRun(Number(row.next_run_at), row.recurring_interval, now), last_posted_at: now })
    .where('id', '=', row.id)
    .where('next_run_at', '=', Number(row.next_run_at))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** The job that posts due scheduled messages, for the server's scheduler (`platform/jobs.ts`). */
export function scheduledPosting(ctx: ServerContext) {
  return {
    name: 'scheduled messages',
    readsTables: ['chat_schedule'],
    async runDue(now: number) {
      const due = await ctx.db.selectFrom('chat_schedule').selectAll().where('next_run_at', '<=', now).orderBy('next_run_at').limit(100).execute();
      for (const row of due) {
        if (await claimRun(ctx.db, row, now)) await postSystemText(ctx, row.party_id, row.text, row.sticker);
      }
    },
    async nextDue() {
      const row = await ctx.db
        .selectFrom('chat_schedule')
        .select((eb) => eb.fn.min<number | string | null>('next_run_at').as('due'))
        .executeTakeFirst();
      return row?.due == null ? null : Number(row.due);
    },
  };
}
