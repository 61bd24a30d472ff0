/**
 * Bodies, parameters and responses of every CMS API call of spec `campaign-pages.md` section 7,
 * plus the calls the spec leaves implicit (login, lock, token-gate codes, exports).
 */
import { z } from 'zod';
import { Id, IsoDateTime, JSON_LIMITS, boundedJson, headerToken, listOf } from '../common.ts';
import { CMS_PASSWORD_MAX_LENGTH, CMS_PASSWORD_MIN_LENGTH } from './constants.ts';
import {
  AppConfig,
  Campaign,
  CampaignData,
  CampaignService,
  CmsApp,
  CmsRole,
  CmsUpload,
  CmsUser,
  CmsUserState,
  HttpUrl,
  I18nSettings,
  Locale,
  LocaleCode,
  NewsletterEntry,
  Slug,
  TagManager,
  TokenGateSettings,
  Translation,
  UploadFolder,
} from './entities.ts';
import { PreviewQuery } from './editorial.ts';
import { FunnelContext } from './funnel.ts';

const Email = z.string().trim().toLowerCase().pipe(z.email().max(254));
const Password = z.string().min(CMS_PASSWORD_MIN_LENGTH).max(CMS_PASSWORD_MAX_LENGTH);

/** `{id}` path parameter of the CMS API. */
export const CmsIdParam = z.object({ id: Id });
export type CmsIdParam = z.infer<typeof CmsIdParam>;

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

/** `POST /api/users/login`. */
export const CmsLoginBody = z.strictObject({ email: Email, password: z.string().min(1).max(CMS_PASSWORD_MAX_LENGTH) });
export type CmsLoginBody = z.infer<typeof CmsLoginBody>;

/** Response of `POST /api/users/login`: the bearer token (also accepted as `X-Cms-Token`). */
export const CmsLoginResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('bearer'),
  expires_at: IsoDateTime,
  user: CmsUser,
});
export type CmsLoginResponse = z.infer<typeof CmsLoginResponse>;

/**
 * `POST /api/users`. Without a token (spec: "no token") it is a self-registration: a password is
 * required and the user starts `pending` with no roles until an admin activates them. An admin
 * may set roles and state, and may omit the password (the user then gets a set-password e-mail).
 */
export const CreateCmsUserBody = z.strictObject({
  email: Email,
  password: Password.optional(),
  name: z.string().trim().max(200).optional(),
  roles: z.array(CmsRole).optional(),
  state: CmsUserState.optional(),
});
export type CreateCmsUserBody = z.infer<typeof CreateCmsUserBody>;

/** `POST /api/users/{id}/roles`. */
export const CmsUserRolesBody = z.strictObject({ roles: z.array(CmsRole) });
export type CmsUserRolesBody = z.infer<typeof CmsUserRolesBody>;

/** `POST /api/users/{id}/state`. */
export const CmsUserStateBody = z.strictObject({ state: CmsUserState });
export type CmsUserStateBody = z.infer<typeof CmsUserStateBody>;

/** `PUT /api/users/password`: a reset token from the e-mail and the new password. */
export const CmsPasswordBody = z.strictObject({ new_password: Password, token: z.string().min(1).max(200) });
export type CmsPasswordBody = z.infer<typeof CmsPasswordBody>;

/** `POST /api/users/password_reset`. `cms`: the link opens the back office (else the CMS's own page). */
export const CmsPasswordResetBody = z.strictObject({ email: Email, cms: z.boolean().optional() });
export type CmsPasswordResetBody = z.infer<typeof CmsPasswordResetBody>;

/**
 * `PUT /api/users/me/setup`: the first-admin set-up. A user created with a generated password
 * (`must_change_password`) gives their own name, e-mail and a new password before anything else.
 */
export const CmsAccountSetupBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  email: Email,
  new_password: Password,
});
export type CmsAccountSetupBody = z.infer<typeof CmsAccountSetupBody>;

export const CmsUsersResponse = listOf(CmsUser);
export type CmsUsersResponse = z.infer<typeof CmsUsersResponse>;

// ---------------------------------------------------------------------------------------------
// Apps
// ---------------------------------------------------------------------------------------------

/** `POST /api/apps`. */
export const CreateAppBody = z.strictObject({
  name: Slug,
  title: z.string().trim().max(200).optional(),
  config: boundedJson(AppConfig, JSON_LIMITS.appConfig).optional(),
});
export type CreateAppBody = z.infer<typeof CreateAppBody>;

export const AppsResponse = listOf(CmsApp);
export type AppsResponse = z.infer<typeof AppsResponse>;

// ---------------------------------------------------------------------------------------------
// Campaigns
// ---------------------------------------------------------------------------------------------

