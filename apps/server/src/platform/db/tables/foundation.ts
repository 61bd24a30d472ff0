/** Tables of migration 001: fans, tokens, parties, signups, grants. */
export interface FoundationTables {
  fans: FanTable;
  access_tokens: AccessTokenTable;
  parties: PartyTable;
  party_users: PartyUserTable;
  grants: GrantTable;
  grant_redemptions: GrantRedemptionTable;
  party_uploads: PartyUploadTable;
}

/** A file a fan uploaded to a party (migration 007): quotas and the sweep of unused files. */
export interface PartyUploadTable {
  storage_key: string;
  party_id: string;
  fan_id: string;
  size: number;
  created_at: number;
}

/** A fan: a streaming account (service + service user id), or an anonymous signup. */
export interface FanTable {
  id: string;
  service: string | null;
  service_user_id: string | null;
  display_name: string;
  email: string | null;
  country: string | null;
  premium: number;
  profile_picture: string | null;
  service_access_token: string | null;
  service_refresh_token: string | null;
  service_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A fan's bearer token for the party API; only the SHA-256 of the token is stored. */
export interface AccessTokenTable {
  token_hash: string;
  fan_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface PartyTable {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  starts_at: number;
  ends_at: number | null;
  voting_enabled: number;
  auto_start: number;
  wp_post_id: string | null;
  login_required: number;
  /** JSON FrontendSettings */
  frontend: string;
  /** JSON FollowEntry[] */
  follow: string;
  /** JSON MusicOptions, or null before tracks are loaded */
  music: string | null;
}

/** A fan's signup for one party. */
export interface PartyUserTable {
  party_id: string;
  fan_id: string;
  real_name: string;
  display_name: string;
  email: string | null;
  country: string | null;
  profile_picture: string | null;
  profile_sticker: string | null;
  competition_accepted: number;
  can_chat: number;
  created_at: number;
}

/** A host/admin role for a party, given to a streaming account or to whoever redeems its token. */
export interface GrantTable {
  id: string;
  party_id: string;
  service: string | null;
  service_id: string | null;
  /** SHA-256 of the grant token; the token itself is shown once, at creation. */
  token_hash: string | null;
  role: string;
  display_name: string;
  profile_picture: string | null;
  created_at: number;
  /** Grant links: how many fans may redeem it (null: no limit, account grants and old links). */
  max_uses: number | null;
  /** Grant links: fans who redeemed it so far. */
  uses: number;
  /** Grant links: when it stops working, ms since the epoch (null: never). */
  expires_at: number | null;
}

export interface GrantRedemptionTable {
  grant_id: string;
  fan_id: string;
  created_at: number;
}
