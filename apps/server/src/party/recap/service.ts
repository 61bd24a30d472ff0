/**
 * The recap of a party (issue 14): the plays of its tracks, and the chat, votes and polls placed on
 * them, each event stamped with the track and position it happened at (`segments.ts`).
 */
import { RECAP_CHAT_STEP_MS, type PartyRecapResponse, type RecapChatPoint, type RecapVotes } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { iso } from '../parties/service.ts';
import { requireParty } from '../parties/queries.ts';
import { questionStats } from '../stats/queries.ts';
import { recapSources } from '../stats/sourcePeaks.ts';
import { partyTimeline } from './segments.ts';

/** Chat timestamps are read in pages of this size (a party may hold a million messages). */
const PAGE = 5_000;
/** At most this many pages (the chat log export has every message; the recap counts them). */
const MAX_PAGES = 1_000;

export async function partyRecap(ctx: ServerContext, partyId: string): Promise<PartyRecapResponse> {
  const party = await requireParty(ctx.db, partyId);
  const endsAt = party.ends_at == null ? null : Number(party.ends_at);
  const timeline = await partyTimeline(ctx.db, partyId, endsAt != null && endsAt <= ctx.now() ? endsAt : null);

  // Chat: counted per play and position stretch, read by keyset pages of timestamps only.
  const chat = new Map<string, RecapChatPoint>();
  let total = 0;
  let outside = 0;
  let after: { ts: number; seq: number } | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    let q = ctx.db
      .selectFrom('chat_messages')
      .select(['timestamp_ms', 'seq_id'])
      .where('party_id', '=', partyId)
      .where('type', '=', 'message')
      .where('sender_id', 'is not', null);
    if (after) {
      const { ts, seq } = after;
      q = q.where((eb) => eb.or([eb('timestamp_ms', '>', ts), eb.and([eb('timestamp_ms', '=', ts), eb('seq_id', '>', seq)])]));
    }
    const rows = await q.orderBy('timestamp_ms').orderBy('seq_id').limit(PAGE).execute();
    for (const r of rows) {
      total += 1;
      const stamp = timeline.stamp(Number(r.timestamp_ms));
      if (stamp.play === null || stamp.position_ms === null) {
        outside += 1;
        continue;
      }
      const position = stamp.position_ms - (stamp.position_ms % RECAP_CHAT_STEP_MS);
      const key = `${stamp.play}:${position}`;
      const point = chat.get(key) ?? { play: stamp.play, position_ms: position, messages: 0 };
      point.messages += 1;
      chat.set(key, point);
    }
    if (rows.length < PAGE) break;
    const last = rows.at(-1)!;
    after = { ts: Number(last.timestamp_ms), seq: Number(last.seq_id) };
  }

  // Votes: each vote stands where it was cast (a withdrawn vote is gone).
  const names = new Map(timeline.plays.map((p) => [p.track_id, p.name]));
  const trackRows = await ctx.db.selectFrom('party_tracks').select(['track_id', 'name']).where('party_id', '=', partyId).execute();
  for (const t of trackRows) names.set(t.track_id, t.name);
  const voteRows = await ctx.db.selectFrom('track_votes').select(['track_id', 'created_at']).where('party_id', '=', partyId).execute();
  const votes = new Map<string, RecapVotes>();
  for (const v of voteRows) {
    const play = timeline.stamp(Number(v.created_at)).play;
    const key = `${play}:${v.track_id}`;
    const entry = votes.get(key) ?? { play, track_id: v.track_id, name: names.get(v.track_id) ?? v.track_id, votes: 0 };
    entry.votes += 1;
    votes.set(key, entry);
  }

  const questions = (await questionStats(ctx.db, partyId)).reverse().map((q) => ({ ...q, stamp: timeline.stamp(q.created_at_ms) }));
  return {
    party_id: partyId,
    name: party.name,
    started_at: party.started_at == null ? null : iso(Number(party.started_at)),
    ends_at: endsAt == null ? null : iso(endsAt),
    plays: timeline.plays,
    chat: [...chat.values()].sort((a, b) => a.play - b.play || a.position_ms - b.position_ms),
    chat_total: total,
    chat_outside_plays: outside,
    votes: [...votes.values()].sort((a, b) => (a.play ?? -1) - (b.play ?? -1) || b.votes - a.votes),
    questions,
    sources: await recapSources(ctx.db, partyId),
  };
}
