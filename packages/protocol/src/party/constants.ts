/**
 * Constants of the listening-party contract (spec `listening-party.md`, section 9), the value
 * lists of its entities, and the limits we chose where the spec says "not shown".
 * Plain values only: the zod schemas built on the value lists live in `entities.ts`.
 */

// ---------------------------------------------------------------------------------------------
// Spec section 9: business constants and limits
// ---------------------------------------------------------------------------------------------

/** Default waiting-room lead time before `starts_at`, in minutes (spec 9, `waitingRoomMinutes`). */
export const WAITING_ROOM_DEFAULT_MINUTES = 30;

/** Number of chat messages shown when the chat opens (spec 9, "Messages shown initially"). */
export const CHAT_INITIAL_MESSAGES = 80;

/** Page size the client asks for when loading older messages (spec 9, "Older-message fetch"). */
export const OLDER_MESSAGES_FETCH_LIMIT = 200;

/** Of an older-message page, the newest messages not already present that are kept (spec 9). */
export const OLDER_MESSAGES_KEEP = 20;

/** The `before` cursor of an older-message fetch is rounded up to a multiple of this (spec 9: 30 s). */
export const OLDER_MESSAGES_CURSOR_ROUND_MS = 30_000;

/** Default `limit` of `GET /api/parties/{id}/chat/messages` (spec 9, "Default chat fetch limit"). */
export const CHAT_FETCH_DEFAULT_LIMIT = 20;

/** The client sends a `ping` text about this often, plus jitter (spec 4 and 9: about 20 s). */
export const SOCKET_HEARTBEAT_MS = 20_000;

/** Chat socket events are applied in batches collected over this window (spec 4 and 9). */
export const CHAT_BATCH_WINDOW_MS = 150;

/**
 * After MORE than this many consecutive socket closes the app shows the global error state
 * (spec 5 and 9, "Reconnect retry cap").
 */
export const RECONNECT_RETRY_CAP = 5;

/** A Spotify service token expiring within this window is reloaded (spec 4 and 9: 9 minutes). */
export const SERVICE_TOKEN_REFRESH_WINDOW_MS = 540_000;

/** A window width of this many px or less counts as mobile (spec 2 and 9). */
export const MOBILE_BREAKPOINT_PX = 900;

/** A chunk or CSS file not loaded within this time raises a load error (spec 8 and 9: 120 s). */
export const SCRIPT_LOAD_TIMEOUT_MS = 120_000;

/** Default UI locale (spec 1 and 9). */
export const DEFAULT_LOCALE = 'de';

/** Default country, e.g. the party's `musicCountry` (spec 3 and 9). */
export const DEFAULT_COUNTRY = 'de';

/** Default of a party's `login_required` (spec 3 and 9). */
export const LOGIN_REQUIRED_DEFAULT = true;

/** Default of a party's `voting_enabled` (`isVote`, spec 3 and 9). */
export const IS_VOTE_DEFAULT = true;

/** Default of a party's `auto_start` (`isAutoStart`, spec 3). */
export const IS_AUTO_START_DEFAULT = false;

/** Default of `frontend.partyStartAllowed`: who may start the party (spec 3). */
export const START_ALLOWED_DEFAULT = 'host' as const;

/** Default music service of a party (`musicService`, spec 3). */
export const MUSIC_SERVICE_DEFAULT = 'spotify' as const;

/** Size of the default sticker list (spec 3 and 9). */
export const DEFAULT_STICKER_COUNT = 24;

/** Product version (spec 1 and 9). */
export const PRODUCT_VERSION = '1.36.0';

// ---------------------------------------------------------------------------------------------
// Value lists (spec sections 1, 3, 6 and 9)
// ---------------------------------------------------------------------------------------------

/** Fonts a party may use (spec 3 and 9). */
export const FONTS = ['mono', 'poppins', 'playfair', 'merriweather', 'rubik'] as const;

/** Services a track can be played with; `umg_hls` is the internal streaming service (spec 1 and 9). */
export const PLAYER_SERVICES = ['spotify', 'apple', 'umg_hls'] as const;

/** Services a fan can log in with: the internal `umg_hls` is excluded from login (spec 6). */
export const LOGIN_SERVICES = ['spotify', 'apple'] as const;

/** Who may start a party (spec 3, 4 and 9). */
export const START_ALLOWED = ['host', 'admin', 'both'] as const;

