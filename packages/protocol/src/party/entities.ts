/**
 * Entities of the listening-party contract (spec `listening-party.md`, section 3) as they travel
 * on the wire: snake_case backend names, except the party's `frontend` settings, whose keys are
 * camelCase exactly as the spec lists them.
 */
import { z } from 'zod';
import { EpochMs, Id, IsoDateTime, NonNegativeInt, WebUrl } from '../common.ts';
import {
  CHAT_MESSAGE_TYPES,
  FOLLOW_TYPES,
  FONTS,
  GRANT_ROLES,
  LOGIN_SERVICES,
  MUSIC_TYPES,
  PLAYER_SERVICES,
  ROLES,
  START_ALLOWED,
  WAITING_ROOM_MAX_MINUTES,
  CSS_VALUE_MAX_LENGTH,
  CHAT_SLOW_MODE_MAX_SECONDS,
  FAQ_ANSWER_MAX_LENGTH,
  FAQ_ENTRIES_MAX,
  FAQ_QUESTION_MAX_LENGTH,
  PARTY_ID_PATTERN,
  PARTY_ID_RULE,
  SETTING_LIST_MAX,
  SETTING_NAME_MAX_LENGTH,
  STICKER_ID_MAX_LENGTH,
  STICKERS_MAX,
} from './constants.ts';

// ---------------------------------------------------------------------------------------------
// Value schemas
// ---------------------------------------------------------------------------------------------

/** A font a party may use. */
export const Font = z.enum(FONTS);
export type Font = z.infer<typeof Font>;

/** A service a track can be played with (`umg_hls` is the internal streaming service). */
export const PlayerService = z.enum(PLAYER_SERVICES);
export type PlayerService = z.infer<typeof PlayerService>;

/** A service a fan can log in with (`umg_hls` excluded). */
export const LoginService = z.enum(LOGIN_SERVICES);
export type LoginService = z.infer<typeof LoginService>;

/** Who may start the party. */
export const StartAllowed = z.enum(START_ALLOWED);
export type StartAllowed = z.infer<typeof StartAllowed>;

/** A user's role within a party. */
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** A role a grant gives. */
export const GrantRole = z.enum(GRANT_ROLES);
export type GrantRole = z.infer<typeof GrantRole>;

/** The kind of a chat message. */
export const ChatMessageType = z.enum(CHAT_MESSAGE_TYPES);
export type ChatMessageType = z.infer<typeof ChatMessageType>;

/** The kind of a follow entry. */
export const FollowType = z.enum(FOLLOW_TYPES);
export type FollowType = z.infer<typeof FollowType>;

/** What a party is built on. */
export const MusicType = z.enum(MUSIC_TYPES);
export type MusicType = z.infer<typeof MusicType>;

/** A lower-case ISO 3166-1 alpha-2 country code as stored and sent by the server, e.g. `de`. */
export const CountryCode = z.string().regex(/^[a-z]{2}$/, 'Expected a two-letter lower-case country code');
export type CountryCode = z.infer<typeof CountryCode>;

/** A CSS hex colour: `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export const HexColor = z
  .string()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'Expected a CSS hex colour (#rgb, #rrggbb or #rrggbbaa)');
export type HexColor = z.infer<typeof HexColor>;

/** A party id (path `{id}`, `party_id` fields): a clear rule, so CR/LF, markup or `../` never pass. */
export const PartyId = z.string().regex(PARTY_ID_PATTERN, PARTY_ID_RULE);
export type PartyId = z.infer<typeof PartyId>;

/** A sticker id (chat stickers, avatars, a party's sticker list). */
export const StickerId = z.string().min(1).max(STICKER_ID_MAX_LENGTH);
export type StickerId = z.infer<typeof StickerId>;

/** A name in the frontend settings (a module, a header element, a page). */
const SettingName = z.string().max(SETTING_NAME_MAX_LENGTH);

/** Position of an event in its party's event stream: per party, strictly increasing. */
export const SeqId = NonNegativeInt;
export type SeqId = z.infer<typeof SeqId>;

