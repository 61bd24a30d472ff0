/** Tables of the shared limits (migration 014_harden_limits). */
export interface LimitTables {
  rate_counters: RateCounterTable;
  chat_deleted_posts: ChatDeletedPostTable;
}

/** Requests counted under one limit key in one fixed window. */
export interface RateCounterTable {
  key: string;
  /** Start of the window (ms since epoch, a multiple of the window's length). */
  window_start: number;
  count: number;
}

/** A fan's deleted chat message, kept only for its rate-limit window (deleting refunds nothing). */
export interface ChatDeletedPostTable {
  party_id: string;
  sender_id: string;
  /** The deleted message's own `timestamp_ms`. */
  timestamp_ms: number;
}
