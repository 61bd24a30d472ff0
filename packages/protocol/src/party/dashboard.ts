/**
 * Ours (issue 14): the host dashboard, the recap after a party and its CSV exports.
 *
 * The dashboard opens the party socket with `view=dashboard` (`?access_token=<CMS token or a host's
 * bearer>&view=dashboard`). Such a socket gets no chat stream: the server aggregates the party
 * (listeners, joins and leaves, chat rate, votes, poll and quiz results, the timeline) and sends one
 * `party_stats` event at most every `STATS_INTERVAL_MS`, with a bounded tail of the newest chat
 * messages for the moderation view. So the dashboard costs one small frame a second however busy
 * the party is.
 */
import { z } from 'zod';
import { EpochMs, Id, IsoDateTime, NonNegativeInt } from '../common.ts';
import { ChatMessage } from './chat.ts';
import { PlayerStatus } from './entities.ts';
import { SourceCounts } from './source.ts';

/** Query value of `view` that opens the dashboard stream instead of the fan stream. */
export const DASHBOARD_VIEW = 'dashboard';
/** At most one `party_stats` event per this interval (and none while nothing changed). */
export const STATS_INTERVAL_MS = 1_000;
/** Joins, leaves and chat messages are counted per bucket of this length. */
export const STATS_BUCKET_MS = 10_000;
/** Buckets kept in a `party_stats` event (10 minutes). */
export const STATS_BUCKETS = 60;
/** Newest chat messages a `party_stats` event carries at most (the rest are only counted). */
export const STATS_CHAT_TAIL = 20;
/** Polls and quiz questions a `party_stats` event carries (newest first). */
export const STATS_QUESTIONS = 10;
/** Blocked fans listed at most in a `party_stats` event. */
export const STATS_BLOCKED = 200;

/** One time bucket of the dashboard's charts. */
export const StatsBucket = z.object({
  /** Server time at which the bucket starts (a multiple of `STATS_BUCKET_MS`). */
  start_ms: EpochMs,
  joins: NonNegativeInt,
  leaves: NonNegativeInt,
  /** Chat messages (deletions and system posts not counted). */
  messages: NonNegativeInt,
  /** Listeners at the end of the bucket (or now, for the current one). */
  listeners: NonNegativeInt,
});
export type StatsBucket = z.infer<typeof StatsBucket>;

/** Results of one poll or quiz question so far. */
export const QuestionStats = z.object({
  id: Id,
  kind: z.enum(['poll', 'quiz']),
  question: z.string(),
  options: z.array(z.string()),
  /** Answers per option index. */
  results: z.array(NonNegativeInt),
  closed: z.boolean(),
  /** Quiz only (hosts see it while the question is open). */
  correct_answer: NonNegativeInt.nullable(),
  created_at_ms: EpochMs,
});
export type QuestionStats = z.infer<typeof QuestionStats>;

/** Votes of one track. */
export const TrackVotes = z.object({ track_id: Id, name: z.string(), votes: NonNegativeInt });
export type TrackVotes = z.infer<typeof TrackVotes>;

/** A fan who may not chat (for the dashboard's unblock list). */
export const BlockedFan = z.object({ user_id: Id, display_name: z.string() });
export type BlockedFan = z.infer<typeof BlockedFan>;

/**
 * Ours (issue 14): the party's figures for its hosts, aggregated by the server and sent at most
 * once per `STATS_INTERVAL_MS` to dashboard sockets only (never to fans).
 */
export const PartyStatsEvent = z.object({
  type: z.literal('party_stats'),
  server_time_ms: EpochMs,
  /** Distinct fans with an open socket. */
  listeners: NonNegativeInt,
  /**
   * `node`: counted on the server node the dashboard is connected to (fans on other nodes behind
   * a load balancer are not in `listeners`, `joins`, `leaves`); `cluster`: every node.
   */
  listeners_scope: z.enum(['node', 'cluster']),
  /**
   * Ours (issue 47): the same listeners by effective source (what each fan hears, as its app
   * reported with a `source` frame), in the scope of `listeners`. `preview` is how many are on
   * 30 s previews.
   */
  sources: SourceCounts,
  /** Oldest first, at most `STATS_BUCKETS`; the last one is the current bucket. */
  buckets: z.array(StatsBucket),
  /** Chat messages in the last 60 s. */
  messages_last_minute: NonNegativeInt,
  totals: z.object({
    messages: NonNegativeInt,
    joins: NonNegativeInt,
    leaves: NonNegativeInt,
    votes: NonNegativeInt,
    answers: NonNegativeInt,
  }),
  /** Every playable track with its votes, album order. */
  votes: z.array(TrackVotes),
  /** Newest first, at most `STATS_QUESTIONS`. */
  questions: z.array(QuestionStats),
  status: PlayerStatus.nullable(),
  started_at: IsoDateTime.nullable(),
  ends_at: IsoDateTime.nullable(),
  /** Chat messages since the previous `party_stats` (at most `STATS_CHAT_TAIL`, oldest first). */
  chat: z.array(ChatMessage),
  /** Messages since the previous `party_stats` left out of `chat`. */
  chat_skipped: NonNegativeInt,
  /** Messages deleted since the previous `party_stats`. */
  deleted_message_ids: z.array(Id),
  /** At most `STATS_BLOCKED`. */
  blocked: z.array(BlockedFan),
});
export type PartyStatsEvent = z.infer<typeof PartyStatsEvent>;

