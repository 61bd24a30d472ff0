/** Tables of the shared limits (migration 014_harden_limits). */
export interface LimitTables {
  rate_counters: RateCounterTable;
  chat_deleted_posts: ChatDeletedPostTable;
  idempotency_keys: IdempotencyKeyTable;
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

/** The first answer of a creating call, by the caller's `Idempotency-Key` (migration 022). */
export interface IdempotencyKeyTable {
  /** SHA-256 of the caller's subject and the key. */
  key_hash: string;
  /** SHA-256 of the call (entry, URL) and its JSON body: a key reused for another request is refused. */
  fingerprint: string;
  /** `pending` (first attempt running), `stored` (one of its writes committed), `done` (answer kept). */
  state: 'pending' | 'stored' | 'done';
  status: number | null;
  body: string | null;
  content_type: string | null;
  created_at: number;
  expires_at: number;
}