/** Roles within a party. The spec's "ordinary listener (any other value)" is sent as `listener`. */
export const ROLES = ['admin', 'host', 'listener'] as const;

/** Roles a grant can give (spec SPEC-NOTES "Identity and roles"): everyone else is a listener. */
export const GRANT_ROLES = ['host', 'admin'] as const;

/** Kinds of chat message (spec 3). */
export const CHAT_MESSAGE_TYPES = [
  'message',
  'poll',
  'quiz_question',
  'quiz_scoreboard',
  'quiz_user_scores',
  'popup',
] as const;

/** Kinds of entry in a party's `follow` list (spec 3). */
export const FOLLOW_TYPES = ['artist', 'album', 'playlist'] as const;

/** What a party is built on (spec 1 and 3). */
export const MUSIC_TYPES = ['album', 'playlist'] as const;

/** FAQ `locations` value that matches every page or every service (spec 2, FAQ modal). */
export const FAQ_MATCH_ALL = 'All';

/** `detail.type` of a 409 answer to a signup whose email or display name is taken (spec 8). */
export const DUPLICATE_SIGNUP_ERROR = 'DuplicateSignupError';

/**
 * The 24 default sticker ids (spec 3: "24 defaults"). The web app maps each id to an image; a
 * party's `visual.stickers` selects from these.
 */
export const DEFAULT_STICKERS = [
  'fire',
  'heart',
  'clap',
  'party',
  'star',
  'rocket',
  'hundred',
  'music',
  'headphones',
  'guitar',
  'microphone',
  'drum',
  'dance',
  'sunglasses',
  'laugh',
  'cry',
  'wow',
  'love_eyes',
  'thumbs_up',
  'raised_hands',
  'sparkles',
  'crown',
  'lightning',
  'rainbow',
] as const;

/**
 * How the web apps draw each default sticker: an emoji (no image requests). One table, so the
 * back office's sticker picker shows what fans see.
 */
export const STICKER_GLYPHS: Record<(typeof DEFAULT_STICKERS)[number], string> = {
  fire: '🔥',
  heart: '❤️',
  clap: '👏',
  party: '🎉',
  star: '⭐',
  rocket: '🚀',
  hundred: '💯',
  music: '🎵',
  headphones: '🎧',
  guitar: '🎸',
  microphone: '🎤',
  drum: '🥁',
  dance: '💃',
  sunglasses: '😎',
  laugh: '😂',
  cry: '😢',
  wow: '😮',
  love_eyes: '😍',
  thumbs_up: '👍',
  raised_hands: '🙌',
  sparkles: '✨',
  crown: '👑',
  lightning: '⚡',
  rainbow: '🌈',
};

// ---------------------------------------------------------------------------------------------
// Our limits: the spec says "Field length bounds: not shown" (spec 5), so these are our choices.
// ---------------------------------------------------------------------------------------------

/** Ours: maximum length of a chat text, popup message or scheduled message (after trimming). */
export const CHAT_TEXT_MAX_LENGTH = 500;

/**
 * Ours: a fan may post at most this many chat messages (text, sticker, media) per
 * CHAT_RATE_LIMIT_WINDOW_MS; hosts and admins are exempt. Beyond it the server answers 429.
 */
export const CHAT_RATE_LIMIT_MESSAGES = 5;
export const CHAT_RATE_LIMIT_WINDOW_MS = 10_000;

/** `detail.type` of a 429 answer to a chat post beyond the rate limit (`detail.retry_after_ms` says when to retry). */
export const CHAT_RATE_LIMITED_ERROR = 'ChatRateLimited';

/** Ours: maximum length of a display name (party signup, grants). */
export const DISPLAY_NAME_MAX_LENGTH = 40;

/** Ours: maximum length of a real name at signup. */
export const REAL_NAME_MAX_LENGTH = 100;

/** Ours: maximum length of a party name. */
export const PARTY_NAME_MAX_LENGTH = 200;

/** Ours: maximum `limit` of a chat fetch; equals the older-message page size the client asks for. */
export const CHAT_FETCH_MAX_LIMIT = OLDER_MESSAGES_FETCH_LIMIT;

/** Ours: largest waiting-room lead time, in minutes (one day). */
export const WAITING_ROOM_MAX_MINUTES = 1440;

/** Ours: bounds of the number of options of a poll or quiz question. */
export const POLL_OPTIONS_MIN = 2;
export const POLL_OPTIONS_MAX = 10;

