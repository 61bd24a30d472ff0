/**
 * Constants of spec `campaign-pages.md` (sections 2, 3, 5 and 9) and the fixed names of the CMS API.
 */

/** Roles of a back-office (CMS) user. An admin may do everything; an editor runs campaigns. */
export const CMS_ROLES = ['admin', 'editor'] as const;

/**
 * States of a back-office user: `pending` after self-registration (waiting for an admin),
 * `active`, or `disabled` (refused everywhere).
 */
export const CMS_USER_STATES = ['active', 'pending', 'disabled'] as const;

/** Shortest password a back-office user may set. */
export const CMS_PASSWORD_MIN_LENGTH = 12;
export const CMS_PASSWORD_MAX_LENGTH = 200;

/** The two streaming providers a campaign page can log in with and play through (spec 1). */
export const CAMPAIGN_SERVICES = ['apple', 'spotify'] as const;

/** Newsletter signup modes (spec 3: implicit, required, otherwise optional). */
export const NEWSLETTER_SIGNUP_MODES = ['implicit', 'required', 'optional'] as const;

/** Values of the `newsletter_state` query parameter the confirmation link redirects with (spec 2). */
export const NEWSLETTER_STATES = ['success', 'error'] as const;
export type NewsletterState = (typeof NEWSLETTER_STATES)[number];

/** The `state` a campaign login callback must carry (spec 2). */
export const CAMPAIGN_LOGIN_STATE = 'cms_account_auth';

/** Header carrying a token-gate access key (spec 7). */
export const TOKEN_GATE_ACCESS_KEY_HEADER = 'token-gate-access-key';

/** Query parameter carrying a token-gate access key into a page (spec 2). */
export const TOKEN_GATE_ACCESS_KEY_PARAM = 'token_gate_access_key';

/**
 * Query parameter of a preview link carrying its signed token into the page; the page passes it
 * on to its own public calls, which then answer for the draft.
 */
export const CAMPAIGN_PREVIEW_PARAM = 'preview';

/** Environments a campaign page runs in (spec 5); `live` and `prod` are aliases of production. */
export const CAMPAIGN_ENVIRONMENTS = ['staging', 'production', 'local'] as const;
export type CampaignEnvironment = (typeof CAMPAIGN_ENVIRONMENTS)[number];
export const CAMPAIGN_ENVIRONMENT_ALIASES: Record<string, CampaignEnvironment> = {
  staging: 'staging',
  production: 'production',
  live: 'production',
  prod: 'production',
  local: 'local',
};

/** Names of the page metadata (`<meta name=... content=...>`) a campaign page carries. */
export const CAMPAIGN_META = {
  /** The campaign JSON (a `Campaign`). */
  campaign: 'fanfare:campaign',
  /** The environment (`CampaignEnvironment`). */
  environment: 'fanfare:environment',
  /** The CMS id of the campaign (read first by the SDK). */
  campaignId: 'fanfare:campaign-id',
  /** The alt texts of the media library's images the page shows: a JSON object, image URL to alt text. */
  mediaAlt: 'fanfare:media-alt',
  /** The address of the replay of the campaign's party (`tag_manager.party_id`), once it is built (issue 47). */
  partyReplay: 'fanfare:party-replay',
  /**
   * The backend origin the deployment configured for this page (the CMS's public URL). Without it
   * the environment's default applies (spec 7: local on port 1337).
   */
  backendOrigin: 'fanfare:backend-origin',
} as const;

/** Default CMS backend port of the local environment (spec 7). */
export const CMS_LOCAL_PORT = 1337;

/** Token refresh interval of a logged-in campaign account (spec 9). */
export const CAMPAIGN_TOKEN_REFRESH_INTERVAL_MS = 600_000;

/** Most Spotify track ids per several-tracks lookup (spec 7 and 9). */
export const TRACK_LOOKUP_BATCH = 50;

/** Longest single timer wait; longer waits are chunked and re-checked (spec 4 and 9). */
export const TIMER_MAX_MS = 2_147_483_647;

/** A progress update is sent when playback time moves back or by at least this much (spec 9). */
export const PROGRESS_UPDATE_MIN_MS = 1000;
/** Progress tick of the Spotify-style and mock players (spec 9). */
export const PROGRESS_TICK_MS = 1000;
/** Seek correction tolerance when starting an Apple-style track at an offset (spec 4 and 9). */
export const SEEK_CORRECTION_TOLERANCE_MS = 2000;
/** Most tracks in the Apple-style player queue; longer queues are truncated (spec 8 and 9). */
export const APPLE_QUEUE_MAX = 300;
/** A player's initial volume (0..1) (spec 9). */
export const PLAYER_INITIAL_VOLUME = 1;
/** Streaming volume percent from a 0..1 fraction: floor of 100 times the fraction (spec 9). */
export const toVolumePercent = (fraction: number): number => Math.floor(100 * fraction);

