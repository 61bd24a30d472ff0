/** Tables of the recap (migration 010): the party timeline's history. */
export interface RecapTables {
  party_timeline_segments: TimelineSegmentTable;
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
