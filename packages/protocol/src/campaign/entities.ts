/**
 * Entities of spec `campaign-pages.md` section 3 as the CMS API sends them.
 */
import { z } from 'zod';
import { Id, IsoDateTime } from '../common.ts';
import { CampaignPage } from './page.ts';
import { CampaignAbTest } from './funnel.ts';
import { ReleaseSettings } from './presave.ts';
import {
  CAMPAIGN_SERVICES,
  CMS_ROLES,
  CMS_USER_STATES,
  NEWSLETTER_SIGNUP_MODES,
  PLURAL_FORM_PATTERN,
  REPEAT_MODES,
} from './constants.ts';

export const CmsRole = z.enum(CMS_ROLES);
export const CmsUserState = z.enum(CMS_USER_STATES);
export const CampaignService = z.enum(CAMPAIGN_SERVICES);
export const NewsletterSignupMode = z.enum(NEWSLETTER_SIGNUP_MODES);
export type CmsRole = z.infer<typeof CmsRole>;
export type CmsUserState = z.infer<typeof CmsUserState>;
export type CampaignService = z.infer<typeof CampaignService>;
export type NewsletterSignupMode = z.infer<typeof NewsletterSignupMode>;

/** A URL-safe name: lower-case letters, digits and single dashes (campaign slugs, app names). */
export const Slug = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Expected lower-case letters, digits and single dashes');
export type Slug = z.infer<typeof Slug>;

/** An absolute http(s) URL. */
export const HttpUrl = z
  .string()
  .max(2000)
  .refine((v) => /^https?:\/\/[^\s/]+\S*$/i.test(v), { message: 'Expected an absolute http(s) URL' });
export type HttpUrl = z.infer<typeof HttpUrl>;

/** A locale code such as `de`, `en` or `pt-BR`. */
export const LocaleCode = z.string().max(35).regex(/^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/, 'Expected a locale code such as de or en-GB');
export type LocaleCode = z.infer<typeof LocaleCode>;

/** A numeric plural rule such as `nplurals=2; plural=(n != 1);` (spec 5). */
export const PluralForm = z
  .string()
  .max(200)
  .regex(PLURAL_FORM_PATTERN, 'Expected a numeric plural rule such as nplurals=2; plural=(n != 1);');

// ---------------------------------------------------------------------------------------------
// Back-office users and apps
// ---------------------------------------------------------------------------------------------

/** A back-office user (spec 3 "User admin"); never carries the password hash. */
export const CmsUser = z.object({
  id: Id,
  email: z.email(),
  name: z.string(),
  roles: z.array(CmsRole),
  state: CmsUserState,
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  /** The user must set up their account (name, e-mail, own password) before anything else. */
  must_change_password: z.boolean(),
});
export type CmsUser = z.infer<typeof CmsUser>;

/** A locale of an app or campaign (spec 3). */
export const Locale = z.object({ code: LocaleCode, pluralForm: PluralForm });
export type Locale = z.infer<typeof Locale>;

/** Messages of one locale (spec 3 "Translations list"). */
export const Translation = z.object({
  locale: LocaleCode,
  messages: z.record(z.string().min(1).max(200), z.string().max(10_000)),
});
export type Translation = z.infer<typeof Translation>;

/** Translations of an app or campaign as stored: locales, a default locale and the messages. */
export const I18nSettings = z.object({
  default_locale: LocaleCode.optional(),
  locales: z.array(Locale).max(100).optional(),
  translations: z.array(Translation).max(100).default([]),
});
export type I18nSettings = z.infer<typeof I18nSettings>;

/**
 * An app's configuration. Known keys are checked; others are kept as they are (an app's own
 * settings). Replaced from `DATA_DIR/apps/<name>.json` by `POST /api/apps/{id}/config/reload`.
 */
export const AppConfig = z.looseObject({
  i18n: I18nSettings.optional(),
  /**
   * The label's name as fans see it in e-mails and on the confirmation page (e.g. "Harbour
   * Records"); without it the server's `LABEL_NAME`, then the app's title.
   */
  label_name: z.string().trim().min(1).max(100).optional(),
});
export type AppConfig = z.infer<typeof AppConfig>;

/** An app: a family of campaign pages (e.g. newsletter pages, fan engagement pages). */
export const CmsApp = z.object({
  id: Id,
  name: Slug,
  title: z.string(),
  config: AppConfig,
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  config_reloaded_at: IsoDateTime.nullable(),
});
export type CmsApp = z.infer<typeof CmsApp>;

// ---------------------------------------------------------------------------------------------
// Campaigns
// ---------------------------------------------------------------------------------------------