// ---------------------------------------------------------------------------------------------
// Music
// ---------------------------------------------------------------------------------------------

/** A playable track. */
export const Track = z.object({
  /** The track id on its `service`. */
  id: Id,
  name: z.string(),
  /** Artist names, in credit order. */
  artists: z.array(z.string()),
  /** Album name. */
  album: z.string(),
  duration_ms: NonNegativeInt,
  /** Cover image URL. */
  image: z.string().nullable(),
  service: PlayerService,
  /** HLS stream URL when the track plays through the internal `umg_hls` service, else null. */
  hls_url: z.string().nullable(),
});
export type Track = z.infer<typeof Track>;

/** A track of a party's list, with its vote count and place. */
export const PartyTrack = Track.extend({
  votes: NonNegativeInt,
  /** True once the track has been played in this party. */
  played: z.boolean(),
  /** Zero-based position in the album or playlist order (breaks vote ties). */
  position: NonNegativeInt,
});
export type PartyTrack = z.infer<typeof PartyTrack>;

/**
 * The party's playback timeline, owned by the server. The current position at server time `t`
 * is `progress_ms + (t - timestamp_ms)` while not paused.
 */
export const PlayerStatus = z.object({
  track: Track,
  /** Position in the track, in ms, at `timestamp_ms`. */
  progress_ms: NonNegativeInt,
  is_paused: z.boolean(),
  /** Server time (ms since epoch) at which `progress_ms` held. */
  timestamp_ms: EpochMs,
});
export type PlayerStatus = z.infer<typeof PlayerStatus>;

/** What a party plays: the album or playlist it is built on (spec: musicType, musicId, ...). */
export const MusicOptions = z.object({
  type: MusicType,
  /** Album or playlist id on `service`. */
  id: Id,
  service: PlayerService,
  /** Storefront country of the catalogue lookup (default `de`). */
  country: CountryCode,
  /** Link to the album or playlist on the service, when known. */
  url: z.string().nullable(),
});
export type MusicOptions = z.infer<typeof MusicOptions>;

/** One artist, album or playlist fans are invited to follow. */
export const FollowEntry = z.object({
  type: FollowType,
  service: LoginService,
  /** Artist, album or playlist id on `service`. */
  id: Id,
});
export type FollowEntry = z.infer<typeof FollowEntry>;

// ---------------------------------------------------------------------------------------------
// Frontend settings (stored with the party; camelCase keys as the spec lists them)
// ---------------------------------------------------------------------------------------------

/** Where an FAQ entry is shown; `All` in either field matches everything. */
export const FaqLocation = z.strictObject({
  /** Page name (e.g. `waiting`, `player`) or `All`. */
  page: SettingName,
  /** Service (`spotify`, `apple`, `umg_hls`) or `All`. */
  service: SettingName,
});
export type FaqLocation = z.infer<typeof FaqLocation>;

/** One question/answer of the FAQ modal. */
export const FaqEntry = z.strictObject({
  question: z.string().max(FAQ_QUESTION_MAX_LENGTH),
  /** HTML text; the server sanitizes it before storing it. */
  answer: z.string().max(FAQ_ANSWER_MAX_LENGTH),
  /** Optional image URL shown with the answer. */
  image: WebUrl.nullable().optional(),
  locations: z.array(FaqLocation).max(SETTING_LIST_MAX),
});
export type FaqEntry = z.infer<typeof FaqEntry>;

/**
 * Visual settings of a party. All optional; unknown keys are refused so a typo in the admin tool
 * fails loudly instead of being stored. Text colour is derived: white when `dark`, else dark navy.
 */
