/**
 * Fans' data rights (GDPR art. 15 access, art. 17 erasure, art. 20 portability): what a fan or a
 * campaign visitor gets when they ask for their data, and what an erasure reports. One shape for
 * the fan's own call (`GET /api/users/me/data`) and the back office's (`dataRightsExport`).
 * Times are epoch milliseconds as stored; nothing is left out to make the answer prettier.
 */
import { z } from 'zod';

const Ms = z.number().int();
const Text = z.string().nullable();

/** The fan's system-wide record (`fans`). Provider tokens are named by presence, never sent. */
export const FanProfileData = z.object({
  id: z.string(),
  service: Text,
  service_user_id: Text,
  display_name: z.string(),
  email: Text,
  country: Text,
  premium: z.boolean(),
  profile_picture: Text,
  /** Whether we hold the fan's streaming tokens (their values are secrets and stay out). */
  has_service_tokens: z.boolean(),
  created_at: Ms,
  updated_at: Ms,
});

/** One party signup (`party_users`). */
export const PartySignupData = z.object({
  party_id: z.string(),
  party_name: z.string(),
  real_name: z.string(),
  display_name: z.string(),
  email: Text,
  country: Text,
  profile_picture: Text,
  profile_sticker: Text,
  competition_accepted: z.boolean(),
  can_chat: z.boolean(),
  created_at: Ms,
});

/** A grant naming the fan's streaming account, or one the fan redeemed by link. */
export const GrantData = z.object({
  party_id: z.string(),
  role: z.string(),
  display_name: z.string(),
  profile_picture: Text,
  /** `account`: the grant names the fan's streaming account; `link`: the fan redeemed its link. */
  via: z.enum(['account', 'link']),
  created_at: Ms,
});

export const ChatMessageData = z.object({
  id: z.string(),
  party_id: z.string(),
  timestamp_ms: Ms,
  display_name: Text,
  text: Text,
  sticker: Text,
  photo: Text,
  video: Text,
  reply_to_message_id: Text,
});

export const TrackVoteData = z.object({ party_id: z.string(), track_id: z.string(), created_at: Ms });

export const AnswerData = z.object({
  party_id: z.string(),
  question_id: z.string(),
  kind: z.string(),
  question: z.string(),
  answer_id: z.number().int(),
  is_correct: z.boolean(),
  created_at: Ms,
});

export const UploadData = z.object({ party_id: z.string(), url: z.string(), size: z.number().int(), created_at: Ms });

/** A newsletter signup of the address (`cms_newsletter_subscribers`). */
export const NewsletterSubscriptionData = z.object({
  newsletter_id: z.string(),
  campaign_id: z.string(),
  email: z.string(),
  name: Text,
  country: Text,
  locale: z.string(),
  state: z.string(),
  created_at: Ms,
  confirmed_at: Ms.nullable(),
});

/** A consent the address gave, with the exact text shown (`cms_newsletter_consents`). */
export const NewsletterConsentData = z.object({
  newsletter_id: z.string(),
  campaign_id: z.string(),
  email: z.string(),
  accepted: z.boolean(),
  consent_text_version: z.string(),
  consent_text: Text,
  locale: z.string(),
  source_page: z.string(),
  ip: z.string(),
  user_agent: Text,
  created_at: Ms,
  confirmed_at: Ms.nullable(),
  withdrawn_at: Ms.nullable(),
});

/** A campaign-page provider login (`cms_accounts`); tokens named by presence only. */
export const CampaignAccountData = z.object({
  id: z.string(),
  service: z.string(),
  service_user_id: z.string(),
  email: Text,
  has_service_tokens: z.boolean(),
  created_at: Ms,
  updated_at: Ms,
  sessions: z.number().int(),
});

/**
 * A pre-save the visitor asked for (`cms_presaves`), with the exact consent wording shown and what
 * was done with their streaming account at release.
 */
export const PresaveData = z.object({
  campaign_id: z.string(),
  campaign_name: z.string(),
  service: z.string(),
  territory: z.string(),
  save: z.string(),
  follow_artist: z.boolean(),
  state: z.string(),
  consent_text: z.string(),
  consent_text_version: z.string(),
  locale: z.string(),
  source_page: z.string(),
  ip: z.string(),
  user_agent: Text,
  /** The receipt address given with an Apple pre-save (Apple accounts have none). */
  email: Text,
  results: z.array(z.object({ step: z.string(), outcome: z.string(), detail: z.string().nullable() })),
  created_at: Ms,
  done_at: Ms.nullable(),
  receipt_sent_at: Ms.nullable(),
});

/** What campaign pages stored about an e-mail address (newsletter, campaign accounts, pre-saves). */
export const VisitorData = z.object({
  newsletter_subscriptions: z.array(NewsletterSubscriptionData),
  newsletter_consents: z.array(NewsletterConsentData),
  campaign_accounts: z.array(CampaignAccountData),
  /** Pre-saves of the visitor's campaign accounts, or given with one of their addresses. */
  presaves: z.array(PresaveData),
});
export type VisitorData = z.infer<typeof VisitorData>;

/** Everything stored about a party fan, in every party and campaign (`GET /api/users/me/data`). */
export const FanDataExport = z.object({
  exported_at: Ms,
  profile: FanProfileData,
  party_signups: z.array(PartySignupData),
  grants: z.array(GrantData),
  chat_messages: z.array(ChatMessageData),
  track_votes: z.array(TrackVoteData),
  answers: z.array(AnswerData),
  uploads: z.array(UploadData),
  /** Newsletter consents and campaign accounts under the fan's e-mail addresses or streaming account. */
  campaigns: VisitorData,
});
export type FanDataExport = z.infer<typeof FanDataExport>;

/** The back office's look-up by e-mail: every fan with that address, and the campaign visitor. */
export const DataSubjectExport = z.object({
  exported_at: Ms,
  email: z.string(),
  fans: z.array(FanDataExport),
  visitor: VisitorData,
});
export type DataSubjectExport = z.infer<typeof DataSubjectExport>;

/** What an erasure did, by kind. */
export const ErasureReport = z.object({
  erased_at: Ms,
  fans_erased: z.number().int(),
  chat_messages_removed: z.number().int(),
  uploads_deleted: z.number().int(),
  party_signups_removed: z.number().int(),
  /** Consents withdrawn and reduced to the minimal proof (see docs/SECURITY.md). */
  consents_withdrawn: z.number().int(),
  newsletter_subscriptions_removed: z.number().int(),
  campaign_accounts_removed: z.number().int(),
  /** Pre-saves deleted with their consent wording (waiting ones are never performed). */
  presaves_removed: z.number().int(),
});
export type ErasureReport = z.infer<typeof ErasureReport>;

/** The back office names a data subject by e-mail, in the body: addresses stay out of URLs and access logs. */
export const DataSubjectBody = z.object({ email: z.string().trim().min(3).max(320).email() });
export type DataSubjectBody = z.infer<typeof DataSubjectBody>;

/** One line of `data_rights_audit`. */
export const DataRightsAuditEntry = z.object({
  id: z.string(),
  action: z.enum(['export', 'erase']),
  /** `fan`: the fan themself; `cms`: a back-office user. */
  actor_kind: z.enum(['fan', 'cms']),
  actor_id: z.string(),
  /** Keyed hash of the subject's e-mail (or fan id for self-service): lets an auditor match a request, not read an address. */
  subject_hash: z.string(),
  summary: z.string(),
  created_at: Ms,
});
export const DataRightsAuditResponse = z.object({ items: z.array(DataRightsAuditEntry) });
