import { STATS_CHAT_TAIL, STATS_QUESTIONS } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { toBool } from '../../platform/db/columns.ts';
import { listChatMessages } from '../chat/messages/service.ts';
import { currentStatus } from '../timeline/playback.ts';
import { listTrackRows, voteCountsOf } from '../timeline/queries.ts';
import { iso } from '../parties/service.ts';
import { requireParty } from '../parties/queries.ts';
import { isFanChat, type StatsSnapshot } from './aggregator.ts';
import { blockedFans, chatAndAnswerTotals, messageBuckets, questionStats } from './queries.ts';

/** The party's figures as stored, for the first dashboard of a party on this node. */
export async function loadStatsSnapshot(ctx: ServerContext, partyId: string): Promise<StatsSnapshot> {
  const party = await requireParty(ctx.db, partyId);
  const now = ctx.now();
  const [tracks, questions, status, blocked, buckets, totals, recent, seconds] = await Promise.all([
    listTrackRows(ctx.db, partyId),
    questionStats(ctx.db, partyId, STATS_QUESTIONS),
    currentStatus(ctx, partyId),
    blockedFans(ctx.db, partyId),
    messageBuckets(ctx.db, partyId, now),
    chatAndAnswerTotals(ctx.db, partyId),
    // A few more than shown: system posts and polls in between are filtered out.
    listChatMessages(ctx, partyId, STATS_CHAT_TAIL * 2),
    // Per second over the last minute: the per-minute rate.
    messageBuckets(ctx.db, partyId, now, 1_000, now - (now % 1_000) - 59_000),
  ]);
  const recentChat = recent.filter(isFanChat).slice(-STATS_CHAT_TAIL);
  return {
    tracks: tracks.filter((t) => !toBool(t.excluded)).map((t) => ({ track_id: t.track_id, name: t.name })),
    // The counts come with the track rows (migration 011).
    votes: voteCountsOf(tracks),
    questions,
    status,
    started_at: party.started_at == null ? null : iso(Number(party.started_at)),
    ends_at: party.ends_at == null ? null : iso(Number(party.ends_at)),
    blocked,
    messageBuckets: buckets,
    messageSeconds: seconds,
    totalMessages: totals.messages,
    totalAnswers: totals.answers,
    recentChat,
    names: new Map(recentChat.flatMap((m) => (m.sender ? [[m.sender.id, m.sender.display_name] as const] : []))),
  };
}