export const VisualSettings = z.strictObject({
  dark: z.boolean().optional(),
  primaryColor: HexColor.optional(),
  backgroundColor: HexColor.optional(),
  /** Header and profile backgrounds of chat messages by the artist (admin/host). */
  artistHeaderBackground: HexColor.optional(),
  artistProfileBackground: HexColor.optional(),
  /** Header and profile backgrounds of chat messages by support. */
  supportHeaderBackground: HexColor.optional(),
  supportProfileBackground: HexColor.optional(),
  /** Header and profile backgrounds of other fans' messages. */
  userHeaderBackground: HexColor.optional(),
  userProfileBackground: HexColor.optional(),
  /** Header and profile backgrounds of the viewer's own messages. */
  ownHeaderBackground: HexColor.optional(),
  ownProfileBackground: HexColor.optional(),
  musicImage: WebUrl.optional(),
  headerImage: WebUrl.optional(),
  radioImage: WebUrl.optional(),
  phoneImage: WebUrl.optional(),
  logoImage: WebUrl.optional(),
  font: Font.optional(),
  /** CSS background of the sticker tiles. */
  stickerBackground: z.string().max(CSS_VALUE_MAX_LENGTH).optional(),
  /** Selected sticker ids; stickers are allowed in the chat only if this list is non-empty. */
  stickers: z.array(StickerId).max(STICKERS_MAX).optional(),
  hideStartPageGraphs: z.boolean().optional(),
  /** Names of the elements shown in the header, in order. */
  headerElements: z.array(SettingName).max(SETTING_LIST_MAX).optional(),
});
export type VisualSettings = z.infer<typeof VisualSettings>;

/** Frontend settings stored with a party (`frontend`). All optional; unknown keys are refused. */
/** Ours (issue 15): the legal pages a party may bring itself (HTML; sanitized before it is shown). */
export const LEGAL_PAGES = ['imprint', 'privacy', 'terms'] as const;
export const LegalPage = z.enum(LEGAL_PAGES);
export type LegalPage = z.infer<typeof LegalPage>;

/** A party's own imprint, privacy and terms texts; absent pages come from the server's configuration. */
export const LegalSettings = z.strictObject({
  imprint: z.string().max(FAQ_ANSWER_MAX_LENGTH * 5).optional(),
  privacy: z.string().max(FAQ_ANSWER_MAX_LENGTH * 5).optional(),
  terms: z.string().max(FAQ_ANSWER_MAX_LENGTH * 5).optional(),
});
export type LegalSettings = z.infer<typeof LegalSettings>;

export const FrontendSettings = z.strictObject({
  /** Shows the terms link and the competition checkbox at signup. */
  competitionIsEnabled: z.boolean().optional(),
  /** Names of the modules shown on the Waiting screen, in order. */
  pageModulesWaiting: z.array(SettingName).max(SETTING_LIST_MAX).optional(),
  /** Names of the modules shown on the End screen, in order. */
  pageModulesEnd: z.array(SettingName).max(SETTING_LIST_MAX).optional(),
  /** Waiting-room lead time before `starts_at`, in minutes (default 30). */
  partyIsWaitingRoomMinutes: z.number().int().min(0).max(WAITING_ROOM_MAX_MINUTES).optional(),
  /** Who may start the party (default `host`). */
  partyStartAllowed: StartAllowed.optional(),
  faq: z.array(FaqEntry).max(FAQ_ENTRIES_MAX).optional(),
  /**
   * Ours (issue 10): party-wide slow mode. While above 0, each listener may post one chat message
   * per this many seconds (hosts and admins exempt). Hosts switch it with `PUT .../chat/slow_mode`.
   */
  chatSlowModeSeconds: z.number().int().min(0).max(CHAT_SLOW_MODE_MAX_SECONDS).optional(),
  /**
   * Ours: a read-only waiting room. Until the party starts, listeners read the chat but may not
   * post, react or answer polls and quizzes (403, `WAITING_ROOM_READ_ONLY_DETAIL`); hosts and
   * admins may. Absent or false: the waiting room is open like the party.
   */
  waitingRoomReadOnly: z.boolean().optional(),
  /**
   * Ours (issue 47): a fan whose provider cannot play in the browser (free tier, no subscription,
   * no SDK or EME, iOS Safari) hears the label stream (`umg_hls`). Absent or true: allowed; false:
   * such fans hear 30 s previews instead.
   */
  labelStreamFallback: z.boolean().optional(),
  visual: VisualSettings.optional(),
  /** Imprint, privacy and terms of this party (HTML), served at `/legal/{page}`. */
  legal: LegalSettings.optional(),
});
export type FrontendSettings = z.infer<typeof FrontendSettings>;