/** Ours: maximum length of a poll or quiz question, and of one of its options. */
export const POLL_QUESTION_MAX_LENGTH = 300;
export const POLL_OPTION_MAX_LENGTH = 200;

/** Ours: bounds of `duration_seconds` of a poll, quiz question or scoreboard. */
export const POLL_DURATION_MIN_SECONDS = 1;
export const POLL_DURATION_MAX_SECONDS = 3600;

/**
 * Ours: most polls and quiz questions a party keeps prepared for later (its hosts prepare them
 * before the party, on any device, and start them from the host panel).
 */
export const PREPARED_QUESTIONS_MAX = 50;

/** Ours: bounds and default of the `count` of a quiz scoreboard. */
export const SCOREBOARD_MAX_COUNT = 100;
export const SCOREBOARD_DEFAULT_COUNT = 10;

/** Ours: how long a posted scoreboard stays shown when the host gives no `duration_seconds`. */
export const SCOREBOARD_DEFAULT_DURATION_SECONDS = 30;

/** Ours: ceiling of `messages_per_second` of fake chat traffic. */
export const FAKE_CHAT_MAX_MESSAGES_PER_SECOND = 1000;

/** Ours: ceiling of `stop_after` (seconds) of fake chat traffic. */
export const FAKE_CHAT_MAX_SECONDS = 3600;

// ---------------------------------------------------------------------------------------------
// Bounds of every stored string (issue 10: "Bound every stored string").
// ---------------------------------------------------------------------------------------------

/** Ours: a party id is 1..64 letters, digits, `-` or `_`, starting with a letter or digit. */
export const PARTY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const PARTY_ID_RULE = 'A party id is 1 to 64 letters, digits, "-" or "_", starting with a letter or digit';

/** Ours: length of a sticker id, and how many a party's sticker list may hold. */
export const STICKER_ID_MAX_LENGTH = 64;
export const STICKERS_MAX = 200;

/** Ours: FAQ bounds (entries, question and HTML answer length). */
export const FAQ_ENTRIES_MAX = 50;
export const FAQ_QUESTION_MAX_LENGTH = 300;
export const FAQ_ANSWER_MAX_LENGTH = 10_000;

/** Ours: names in the frontend settings (module names, header elements, FAQ pages) and their lists. */
export const SETTING_NAME_MAX_LENGTH = 64;
export const SETTING_LIST_MAX = 50;

/** Ours: a CSS value in the settings (sticker background). */
export const CSS_VALUE_MAX_LENGTH = 200;

/** SPEC-NOTES: a grant link works once and for 7 days unless set otherwise when it is made. */
export const GRANT_LINK_DEFAULT_MAX_USES = 1;
export const GRANT_LINK_DEFAULT_TTL_DAYS = 7;
/** Ours: the most uses and the longest life a grant link may be given. */
export const GRANT_LINK_MAX_USES = 10_000;
export const GRANT_LINK_MAX_TTL_DAYS = 365;
/**
 * Ours: the 403 `detail.type` of a login whose grant link is refused (unknown or revoked, expired,
 * used up; `detail.reason` says which), and the `error` a Spotify login returns with then. No
 * session is issued: the app drops the stored grant and the fan logs in again without it.
 */
export const GRANT_LINK_REFUSED_ERROR = 'GrantLinkRefused';
export const GRANT_LINK_REFUSED_REASONS = ['unknown', 'expired', 'used_up'] as const;

/** Ours: the longest slow-mode interval a host may set, in seconds, and its 429 `detail.type`. */
export const CHAT_SLOW_MODE_MAX_SECONDS = 3600;
export const CHAT_SLOW_MODE_ERROR = 'ChatSlowMode';

/**
 * Ours: the 403 `detail` a listener gets for a chat post, reaction or poll or quiz answer while a
 * read-only waiting room (`frontend.waitingRoomReadOnly`) waits for the party to start.
 */
export const WAITING_ROOM_READ_ONLY_DETAIL = 'The chat opens when the party starts';

/** Ours: how many tracks a party may leave out of its album or playlist. */
export const EXCLUDED_TRACKS_MAX = 1000;

/** Ours: how many follow entries a party may list. */
export const FOLLOW_ENTRIES_MAX = 50;

/** Ours: longest provider token we pass on (Apple's Music User Token, grant tokens). */
export const PROVIDER_TOKEN_MAX_LENGTH = 4096;
