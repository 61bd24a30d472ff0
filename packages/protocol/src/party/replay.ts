/**
 * Party Replay: a party after its end, played again on the album's own timeline. The server builds
 * one immutable document per play of a track (`ReplayTrackDocument`) and a small manifest that
 * names them (`ReplayManifest`); `docs/PROTOCOL.md` describes both.
 */
import { z } from 'zod';
import { EpochMs, Id, IsoDateTime, NonNegativeInt } from '../common.ts';
import { PartyIdParam } from './calls.ts';
import { PartyId, Role, Track } from './entities.ts';

/** Version of the replay document format; a client refuses a manifest of another major. */
export const REPLAY_FORMAT = 1;

/** Kinds of item on the replay timeline. */
export const REPLAY_ITEM_KINDS = ['message', 'poll', 'quiz', 'popup', 'votes'] as const;
export type ReplayItemKind = (typeof REPLAY_ITEM_KINDS)[number];

/** Fields every item has: where it happened on the timeline, and when. */
const placed = {
  /** Stable id across builds: the message, poll or question id, or `votes:<at_ms>` for a vote swing. */
  id: Id,
  /** Position in the play's track (ms from the track's start) at which the item appeared. */
  position_ms: NonNegativeInt,
  /** Server time at which it happened during the party. */
  at_ms: EpochMs,
  /**
   * True for the waiting room's items: they happened before the first track began and stand at
   * position 0 of the first play (a "before the party" section). Absent on every other item.
   */
  before_start: z.literal(true).optional(),
};

/** The author of a chat message, as they were when they posted it. */
export const ReplaySender = z.object({
  id: Id,
  role: Role,
  display_name: z.string(),
  profile_picture: z.string().nullable(),
});
export type ReplaySender = z.infer<typeof ReplaySender>;

export const ReplayMessageItem = z.object({
  ...placed,
  kind: z.literal('message'),
  sender: ReplaySender,
  text: z.string().nullable(),
  sticker: z.string().nullable(),
  photo: z.string().nullable(),
  video: z.string().nullable(),
  reply_to_message_id: Id.nullable(),
});

/** One option of a poll or quiz question with its final count. */
export const ReplayOptionResult = z.object({ text: z.string(), votes: NonNegativeInt });

export const ReplayPollItem = z.object({
  ...placed,
  kind: z.literal('poll'),
  question: z.string(),
  /** Options with their final counts (the result when the poll closed). */
  options: z.array(ReplayOptionResult),
  total: NonNegativeInt,
  duration_seconds: NonNegativeInt,
});

export const ReplayQuizItem = z.object({
  ...placed,
  kind: z.literal('quiz'),
  question: z.string(),
  options: z.array(ReplayOptionResult),
  /** Index of the correct option. */
  correct_answer: NonNegativeInt,
  total: NonNegativeInt,
  duration_seconds: NonNegativeInt,
});

export const ReplayPopupItem = z.object({
  ...placed,
  kind: z.literal('popup'),
  message: z.string(),
});

/** One track's standing in the vote at a swing. */
export const ReplayStanding = z.object({ track_id: Id, name: z.string(), votes: NonNegativeInt });
export type ReplayStanding = z.infer<typeof ReplayStanding>;

/** What handed the lead over: a vote cast, or a vote withdrawn. */
export const REPLAY_SWING_CAUSES = ['vote', 'withdrawal'] as const;
export const ReplaySwingCause = z.enum(REPLAY_SWING_CAUSES);
export type ReplaySwingCause = z.infer<typeof ReplaySwingCause>;

/** A vote swing: the lead of the track vote changed hands (the standing right after, top three). */
export const ReplayVotesItem = z.object({
  ...placed,
  kind: z.literal('votes'),
  /** What caused the swing (absent in builds made before withdrawals were kept: a vote). */
  cause: ReplaySwingCause.optional(),
  leader: ReplayStanding,
  standings: z.array(ReplayStanding),
});

export const ReplayItem = z.discriminatedUnion('kind', [ReplayMessageItem, ReplayPollItem, ReplayQuizItem, ReplayPopupItem, ReplayVotesItem]);
export type ReplayItem = z.infer<typeof ReplayItem>;

/** The precomputed, immutable document of one play: its items in timeline order. */
export const ReplayTrackDocument = z.object({
  format: z.literal(REPLAY_FORMAT),
  party_id: PartyId,
  build: NonNegativeInt,
  /** Index of the play in the manifest. */
  play: NonNegativeInt,
  track_id: Id,
  /**
   * Items left out because the document would have exceeded the server's size cap
   * (REPLAY_DOCUMENT_MAX_BYTES): chat first, then vote swings, popups, polls and quiz questions,
   * oldest first. 0 (or absent, in older builds) when the document is complete.
   */
  dropped_items: NonNegativeInt.optional(),
  /** Ordered by `position_ms`, then `at_ms`. */
  items: z.array(ReplayItem),
});
export type ReplayTrackDocument = z.infer<typeof ReplayTrackDocument>;

/** One play of the replay: the track, when it ran, and where its document is. */
export const ReplayPlay = z.object({
  index: NonNegativeInt,
  track: Track,
  /** How long the track played in the party (it may have ended early); the replay plays this long. */
  played_ms: NonNegativeInt,
  started_at_ms: EpochMs,
  item_count: NonNegativeInt,
  /** Items its document left out to stay within the size cap (see `ReplayTrackDocument`). */
  dropped_items: NonNegativeInt.optional(),
  /** Path of its document on the party API (`getPartyReplayTrack`), immutable per build. */
  document: z.string(),
});
export type ReplayPlay = z.infer<typeof ReplayPlay>;

/** `GET /api/parties/{id}/replay`: the current build of the replay. */
export const ReplayManifest = z.object({
  format: z.literal(REPLAY_FORMAT),
  party_id: PartyId,
  name: z.string(),
  build: NonNegativeInt,
  built_at: IsoDateTime,
  ends_at: IsoDateTime,
  plays: z.array(ReplayPlay),
});
export type ReplayManifest = z.infer<typeof ReplayManifest>;

/** `/api/parties/{id}/replay/{build}/{play}`. */
export const ReplayTrackParams = PartyIdParam.extend({ build: z.coerce.number().int().min(1).max(2_000_000_000), play: z.coerce.number().int().min(0).max(10_000) });
export type ReplayTrackParams = z.infer<typeof ReplayTrackParams>;

/** `/api/parties/{id}/replay/hidden/{itemId}`. */
export const ReplayItemParams = PartyIdParam.extend({ itemId: Id });
export type ReplayItemParams = z.infer<typeof ReplayItemParams>;

/** Ids of the items the hosts hid from the replay. */
export const ReplayHiddenResponse = z.object({ item_ids: z.array(Id), rebuild_pending: z.boolean() });
export type ReplayHiddenResponse = z.infer<typeof ReplayHiddenResponse>;

/** The hash route of the party app that plays the replay (shareable). */
export const REPLAY_APP_ROUTE = '/replay';
