/** Tables of pre-saves and the release clock per territory (migration 019_presave). */
export interface PresaveTables {
  cms_release_territories: CmsReleaseTerritoryTable;
  cms_presaves: CmsPresaveTable;
}

export interface CmsReleaseTerritoryTable {
  campaign_id: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  time_zone: string | null;
  release_at: number;
  /** pending | released | unavailable */
  state: string;
  /** JSON list of the services that carry the release there (after a check). */
  services: string;
  checked_at: number | null;
  /** When a node should look next (null once released). */
  next_check_at: number | null;
  /** What the release time was computed from (the clock's JSON and zone): a change re-plans it. */
  source: string;
  updated_at: number;
}

export interface CmsPresaveTable {
  id: string;
  campaign_id: string;
  account_id: string;
  service: string;
  territory: string;
  /** album | tracks */
  save_target: string;
  follow_artist: number;
  /** pending | done | failed | cancelled */
  state: string;
  consent_text: string;
  consent_text_version: string;
  locale: string;
  source_page: string;
  ip: string;
  user_agent: string | null;
  email: string | null;
  attempts: number;
  next_attempt_at: number | null;
  claim_token: string | null;
  /** JSON list of PresaveStepResult. */
  results: string;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  done_at: number | null;
  receipt_next_at: number | null;
  receipt_sent_at: number | null;
}
