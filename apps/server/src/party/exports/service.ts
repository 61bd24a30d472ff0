/**
 * The CSV exports of a party (issue 14), streamed: rows are read by keyset pages and written as
 * they come, so a party with a million messages exports in constant memory.
 */
import { PARTY_EXPORT_COLUMNS } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { toBool } from '../../platform/db/columns.ts';
import { requireParty } from '../parties/queries.ts';
import { partyTimeline, type Timeline } from '../recap/segments.ts';
import { questionStats } from '../stats/queries.ts';
import { csvLine } from './csv.ts';

/** Rows per database page. */
const PAGE = 2_000;
/** Pages at most per export: a bound on the loop (20 million rows). */
const MAX_PAGES = 10_000;

const isoOf = (ms: number | string): string => new Date(Number(ms)).toISOString();

async function timelineOf(ctx: ServerContext, partyId: string): Promise<Timeline> {
  const party = await requireParty(ctx.db, partyId);
  const endsAt = party.ends_at == null ? null : Number(party.ends_at);
  return partyTimeline(ctx.db, partyId, endsAt != null && endsAt <= ctx.now() ? endsAt : null);
}

/** Every chat message (posts, polls, quiz questions, scoreboards, popups) with its track and position. */
export async function* chatCsv(ctx: ServerContext, partyId: string): AsyncGenerator<string> {
  const timeline = await timelineOf(ctx, partyId);
  yield csvLine(PARTY_EXPORT_COLUMNS.chat);
  let after: { ts: number; seq: number } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    let q = ctx.db.selectFrom('chat_messages').selectAll().where('party_id', '=', partyId);
    if (after) {
      const { ts, seq } = after;
      q = q.where((eb) => eb.or([eb('timestamp_ms', '>', ts), eb.and([eb('timestamp_ms', '=', ts), eb('seq_id', '>', seq)])]));
    }
    const rows = await q.orderBy('timestamp_ms').orderBy('seq_id').limit(PAGE).execute();
    let chunk = '';
    for (const r of rows) {
      const stamp = timeline.stamp(Number(r.timestamp_ms));
      chunk += csvLine([
        r.id,
        isoOf(r.timestamp_ms),
        Number(r.seq_id),
        r.type,
        r.sender_id,
        r.sender_display_name,
        r.sender_role,
        r.text,
        r.sticker,
        r.photo,
        r.video,
        r.reply_to_message_id,
        stamp.track_id,
        stamp.position_ms,
      ]);
    }
    if (chunk) yield chunk;
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { ts: Number(last.timestamp_ms), seq: Number(last.seq_id) };
  }
}

/** Poll and quiz results: one row per option, with the count of answers and whether it is correct. */
export async function* answersCsv(ctx: ServerContext, partyId: string): AsyncGenerator<string> {
  const timeline = await timelineOf(ctx, partyId);
  yield csvLine(PARTY_EXPORT_COLUMNS.answers);
  const questions = (await questionStats(ctx.db, partyId)).reverse();
  for (const q of questions) {
    const stamp = timeline.stamp(q.created_at_ms);
    let chunk = '';
    q.options.forEach((option, i) => {
      chunk += csvLine([q.kind, q.id, q.question, isoOf(q.created_at_ms), stamp.track_id, stamp.position_ms, i, option, q.results[i] ?? 0, q.kind === 'quiz' ? q.correct_answer === i : null]);
    });
    yield chunk;
  }
}

/** The fans signed up for the party, with their consent to the competition (personal data: CMS only). */
export async function* fansCsv(ctx: ServerContext, partyId: string): AsyncGenerator<string> {
  await requireParty(ctx.db, partyId);
  yield csvLine(PARTY_EXPORT_COLUMNS.fans);
  let after: { at: number; id: string } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    let q = ctx.db
      .selectFrom('party_users')
      .innerJoin('fans', 'fans.id', 'party_users.fan_id')
      .select([
        'party_users.fan_id',
        'party_users.display_name',
        'party_users.real_name',
        'party_users.email',
        'party_users.country',
        'fans.service',
        'party_users.created_at',
        'party_users.can_chat',
        'party_users.competition_accepted',
      ])
      .where('party_users.party_id', '=', partyId);
    if (after) {
      const { at, id } = after;
      q = q.where((eb) => eb.or([eb('party_users.created_at', '>', at), eb.and([eb('party_users.created_at', '=', at), eb('party_users.fan_id', '>', id)])]));
    }
    const rows = await q.orderBy('party_users.created_at').orderBy('party_users.fan_id').limit(PAGE).execute();
    let chunk = '';
    for (const r of rows) {
      chunk += csvLine([r.fan_id, r.display_name, r.real_name, r.email, r.country, r.service, isoOf(r.created_at), toBool(r.can_chat), toBool(r.competition_accepted)]);
    }
    if (chunk) yield chunk;
    if (rows.length < PAGE) return;
    const last = rows.at(-1)!;
    after = { at: Number(last.created_at), id: last.fan_id };
  }
}