/** Repeat modes of the in-page playback state (spec 3). */
export const REPEAT_MODES = ['off', 'track', 'context'] as const;
export type RepeatMode = (typeof REPEAT_MODES)[number];

/** Modal overlay opacity default (spec 2 and 9). */
export const MODAL_OVERLAY_OPACITY_DEFAULT = 0.6;
/** Card defaults (spec 9). */
export const CARD_DEFAULT = { height: '285px', borderRadius: '20px' } as const;
/** Button font sizes (spec 9): big, else by font. */
export const BUTTON_FONT_SIZE_PX = { big: 26, small: 16, regular: 18 } as const;

/** Default locales and the default plural rule (spec 9). */
export const CAMPAIGN_DEFAULT_LOCALES = ['de', 'en'] as const;
export const CAMPAIGN_DEFAULT_LOCALE = 'de';
export const DEFAULT_PLURAL_FORM = 'nplurals=2; plural=(n != 1);';

/** HTTP timeout of the page's API client: none by default (spec 9). */
export const CAMPAIGN_HTTP_TIMEOUT_MS = 0;

/** Tracking fixed values (spec 9). */
export const TRACKING = {
  imprint: 'imprint',
  territory: 'de',
  pageCategoryNewsletter: 'crm_signup',
  pageCategoryDefault: 'crm_fan_engagement',
  /** The app whose pages are newsletter-signup pages. */
  newsletterPagesApp: 'newsletter-pages',
} as const;

/** The newsletter banner's messages (spec 2); German wording is ours (not shown in the spec). */
export const NEWSLETTER_BANNER_MESSAGES = {
  en: {
    success: 'Your newsletter subscription was successful. You will now receive news & updates directly in your mailbox.',
    error: 'Sorry, something went wrong when registering for the newsletter. Please try to subscribe again.',
  },
  de: {
    success: 'Deine Newsletter-Anmeldung war erfolgreich. Du erhältst ab jetzt News & Updates direkt in dein Postfach.',
    error: 'Leider ist bei der Newsletter-Anmeldung etwas schiefgelaufen. Bitte versuche es noch einmal.',
  },
} as const;

/** A numeric plural rule such as `nplurals=2; plural=(n != 1);` (spec 5). */
export const PLURAL_FORM_PATTERN = /^\s*nplurals\s*=\s*\d+\s*;\s*plural\s*=\s*[\sn\d!=<>%&|?:()+-]+;?\s*$/;

// Editor bridge names and the origin rule (spec 5 and 7). They live here, free of zod, so the
// campaign page's core can use them without loading the schemas of `bridge.ts`.

/** The tag every bridge frame carries. */
export const BRIDGE_CHANNEL = 'fanfare-campaign';
/** Version of the bridge a `ready:v2` page speaks. */
export const BRIDGE_VERSION = 2;

/** Every message type of spec 7 "Editor messaging". */
export const BRIDGE_MESSAGE_TYPES = [
  'ready',
  'ready:v2',
  'campaignInfo:v2',
  'campaignSaved',
  'token',
  'campaignUrl',
  'mediaPicked',
  'openMediaLibrary:v2',
  'theme',
] as const;
export type BridgeMessageType = (typeof BRIDGE_MESSAGE_TYPES)[number];

/** Allow-list check of spec 5: `origin` is one of `allowed`, or any localhost origin when the receiver itself is on localhost. */
export function isAllowedBridgeOrigin(origin: string, allowed: readonly string[], receiverOrigin: string): boolean {
  if (allowed.includes(origin)) return true;
  return isLocalhostOrigin(receiverOrigin) && isLocalhostOrigin(origin);
}

/** True for `http(s)://localhost[:port]` and `http(s)://127.0.0.1[:port]`. */
export function isLocalhostOrigin(origin: string): boolean {
  return /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin);
}

/** HLS preview stream of the campaign pages (spec 7 "HLS preview"): the manifest, by track `id` and `callback`. */
export const PREVIEW_MANIFEST_PATH = '/api/previews/manifest.m3u8';
/** Length of a preview: the manifest lists the first segments up to this many seconds. */
export const PREVIEW_MAX_SECONDS = 30;