/** One locale of a newsletter: the mailing system's address book and form ids. */
export const NewsletterLocale = z.object({
  addressbook_id: z.string().min(1).max(200),
  form_id: z.string().min(1).max(200),
  /** The consent text shown for this newsletter in this locale; its version is recorded with each consent. */
  consent_text: z.string().max(5000).optional(),
});
export type NewsletterLocale = z.infer<typeof NewsletterLocale>;

/** A newsletter a campaign offers (spec 3 "Newsletter entry"). */
export const NewsletterEntry = z.object({
  id: z.string().min(1).max(100),
  enabled: z.boolean(),
  signup_mode: NewsletterSignupMode,
  /** Keyed by locale code. */
  locales: z.record(LocaleCode, NewsletterLocale),
});
export type NewsletterEntry = z.infer<typeof NewsletterEntry>;

/** Tag manager values of a campaign (spec 3). */
export const TagManager = z.object({
  artist: z.string().max(200).nullable().optional(),
  genre: z.string().max(200).nullable().optional(),
  division: z.string().max(200).nullable().optional(),
  party_id: z.string().max(200).nullable().optional(),
});
export type TagManager = z.infer<typeof TagManager>;

/** Token gate settings of a campaign (spec 3). */
export const TokenGateSettings = z.object({
  enabled: z.boolean(),
  product_id: z.string().min(1).max(200).nullable(),
});
export type TokenGateSettings = z.infer<typeof TokenGateSettings>;

/** Free-form campaign data; `participating_countries` is known (spec 3). */
export const CampaignData = z.looseObject({
  participating_countries: z.array(z.string().regex(/^[A-Za-z]{2}$/)).optional(),
  /** What the campaign page shows: look, modules, legal links (`page.ts`). */
  page: CampaignPage.optional(),
  /** An A/B test of the page: variant B's overrides (`funnel.ts`). */
  ab_test: CampaignAbTest.optional(),
  /** When the release comes out per territory, and what a pre-save does then (`presave.ts`). */
  release: ReleaseSettings.optional(),
});
export type CampaignData = z.infer<typeof CampaignData>;

/** Who holds a campaign's edit lock, and until when. */
export const CampaignLock = z.object({
  user_id: Id,
  user_email: z.string(),
  locked_at: IsoDateTime,
  expires_at: IsoDateTime,
});
export type CampaignLock = z.infer<typeof CampaignLock>;

/**
 * Where a campaign stands: `draft` (never published, nothing scheduled), `scheduled` (not public,
 * a publish is scheduled), `published` (the public page shows the draft as it is), `changed`
 * (public, with edits not published yet).
 */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'published', 'changed'] as const;
export const CampaignStatus = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof CampaignStatus>;

/** The workflow fields added to every campaign answer. */
export const CampaignWorkflow = z.object({
  status: CampaignStatus,
  /** The draft's version number (every saved change makes a new one). */
  version: z.number().int().nonnegative(),
  /** The version the public page shows; null while nothing is published. */
  published_version: z.number().int().nonnegative().nullable(),
  published_at: IsoDateTime.nullable(),
  /** E-mail of who published last (or `scheduler` for a scheduled publish). */
  published_by: z.string().nullable(),
  scheduled_publish_at: IsoDateTime.nullable(),
  scheduled_unpublish_at: IsoDateTime.nullable(),
  /** The IANA time zone the schedule was given in (for showing it as it was entered). */
  schedule_time_zone: z.string().nullable(),
  /** The locales the scheduled publish publishes (the others keep their published texts); null: every locale. */
  scheduled_publish_locales: z.array(z.string()).nullable().optional(),
});
export type CampaignWorkflow = z.infer<typeof CampaignWorkflow>;

/** A campaign (spec 3). `url` is where the CMS serves its page; `lock` is the current edit lock. */
export const Campaign = z.object({
  id: Id,
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  /** The app's name. */
  app: z.string(),
  app_id: Id,
  name: z.string(),
  slug: Slug,
  meta_tags: z.record(z.string(), z.string()),
  tag_manager: TagManager,
  test: z.boolean(),
  wp_url: z.string().nullable(),
  /** Legacy single newsletter. */
  newsletter: NewsletterEntry.nullable(),
  newsletters: z.array(NewsletterEntry),
  enabled_services: z.array(CampaignService),
  starts_at: IsoDateTime.nullable(),
  ends_at: IsoDateTime.nullable(),
  i18n: I18nSettings.nullable(),
  url: z.string(),
  token_gate: TokenGateSettings,
  token_gated_campaign_url: z.string().nullable(),
  token_gate_url: z.string().nullable(),
  is_token_gate: z.boolean(),
  parent_id: Id.nullable(),
  data: CampaignData,
  lock: CampaignLock.nullable(),
  // The editorial workflow (added to the spec's fields, none of them changed).
  ...CampaignWorkflow.shape,
});
export type Campaign = z.infer<typeof Campaign>;

