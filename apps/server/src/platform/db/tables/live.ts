import type { Generated } from "kysely";
/** Tables of the live domain (migration 002): the party's tracks, votes and playback timeline. */
export interface LiveTables {
  party_tracks: PartyTrackTable;
  track_votes: TrackVoteTable;
  party_playback: PartyPlaybackTable;
  party_seq_blocks: PartySeqBlockTable;
}

/** The highest `seq_id` handed out to a party's hub (migration 005): numbering resumes above it. */
export interface PartySeqBlockTable {
  party_id: string;
  reserved_through: number;
}

/** One track of a party's album or playlist, as loaded through the provider adapter. */
export interface PartyTrackTable {
  party_id: string;
  track_id: string;
  /** Zero-based album or playlist order (breaks vote ties). */
  position: number;
  name: string;
  /** JSON string[] of artist names. */
  artists: string;
  album: string;
  duration_ms: number;
  image: string | null;
  service: string;
  hls_url: string | null;
  /** 1 when the party leaves the track out. */
  excluded: number;
  /** 1 once the track has started playing in this party. */
  played: number;
  /** Rows of `track_votes` for this track, kept in the vote's transaction (migration 011). */
  votes: Generated<number>;
}

/** One fan's vote for one track: the primary key makes a vote count once. */
export interface TrackVoteTable {
  party_id: string;
  track_id: string;
  fan_id: string;
  created_at: number;
}

/**
 * The party's timeline, owned by the server. `version` is bumped by every change: a change is a
 * conditional update on the version read, so two nodes never both advance the same track.
 */
export interface PartyPlaybackTable {
  party_id: string;
  /** Current track; null before the first start. */
  track_id: string | null;
  /** Position in the track at `timestamp_ms`. */
  progress_ms: number;
  /** Server time at which `progress_ms` held. */
  timestamp_ms: number;
  is_paused: number;
  /** Server time at which the current track ends while playing; null while paused. */
  track_ends_at: number | null;
  /** Track forced to play next (a poll with set_next_track); null lets votes decide. */
  next_track_id: string | null;
  version: number;
}