// ---------------------------------------------------------------------------------------------
// The recap (after the party) and the exports
// ---------------------------------------------------------------------------------------------

/** One play of a track on the party's timeline (pauses included). */
export const RecapPlay = z.object({
  index: NonNegativeInt,
  track_id: Id,
  name: z.string(),
  duration_ms: NonNegativeInt,
  started_at_ms: EpochMs,
  /** When the next track started or the party stopped for good; null while it plays. */
  ended_at_ms: EpochMs.nullable(),
});
export type RecapPlay = z.infer<typeof RecapPlay>;

/**
 * Where an event happened on the party's timeline: the play (index into `plays`), its track and
 * the position in the track. All null for an event before the first track or after the last.
 */
export const TimelineStamp = z.object({
  play: NonNegativeInt.nullable(),
  track_id: Id.nullable(),
  position_ms: NonNegativeInt.nullable(),
});
export type TimelineStamp = z.infer<typeof TimelineStamp>;

/** Chat messages of one stretch of a play. */
export const RecapChatPoint = z.object({
  play: NonNegativeInt,
  /** Start of the stretch in the track (a multiple of `RECAP_CHAT_STEP_MS`). */
  position_ms: NonNegativeInt,
  messages: NonNegativeInt,
});
export type RecapChatPoint = z.infer<typeof RecapChatPoint>;

/** Position stretch over which the recap counts chat messages. */
export const RECAP_CHAT_STEP_MS = 15_000;

/** Votes for `track_id` cast during one play (`play` null: before the first track). */
export const RecapVotes = z.object({ play: NonNegativeInt.nullable(), track_id: Id, name: z.string(), votes: NonNegativeInt });
export type RecapVotes = z.infer<typeof RecapVotes>;

/** A poll or quiz question, where it was asked, and its final results. */
export const RecapQuestion = QuestionStats.extend({ stamp: TimelineStamp });
export type RecapQuestion = z.infer<typeof RecapQuestion>;

/**
 * Listeners by effective source over the party, from each node's samples (every
 * SOURCE_SAMPLE_SECONDS, the highest per source and minute kept; nodes added up per minute).
 */
export const RecapSources = z.object({
  /** The most listeners each source had in any one minute (each source at its own peak). */
  peak: SourceCounts,
  /** The minute with the most listeners over all sources, and its counts; null without samples. */
  busiest: z.object({ minute: IsoDateTime, listeners: NonNegativeInt, counts: SourceCounts }).nullable(),
  /** Minutes with at least one sample (0: no fan connected, or the party predates the samples). */
  sampled_minutes: NonNegativeInt,
});
export type RecapSources = z.infer<typeof RecapSources>;

/** `GET /api/parties/{id}/recap`. */
export const PartyRecapResponse = z.object({
  party_id: Id,
  name: z.string(),
  started_at: IsoDateTime.nullable(),
  ends_at: IsoDateTime.nullable(),
  plays: z.array(RecapPlay),
  chat: z.array(RecapChatPoint),
  /** Every chat message of the party (deleted ones are gone). */
  chat_total: NonNegativeInt,
  /** Chat messages outside every play (waiting room, pauses between tracks excluded). */
  chat_outside_plays: NonNegativeInt,
  votes: z.array(RecapVotes),
  questions: z.array(RecapQuestion),
  /** Listeners by effective source (provider, label stream, previews), stored while the party ran. */
  sources: RecapSources,
});
export type PartyRecapResponse = z.infer<typeof PartyRecapResponse>;

/** The CSV exports of a party. */
export const PARTY_EXPORTS = ['chat', 'answers', 'fans'] as const;
export const PartyExportKind = z.enum(PARTY_EXPORTS);
export type PartyExportKind = z.infer<typeof PartyExportKind>;

/** Header row of each export (the columns, in order). */
export const PARTY_EXPORT_COLUMNS = {
  chat: ['id', 'timestamp', 'seq_id', 'type', 'sender_id', 'sender_name', 'sender_role', 'text', 'sticker', 'photo', 'video', 'reply_to_message_id', 'track_id', 'position_ms'],
  answers: ['kind', 'question_id', 'question', 'asked_at', 'track_id', 'position_ms', 'option_index', 'option', 'answers', 'is_correct'],
  fans: ['user_id', 'display_name', 'real_name', 'email', 'country', 'service', 'signed_up_at', 'can_chat', 'competition_accepted'],
} as const satisfies Record<PartyExportKind, readonly string[]>;