// ---------------------------------------------------------------------------------------------
// Party
// ---------------------------------------------------------------------------------------------

/** A party as `GET /api/parties/{id}` returns it. */
export const Party = z.object({
  id: Id,
  name: z.string(),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  /** When the party was (last) started; null if never started. */
  started_at: IsoDateTime.nullable(),
  /** Planned start; the waiting room opens `partyIsWaitingRoomMinutes` earlier. */
  starts_at: IsoDateTime,
  /** End time; null while open-ended. `POST .../end` sets it to now. */
  ends_at: IsoDateTime.nullable(),
  voting_enabled: z.boolean(),
  /** Start by itself at `starts_at`. */
  auto_start: z.boolean(),
  /** Id of the WordPress post the party belongs to, if any. */
  wp_post_id: z.number().int().nullable(),
  frontend: FrontendSettings,
  follow: z.array(FollowEntry),
  login_required: z.boolean(),
  /** The playback timeline; non-null exactly while the party is started. */
  status: PlayerStatus.nullable(),
  /** The album or playlist the party plays; null until tracks are set. */
  music: MusicOptions.nullable(),
  /** True when the party has tracks that can be played. */
  is_playable: z.boolean(),
});
export type Party = z.infer<typeof Party>;

// ---------------------------------------------------------------------------------------------
// Users and grants
// ---------------------------------------------------------------------------------------------

/** A fan's answer to a poll. */
export const PollAnswer = z.object({
  poll_id: Id,
  /** Index into the poll's `options`. */
  answer_id: NonNegativeInt,
});
export type PollAnswer = z.infer<typeof PollAnswer>;

/** A fan's answer to a quiz question. */
export const QuizAnswer = z.object({
  question_id: Id,
  /** Index into the question's `options`. */
  answer_id: NonNegativeInt,
});
export type QuizAnswer = z.infer<typeof QuizAnswer>;

/** A fan's profile within one party (`GET /api/parties/{id}/users/me`, items of the users list). */
export const PartyUser = z.object({
  id: Id,
  real_name: z.string(),
  /** Unique within the party. */
  display_name: z.string(),
  /** Unique within the party when set. */
  email: z.string().nullable(),
  /** True for a paying subscriber of their streaming service. */
  premium: z.boolean(),
  country: CountryCode.nullable(),
  /** Sticker id used as avatar. */
  profile_sticker: z.string().nullable(),
  profile_picture: z.string().nullable(),
  role: Role,
  /** False once a host or admin has blocked the fan from the chat. */
  can_chat: z.boolean(),
  /** True once the fan has signed up for the party. */
  is_subscribed: z.boolean(),
  /** The service the fan logged in with; null after a signup without provider login. */
  service: PlayerService.nullable(),
  /** Ids of the tracks the fan has voted for. */
  track_votes: z.array(Id),
  poll_answers: z.array(PollAnswer),
  quiz_answers: z.array(QuizAnswer),
  quiz_score: NonNegativeInt,
});
export type PartyUser = z.infer<typeof PartyUser>;

/** A party in which a system user holds a grant. */
export const UserGrantRef = z.object({
  party_id: Id,
  role: GrantRole,
});
export type UserGrantRef = z.infer<typeof UserGrantRef>;

/** A fan's system-wide profile (`GET /api/users/me`), from their provider login. */
export const SystemUser = z.object({
  id: Id,
  service: LoginService,
  /** The user's id on `service`. */
  service_user_id: Id,
  display_name: z.string(),
  email: z.string().nullable(),
  country: CountryCode.nullable(),
  premium: z.boolean(),
  profile_picture: z.string().nullable(),
  /** Parties in which this account holds a host or admin grant. */
  grants: z.array(UserGrantRef),
});
export type SystemUser = z.infer<typeof SystemUser>;

/** One fan who redeemed a grant link. */
export const GrantRedemption = z.object({
  user_id: Id,
  display_name: z.string(),
  redeemed_at: IsoDateTime,
});
export type GrantRedemption = z.infer<typeof GrantRedemption>;

