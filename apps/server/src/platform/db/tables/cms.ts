/** Tables of the cms domain (migration 004_cms): back-office users, apps, campaigns, uploads,
 * newsletter double opt-in, campaign accounts and the token gate. */
export interface CmsTables {
  cms_users: CmsUserTable;
  cms_sessions: CmsSessionTable;
  cms_password_resets: CmsPasswordResetTable;
  cms_apps: CmsAppTable;
  cms_campaigns: CmsCampaignTable;
  cms_upload_folders: CmsUploadFolderTable;
  cms_uploads: CmsUploadTable;
  cms_newsletter_subscribers: CmsNewsletterSubscriberTable;
  cms_newsletter_consents: CmsNewsletterConsentTable;
  cms_newsletter_confirmations: CmsNewsletterConfirmationTable;
  cms_accounts: CmsAccountTable;
  cms_account_sessions: CmsAccountSessionTable;
  cms_account_refresh_tokens: CmsAccountRefreshTokenTable;
  cms_token_gate_codes: CmsTokenGateCodeTable;
  cms_token_gate_keys: CmsTokenGateKeyTable;
  cms_versions: CmsVersionTable;
  cms_audit_log: CmsAuditLogTable;
}

export interface CmsUserTable {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  /** scrypt$N$r$p$salt$hash, or null until the user sets a password. */
  password_hash: string | null;
  /** JSON CmsRole[] */
  roles: string;
  state: string;
  created_at: number;
  updated_at: number;
  /** 1 until the user has set up their own account (the first admin with a generated password). */
  must_change_password: number;
}

/** A back-office user's bearer token; only its SHA-256 is stored. */
export interface CmsSessionTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface CmsPasswordResetTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface CmsAppTable {
  id: string;
  name: string;
  title: string;
  /** JSON AppConfig */
  config: string;
  created_at: number;
  updated_at: number;
  config_reloaded_at: number | null;
}

export interface CmsCampaignTable {
  id: string;
  app_id: string;
  name: string;
  slug: string;
  starts_at: number | null;
  ends_at: number | null;
  parent_id: string | null;
  /** JSON of the remaining campaign fields (meta_tags, newsletters, token_gate, i18n, data, ...). */
  doc: string;
  lock_user_id: string | null;
  lock_at: number | null;
  lock_expires_at: number | null;
  created_at: number;
  updated_at: number;
  /** JSON {name, slug, starts_at, ends_at, doc} of the published version (016_editorial); null while unpublished. */
  published_doc: string | null;
  published_version: number | null;
  published_at: number | null;
  published_by: string | null;
  /** The draft's version number; every saved change adds one (`cms_versions`). */
  version: number;
  publish_at: number | null;
  unpublish_at: number | null;
  schedule_time_zone: string | null;
  /** JSON list of the locales a scheduled publish publishes; null: every locale. */
  publish_locales: string | null;
  /** E-mail of who scheduled, named in the audit entry of the scheduled publish. */
  scheduled_by: string | null;
}

/** A saved version of a campaign's draft or a party's settings (016_editorial). */
export interface CmsVersionTable {
  entity_type: string;
  entity_id: string;
  version: number;
  action: string;
  /** JSON of the entity as saved. */
  snapshot: string;
  actor_id: string | null;
  actor: string;
  created_at: number;
}

/** One back-office write (016_editorial). */
export interface CmsAuditLogTable {
  id: string;
  created_at: number;
  actor_id: string | null;
  actor: string;
  action: string;
  method: string;
  path: string;
  entity_type: string;
  entity_id: string | null;
  before: string | null;
  after: string | null;
}

export interface CmsUploadFolderTable {
  /** `/a/b` (the root `/` is implicit). */
  path: string;
  parent: string;
  created_at: number;
}

export interface CmsUploadTable {
  id: string;
  folder: string;
  name: string;
  storage_key: string;
  mime: string;
  size: number;
  /** What the image shows, for people who cannot see it ('' until an editor writes it). */
  alt: string;
  /** Pixels, read from the image header at upload; null for files uploaded before that. */
  width: number | null;
  height: number | null;
  created_by: string | null;
  created_at: number;
}

/** One subscriber per (newsletter, e-mail); repeat signups update it. */
export interface CmsNewsletterSubscriberTable {
  id: string;
  newsletter_id: string;
  email: string;
  campaign_id: string;
  locale: string;
  address_book_id: string;
  form_id: string;
  /** Name and country the fan gave with the signup (optional; the party page sends them). */
  name: string | null;
  country: string | null;
  /** pending | confirmed */
  state: string;
  created_at: number;
  updated_at: number;
  confirmed_at: number | null;
}

/** The consent record: which newsletter, which text version and locale, when, from where. */
export interface CmsNewsletterConsentTable {
  id: string;
  subscriber_id: string;
  newsletter_id: string;
  campaign_id: string;
  email: string;
  /** The signup mode in force (implicit, required, optional). */
  signup_mode: string;
  accepted: number;
  consent_text_version: string;
  /** The exact consent text shown to the fan (null on consents recorded before it was stored). */
  consent_text: string | null;
  /** When the consent was withdrawn (erasure); the row then keeps only the minimal proof. */
  withdrawn_at: number | null;
  locale: string;
  source_page: string;
  ip: string;
  user_agent: string | null;
  created_at: number;
  /** Set when the e-mail address was confirmed through this signup's link. */
  confirmed_at: number | null;
  confirmation_id: string;
}

/** A pending double opt-in: the confirmation link's token (hashed) and where to send the fan. */
export interface CmsNewsletterConfirmationTable {
  id: string;
  token_hash: string;
  campaign_id: string;
  email: string;
  /** JSON string[] */
  newsletter_ids: string;
  locale: string;
  redirect_url: string;
  error_redirect_url: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  /** JSON `FunnelContext` plus `territory` of the signup's visit (migration 020), for its `confirmed` funnel event. */
  funnel_context?: string | null;
}

/** A fan's streaming account as seen by campaign pages (separate from party fans). */
export interface CmsAccountTable {
  id: string;
  service: string;
  service_user_id: string;
  email: string | null;
  service_access_token: string | null;
  service_refresh_token: string | null;
  service_expires_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface CmsAccountSessionTable {
  id: string;
  account_id: string;
  campaign_id: string;
  access_token_hash: string;
  access_expires_at: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Every refresh token a session has had; a used one presented again revokes the session. */
export interface CmsAccountRefreshTokenTable {
  token_hash: string;
  session_id: string;
  created_at: number;
  used_at: number | null;
}

export interface CmsTokenGateCodeTable {
  id: string;
  product_id: string;
  /** SHA-256 of the normalised code. */
  code_hash: string;
  max_uses: number;
  uses: number;
  created_at: number;
}

export interface CmsTokenGateKeyTable {
  id: string;
  key_hash: string;
  campaign_id: string;
  product_id: string;
  code_id: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}