/** The editable fields of a campaign; every one optional in a patch. */
const CampaignFields = {
  name: z.string().trim().min(1).max(200),
  slug: Slug,
  meta_tags: boundedJson(z.record(z.string().max(100), z.string().max(2000)), JSON_LIMITS.metaTags),
  tag_manager: boundedJson(TagManager, JSON_LIMITS.tagManager),
  test: z.boolean(),
  wp_url: HttpUrl.nullable(),
  newsletter: NewsletterEntry.nullable(),
  newsletters: z.array(NewsletterEntry).max(20),
  enabled_services: z.array(CampaignService).max(2),
  starts_at: IsoDateTime.nullable(),
  ends_at: IsoDateTime.nullable(),
  i18n: boundedJson(I18nSettings, JSON_LIMITS.i18n).nullable(),
  token_gate: TokenGateSettings,
  token_gated_campaign_url: HttpUrl.nullable(),
  token_gate_url: HttpUrl.nullable(),
  is_token_gate: z.boolean(),
  data: boundedJson(CampaignData, JSON_LIMITS.campaignData),
};

/** `POST /api/campaigns`. */
export const CreateCampaignBody = z.strictObject({
  app_id: Id,
  name: CampaignFields.name,
  slug: CampaignFields.slug,
  meta_tags: CampaignFields.meta_tags.optional(),
  tag_manager: CampaignFields.tag_manager.optional(),
  test: CampaignFields.test.optional(),
  wp_url: CampaignFields.wp_url.optional(),
  newsletter: CampaignFields.newsletter.optional(),
  newsletters: CampaignFields.newsletters.optional(),
  enabled_services: CampaignFields.enabled_services.optional(),
  starts_at: CampaignFields.starts_at.optional(),
  ends_at: CampaignFields.ends_at.optional(),
  i18n: CampaignFields.i18n.optional(),
  token_gate: CampaignFields.token_gate.optional(),
  token_gated_campaign_url: CampaignFields.token_gated_campaign_url.optional(),
  token_gate_url: CampaignFields.token_gate_url.optional(),
  is_token_gate: CampaignFields.is_token_gate.optional(),
  data: CampaignFields.data.optional(),
});
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;

/**
 * Fields of a campaign the server owns. An editor saves the campaign exactly as `GET` returned it,
 * so a patch accepts these and ignores them; unknown fields are still refused.
 */
export const CAMPAIGN_READ_ONLY_FIELDS = [
  'id',
  'created_at',
  'updated_at',
  'app',
  'app_id',
  'url',
  'lock',
  'parent_id',
  // The editorial workflow's fields: changed by publish, schedule and restore, never by a patch.
  'status',
  'version',
  'published_version',
  'published_at',
  'published_by',
  'scheduled_publish_at',
  'scheduled_unpublish_at',
  'schedule_time_zone',
  'scheduled_publish_locales',
] as const;

const ignoredReadOnly = Object.fromEntries(CAMPAIGN_READ_ONLY_FIELDS.map((field) => [field, z.unknown().optional()])) as Record<
  (typeof CAMPAIGN_READ_ONLY_FIELDS)[number],
  z.ZodOptional<z.ZodUnknown>
>;

/** `POST /api/campaigns/{id}/patch`: the fields to change; absent fields stay as they are. */
export const PatchCampaignBody = CreateCampaignBody.omit({ app_id: true })
  .partial()
  .extend(ignoredReadOnly)
  .transform((body) => {
    const writable: Record<string, unknown> = { ...body };
    for (const field of CAMPAIGN_READ_ONLY_FIELDS) delete writable[field];
    return writable as Partial<Omit<CreateCampaignBody, 'app_id'>>;
  });
export type PatchCampaignBody = z.infer<typeof PatchCampaignBody>;

/** `POST /api/campaigns/{id}/clone` (body optional): name and slug of the copy. */
export const CloneCampaignBody = z
  .strictObject({ name: CampaignFields.name.optional(), slug: Slug.optional() })
  .nullish();
export type CloneCampaignBody = z.infer<typeof CloneCampaignBody>;

/** Query of `GET /api/campaigns`. */
export const CampaignsQuery = z.object({ app_id: Id.optional() });
export type CampaignsQuery = z.infer<typeof CampaignsQuery>;

export const CampaignsResponse = listOf(Campaign);
export type CampaignsResponse = z.infer<typeof CampaignsResponse>;

/** `GET /api/campaigns/{app}/{slug}/exists`: `app` is the app's name or id. */
export const SlugExistsParams = z.object({ app: z.string().min(1), slug: z.string().min(1).max(200) });
export type SlugExistsParams = z.infer<typeof SlugExistsParams>;
export const SlugExistsResponse = z.object({ exists: z.boolean() });
export type SlugExistsResponse = z.infer<typeof SlugExistsResponse>;

