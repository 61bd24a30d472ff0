/** Fans' data rights (migration 015): one line per export or erasure, holding no address. */
export interface DataRightsTables {
  data_rights_audit: DataRightsAuditTable;
}

export interface DataRightsAuditTable {
  id: string;
  /** `export` or `erase`. */
  action: string;
  /** `fan` (self-service) or `cms` (a back-office user). */
  actor_kind: string;
  actor_id: string;
  /** Keyed hash of the subject's e-mail, or of the fan id for self-service. */
  subject_hash: string;
  /** What was found or erased, counts only. */
  summary: string;
  created_at: number;
}
