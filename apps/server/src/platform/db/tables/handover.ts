/** Tables of the in-app browser handover (migration 023_handover). */
export interface HandoverTables {
  cms_handovers: CmsHandoverTable;
}

/**
 * A campaign visit handed over from an in-app browser to the system browser: single use, a few
 * minutes long, the token kept only as its hash. `state` is the JSON of a `HandoverState`
 * (bounded by the protocol schema before it is stored).
 */
export interface CmsHandoverTable {
  id: string;
  token_hash: string;
  campaign_id: string;
  state: string;
  created_at: number;
  expires_at: number;
}
