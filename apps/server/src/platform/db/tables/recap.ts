/** Tables of the recap (migration 010): the party timeline's history. */
export interface RecapTables {
  party_timeline_segments: TimelineSegmentTable;
  party_replays: PartyReplayTable;
  party_replay_documents: PartyReplayDocumentTable;
  party_replay_hidden: PartyReplayHiddenTable;
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