/** Error detail `type` of a write refused because someone else holds the campaign's lock (409). */
export const CAMPAIGN_LOCKED_ERROR = 'CampaignLockedError';

// ---------------------------------------------------------------------------------------------
// Uploads
// ---------------------------------------------------------------------------------------------

/** Query of `GET /api/uploads`: the folder to list (default all). */
/** Most files one media search answers. */
export const MEDIA_SEARCH_LIMIT = 200;
/**
 * Query of `GET /api/uploads`: one folder's files, or with `q` a search of file names across every
 * folder (case-insensitive; each file names its folder), newest first, at most MEDIA_SEARCH_LIMIT.
 */
export const UploadsQuery = z.object({ folder: z.string().max(500).optional(), q: z.string().trim().min(1).max(200).optional() });
export type UploadsQuery = z.infer<typeof UploadsQuery>;
export const UploadsResponse = listOf(CmsUpload);
export type UploadsResponse = z.infer<typeof UploadsResponse>;

/** Query of `GET /api/uploads/folders`: with `file_url`, the folder holding that file. */
export const FoldersQuery = z.object({ file_url: z.string().max(2000).optional() });
export type FoldersQuery = z.infer<typeof FoldersQuery>;

/** A folder's content: its subfolders and files. */
export const FolderListing = z.object({
  path: z.string(),
  folders: z.array(UploadFolder),
  items: z.array(CmsUpload),
});
export type FolderListing = z.infer<typeof FolderListing>;

// ---------------------------------------------------------------------------------------------
// i18n
// ---------------------------------------------------------------------------------------------

/** Translations of a campaign or an app: locales, the default locale and messages per locale. */
export const TranslationsResponse = z.object({
  default_locale: LocaleCode,
  locales: z.array(Locale),
  items: z.array(Translation),
});
export type TranslationsResponse = z.infer<typeof TranslationsResponse>;

/** `GET /api/apps/{app}/translations?fresh`: `fresh` (any value but false/0) bypasses the cache. */
export const AppTranslationsQuery = z.object({ fresh: z.string().optional() });
export const AppTranslationsParams = z.object({ app: z.string().min(1) });

/** `GET /api/i18n/countries?locale=`: country names in that locale (default en). */
export const CountriesQuery = z.object({
  /** A well-formed BCP 47 tag (`Intl` refuses the rest, and sorting by it would throw). */
  locale: LocaleCode.max(35)
    .refine(isWellFormedLocale, 'Expected a well-formed locale tag such as de or en-GB')
    .optional(),
});

/** Whether `Intl` accepts `tag` as a locale (a pattern alone lets through repeated or misplaced subtags). */
function isWellFormedLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag.replaceAll('_', '-')).length === 1;
  } catch {
    return false;
  }
}
export const Country = z.object({ code: z.string().regex(/^[A-Z]{2}$/), name: z.string() });
export type Country = z.infer<typeof Country>;
export const CountriesResponse = listOf(Country);
export type CountriesResponse = z.infer<typeof CountriesResponse>;

// ---------------------------------------------------------------------------------------------
// Newsletter
// ---------------------------------------------------------------------------------------------

/** A consent given in the signup form: the newsletter id it is for and whether it was accepted. */
export const NewsletterConsent = z.object({ id: z.string().min(1).max(100), accepted: z.boolean() });
export type NewsletterConsent = z.infer<typeof NewsletterConsent>;

/** `POST /api/campaigns/{id}/newsletter/signup` (spec 3 "Newsletter signup payload"). */
export const NewsletterSignupBody = z.object({
  email: Email,
  consents: z.array(NewsletterConsent).max(50).default([]),
  locale: LocaleCode,
  redirect_url: HttpUrl,
  error_redirect_url: HttpUrl,
  host_url: HttpUrl,
  newsletter_ids: z.array(z.string().min(1).max(100)).min(1).max(20),
  /** The fan's name (the party page's form asks for it; party spec 1). Stored and exported. */
  name: z.string().trim().max(200).optional(),
  /** ISO 3166-1 alpha-2 country, stored upper case. Stored and exported. */
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Expected a two-letter country code')
    .transform((code) => code.toUpperCase())
    .optional(),
  /** Where the visit came from and its page variant, for the funnel (no personal data; absent without tracking consent). */
  funnel: FunnelContext.optional(),
});
export type NewsletterSignupBody = z.input<typeof NewsletterSignupBody>;

/** Answer of a signup (202): a confirmation e-mail is on its way for these newsletters. */
export const NewsletterSignupResponse = z.object({
  status: z.literal('confirmation_sent'),
  newsletter_ids: z.array(z.string()),
});
export type NewsletterSignupResponse = z.infer<typeof NewsletterSignupResponse>;

