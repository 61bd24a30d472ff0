import type { Generated } from 'kysely';

/** Tables of the recap (migration 010): the party timeline's history. */
export interface RecapTables {
  party_timeline_segments: TimelineSegmentTable;
  party_replays: PartyReplayTable;
  party_replay_documents: PartyReplayDocumentTable;
  party_replay_hidden: PartyReplayHiddenTable;
  party_vote_log: PartyVoteLogTable;
  party_source_peaks: PartySourcePeakTable;
}

/** The replay of an ended party (migration 021): its current build and whether it must be rebuilt. */
export interface PartyReplayTable {
  party_id: string;
  /** Raised by every write that changes what the replay may show. */
  wanted_rev: number;
  /** The `wanted_rev` the current build was made from; behind means a rebuild is due. */
  built_rev: number;
  /** The current build (0: none yet); its documents are immutable. */
  build: number;
  built_at: number | null;
  /** A node building it holds it until then (a crashed build is taken over afterwards). */
  claimed_until: number | null;
  /** JSON of the current build's manifest. */
  manifest: string | null;
}

/** One play's replay document of one build, stored as served. */
export interface PartyReplayDocumentTable {
  party_id: string;
  build: number;
  play: number;
  body: string;
  /** `body` gzip-compressed at build time (migration 027; null in builds made before it). */
  body_gzip: Buffer | null;
  /** `body` brotli-compressed at build time (migration 027; null in builds made before it). */
  body_br: Buffer | null;
}

/** Every change of a track vote, in order (migration 027): +1 cast, -1 withdrawn. No fan is named. */
export interface PartyVoteLogTable {
  seq: Generated<number>;
  party_id: string;
  track_id: string;
  delta: number;
  at_ms: number;
}

/** One node's highest listeners by effective source in one minute of a party (migration 027). */
export interface PartySourcePeakTable {
  party_id: string;
  node: string;
  minute_ms: number;
  provider: number;
  label_stream: number;
  preview: number;
  none: number;
  unknown: number;
}

/** An item a host hid from the replay. */
export interface PartyReplayHiddenTable {
  party_id: string;
  item_id: string;
  hidden_at: number;
}

/** The timeline as one compare-and-set left it (`version` of `party_playback`). */
export interface TimelineSegmentTable {
  party_id: string;
  version: number;
  track_id: string | null;
  /** Position in the track at `timestamp_ms`. */
  progress_ms: number;
  /** Server time from which this segment holds. */
  timestamp_ms: number;
  is_paused: number;
}