// ---------------------------------------------------------------------------------------------
// Fan-facing
// ---------------------------------------------------------------------------------------------

/** The request's country and language (spec 3 "User geo"). */
export const UserGeo = z.object({
  /** ISO 3166-1 alpha-2, upper case, e.g. `DE`. */
  country_code: z.string().regex(/^[A-Z]{2}$/),
  /** ISO 639-1, lower case, e.g. `de`. */
  language_code: z.string().regex(/^[a-z]{2,3}$/),
});
export type UserGeo = z.infer<typeof UserGeo>;

/** A campaign account's tokens (spec 3 "Account token info"). */
export const AccountTokenInfo = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  /** The provider's token for in-page playback (Spotify access token, Apple music user token). */
  service_token: z.string().min(1),
  /** When `service_token` expires, ms since the epoch. */
  service_expires_at: z.number(),
  service: CampaignService,
  account_id: Id,
});
export type AccountTokenInfo = z.infer<typeof AccountTokenInfo>;

/** A campaign account as `GET /api/accounts/me` answers (spec 3 "Account"). */
export const CampaignAccount = z.object({
  id: Id,
  service: CampaignService,
  email: z.string().nullable(),
});
export type CampaignAccount = z.infer<typeof CampaignAccount>;

/** Result of the token gate calls (spec 3). */
export const TokenGateResult = z.object({
  has_access: z.boolean(),
  access_key: z.string().nullable(),
});
export type TokenGateResult = z.infer<typeof TokenGateResult>;

/** An uploaded file of the media library (spec 3 "Upload": file, folder). */
export const CmsUpload = z.object({
  id: Id,
  /** URL of the file. */
  file: z.string(),
  /** Folder path, `/` or `/a/b`. */
  folder: z.string(),
  name: z.string(),
  mime: z.string(),
  /** Bytes. */
  size: z.number().int().nonnegative(),
  /** What the image shows, used as its alt text on the campaign page ('' when not written yet). */
  alt: z.string(),
  /** Pixels; null for files uploaded before sizes were recorded. */
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
  created_at: IsoDateTime,
});
export type CmsUpload = z.infer<typeof CmsUpload>;

/** Longest alt text of a media item. */
export const MEDIA_ALT_MAX_LENGTH = 500;

/** Body of `PUT /api/uploads/{id}/alt`: the media item's alt text. */
export const PatchUploadBody = z.strictObject({
  alt: z.string().trim().max(MEDIA_ALT_MAX_LENGTH),
});
export type PatchUploadBody = z.infer<typeof PatchUploadBody>;

/** A folder of the media library. */
export const UploadFolder = z.object({
  path: z.string(),
  name: z.string(),
  parent: z.string().nullable(),
});
export type UploadFolder = z.infer<typeof UploadFolder>;

// ---------------------------------------------------------------------------------------------
// In-page playback (client-side entities of spec 3)
// ---------------------------------------------------------------------------------------------

/** A track as the in-page players describe it (spec 3 "Track"). */
export const PlaybackTrack = z.object({
  id: z.string(),
  name: z.string(),
  artists: z.array(z.string()),
  album: z.string(),
  durationMs: z.number().nonnegative(),
  image: z.string().nullable(),
});
export type PlaybackTrack = z.infer<typeof PlaybackTrack>;

/** The in-page playback state (spec 3 "Playback state"), with its defaults. */
export const PlaybackState = z.object({
  currentTrack: PlaybackTrack.nullable().default(null),
  isPaused: z.boolean().default(true),
  repeatMode: z.enum(REPEAT_MODES).default('off'),
  isShuffle: z.boolean().default(false),
  progressMs: z.number().nonnegative().default(0),
  isLoading: z.boolean().default(false),
  volume: z.number().min(0).max(1).default(1),
  supportsVolume: z.boolean().default(true),
  /** The provider's original event. */
  originalEvent: z.unknown().optional(),
});
export type PlaybackState = z.infer<typeof PlaybackState>;

/** A playback device (spec 3 "Device"). */
export const PlaybackDevice = z.object({
  id: z.string(),
  isActive: z.boolean(),
  name: z.string(),
  type: z.string(),
  volume: z.number().min(0).max(1),
  supportsVolume: z.boolean(),
});
export type PlaybackDevice = z.infer<typeof PlaybackDevice>;

/** The mock player's queue (spec 3 "Mock queue"). */
export const MockQueue = z.object({ tracks: z.array(PlaybackTrack), index: z.number().int().nonnegative() });
export type MockQueue = z.infer<typeof MockQueue>;