/** Query of the confirmation link `GET /api/newsletter/confirm` (the page that asks for the click). */
export const NewsletterConfirmQuery = z.object({ token: z.string().min(1).max(200) });

/**
 * Body of `POST /api/newsletter/confirm`: what the confirmation page's button sends (a plain form
 * post, so it works without script). Only this POST confirms: a scanner's GET of the link does not.
 */
export const NewsletterConfirmBody = z.object({ token: z.string().min(1).max(200) });
export type NewsletterConfirmBody = z.infer<typeof NewsletterConfirmBody>;

/** Query of `GET /api/newsletter/subscribers.csv` (confirmed subscribers of one newsletter). */
export const SubscribersExportQuery = z.object({ newsletter_id: z.string().min(1).max(100) });

/**
 * Query parameters the confirmation redirects with (spec 2): the banner's state and locale, and
 * `newsletter_selection` (the campaign's newsletter ids, for the banner's tracking). The e-mail
 * tool's address book and form ids stay on the server: a shared URL must not carry them.
 */
export const NewsletterRedirectParams = z.object({
  newsletter_state: z.enum(['success', 'error']),
  locale: z.string().optional(),
  newsletter_selection: z.string().optional(),
});
export type NewsletterRedirectParams = z.infer<typeof NewsletterRedirectParams>;

/** A message of the local outbox (default set-up, no SMTP configured). */
export const OutboxMessage = z.object({
  id: z.string(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  text: z.string(),
  created_at: IsoDateTime,
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;
export const OutboxResponse = listOf(OutboxMessage);

// ---------------------------------------------------------------------------------------------
// Campaign accounts
// ---------------------------------------------------------------------------------------------

/** `GET /api/campaigns/{id}/auth/{service}/login` params. */
export const CampaignLoginParams = z.object({ id: Id, service: CampaignService });
/** Query of the login redirect: where to come back, how, and the `state` to pass back unchanged. */
export const CampaignLoginQuery = z.object({
  redirect_uri: z.string().min(1).max(2000),
  hash_output: z.enum(['true', 'false']).optional(),
  state: z.string().max(200).optional(),
  ...PreviewQuery.shape,
});
export type CampaignLoginQuery = z.infer<typeof CampaignLoginQuery>;

/** `POST /api/campaigns/{id}/auth/apple/login`. */
/** A Music User Token travels in a header to Apple: printable ASCII only, bounded. */
export const CampaignAppleLoginBody = z.strictObject({ music_user_token: headerToken(4000) });
export type CampaignAppleLoginBody = z.infer<typeof CampaignAppleLoginBody>;

// ---------------------------------------------------------------------------------------------
// Token gate
// ---------------------------------------------------------------------------------------------

/**
 * `POST /api/campaigns/{id}/token_gate/provider_check`. The built-in provider reads `code` (an
 * access code); other providers may read other fields.
 */
export const TokenGateCheckBody = z.strictObject({
  credentials: z.looseObject({ code: z.string().trim().min(1).max(200) }),
});
export type TokenGateCheckBody = z.infer<typeof TokenGateCheckBody>;

/** `{product_id}` of the access-code admin calls. */
export const TokenGateProductParam = z.object({ product_id: z.string().min(1).max(200) });

/** Query of the access-code upload (CSV body `code[,max_uses]` per line). */
export const TokenGateCodesQuery = z.object({
  /** Uses per code when a line names none. */
  max_uses: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

/** Answer of an access-code upload. */
export const TokenGateCodesResponse = z.object({
  product_id: z.string(),
  /** New codes. */
  added: z.number().int(),
  /** Codes already present (their use limit was updated). */
  updated: z.number().int(),
});
export type TokenGateCodesResponse = z.infer<typeof TokenGateCodesResponse>;

/** An issued access key, as an admin sees it (never the key itself). */
export const TokenGateKey = z.object({
  id: Id,
  campaign_id: Id,
  product_id: z.string(),
  created_at: IsoDateTime,
  expires_at: IsoDateTime,
  revoked_at: IsoDateTime.nullable(),
});
export type TokenGateKey = z.infer<typeof TokenGateKey>;
export const TokenGateKeysResponse = listOf(TokenGateKey);
export const TokenGateKeyParams = z.object({ id: Id, key_id: Id });

// ---------------------------------------------------------------------------------------------
// Campaign pages
// ---------------------------------------------------------------------------------------------

/** `GET /c/{app}/{slug}`: a campaign's page. */
export const CampaignPageParams = z.object({ app: z.string().min(1), slug: z.string().min(1) });