/**
 * A grant of a party role: either to a streaming account (`service` + `service_id`) or as a
 * grant token (the `/grant/{grantToken}` link), in which case `service` and `service_id` are null.
 */
export const Grant = z.object({
  /**
   * Ours (issue 14): the grant's id. The list never shows a link's token (only its hash is kept),
   * so the back office revokes a link with `DELETE .../grants/{id}`, which accepts the id as well.
   */
  id: Id,
  service_id: z.string().nullable(),
  service: LoginService.nullable(),
  /** The grant token for the `/grant/{grantToken}` link; null for an account grant. */
  token: z.string().nullable(),
  role: GrantRole,
  /** Name the grantee's chat messages show. */
  display_name: z.string(),
  profile_picture: z.string().nullable(),
  /** Grant links: how many fans may redeem it; null for account grants (and links without a limit). */
  max_uses: NonNegativeInt.nullable(),
  /** Grant links: how many fans redeemed it so far. */
  uses: NonNegativeInt,
  /** Grant links: when the link stops working; null for account grants. */
  expires_at: IsoDateTime.nullable(),
  /** Who redeemed the link, oldest first (empty for account grants). */
  redeemed_by: z.array(GrantRedemption),
});
export type Grant = z.infer<typeof Grant>;

/** A user's chat right, as answered by block/unblock and broadcast as `user_can_chat`. */
export const UserChatRight = z.object({
  user_id: Id,
  can_chat: z.boolean(),
});
export type UserChatRight = z.infer<typeof UserChatRight>;

// ---------------------------------------------------------------------------------------------
// Chat payloads
// ---------------------------------------------------------------------------------------------

/** A popup shown to the fans it targets. */
export const Popup = z.object({
  /** Only fans of this service see it; absent means everyone. */
  service: PlayerService.optional(),
  /** Only non-premium fans see it. */
  free_only: z.boolean(),
  message: z.string(),
  /** The fan may close it. */
  is_closeable: z.boolean(),
  /** The popup offers a restart: acting on it reloads the app. */
  is_restart: z.boolean(),
  /** Server time of the popup; the app shows only popups newer than its page load. */
  timestamp_ms: EpochMs,
});
export type Popup = z.infer<typeof Popup>;

/** A poll. */
export const Poll = z.object({
  id: Id,
  question: z.string(),
  /** Answer options; with `set_next_track`, each option is a track id of the party. */
  options: z.array(z.string()),
  duration_seconds: NonNegativeInt,
  /** When true, the winning option becomes the next track. */
  set_next_track: z.boolean(),
  created_at_ms: EpochMs,
  /** Server time at which answers stop being accepted. */
  closes_at_ms: EpochMs,
  closed: z.boolean(),
  /** Answer count per option index. */
  results: z.array(NonNegativeInt),
});
export type Poll = z.infer<typeof Poll>;

/** A quiz question: a poll with a correct answer. */
export const QuizQuestion = Poll.extend({
  /** Index of the correct option: null while the question is open, revealed when it closes. */
  correct_answer: NonNegativeInt.nullable(),
});
export type QuizQuestion = z.infer<typeof QuizQuestion>;

/** A chat message the server posts at `post_at`, repeating every `recurring_interval` seconds. */
export const ScheduledMessage = z.object({
  id: Id,
  text: z.string(),
  sticker: z.string().nullable(),
  post_at: IsoDateTime,
  /** Repeat interval in seconds; null for a one-off message (0 is sent as null). */
  recurring_interval: z.number().int().positive().nullable(),
});
export type ScheduledMessage = z.infer<typeof ScheduledMessage>;

/** One line of a quiz scoreboard. */
export const ScoreboardEntry = z.object({
  user_id: Id,
  display_name: z.string(),
  score: NonNegativeInt,
});
export type ScoreboardEntry = z.infer<typeof ScoreboardEntry>;

/** A playback device of the fan's streaming service. */
export const PlayerDevice = z.object({
  id: Id,
  is_active: z.boolean(),
});
export type PlayerDevice = z.infer<typeof PlayerDevice>;
