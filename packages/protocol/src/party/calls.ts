/**
 * Request and response schemas of every call of spec `listening-party.md`, section 7, named after
 * the call. Request bodies are strict objects (unknown keys are refused); responses are plain
 * objects (unknown keys are dropped) so a client tolerates a newer server. Queries are not strict
 * (cache busters and the like are ignored) and coerce their string values.
 */
import { z } from 'zod';
import { EpochMs, ID_MAX_LENGTH, Id, IsoDateTime, NonNegativeInt, StoredNonNegativeInt, URL_MAX_LENGTH, VersionNumber, WebUrl, headerToken, listOf } from '../common.ts';
import { ChatMessage } from './chat.ts';
import {
  CHAT_FETCH_DEFAULT_LIMIT,
  CHAT_FETCH_MAX_LIMIT,
  CHAT_TEXT_MAX_LENGTH,
  DEFAULT_COUNTRY,
  DISPLAY_NAME_MAX_LENGTH,
  FAKE_CHAT_MAX_MESSAGES_PER_SECOND,
  FAKE_CHAT_MAX_SECONDS,
  MUSIC_SERVICE_DEFAULT,
  PARTY_NAME_MAX_LENGTH,
  POLL_DURATION_MAX_SECONDS,
  POLL_DURATION_MIN_SECONDS,
  POLL_OPTION_MAX_LENGTH,
  POLL_OPTIONS_MAX,
  POLL_OPTIONS_MIN,
  POLL_QUESTION_MAX_LENGTH,
  REAL_NAME_MAX_LENGTH,
  SCOREBOARD_DEFAULT_COUNT,
  SCOREBOARD_MAX_COUNT,
  FOLLOW_ENTRIES_MAX,
  PROVIDER_TOKEN_MAX_LENGTH,
  EXCLUDED_TRACKS_MAX,
  GRANT_LINK_MAX_TTL_DAYS,
  CHAT_SLOW_MODE_MAX_SECONDS,
  GRANT_LINK_MAX_USES,
  PREPARED_QUESTIONS_MAX,
} from './constants.ts';
import {
  FollowEntry,
  FrontendSettings,
  Grant,
  GrantRole,
  LoginService,
  MusicOptions,
  MusicType,
  Party,
  PartyId,
  PartyTrack,
  PartyUser,
  PlayerService,
  PlayerStatus,
  PollAnswer,
  QuizAnswer,
  ScheduledMessage,
  ScoreboardEntry,
  StickerId,
  SystemUser,
  Track,
  UserChatRight,
} from './entities.ts';

// ---------------------------------------------------------------------------------------------
// Input helpers
// ---------------------------------------------------------------------------------------------

/** A country code as clients send it (`DE` or `de`), normalised to lower case. */
export const CountryCodeInput = z
  .string()
  .regex(/^[a-zA-Z]{2}$/, 'Expected a two-letter country code')
  .transform((code) => code.toLowerCase());
export type CountryCodeInput = z.infer<typeof CountryCodeInput>;

/** Trimmed chat text, 1..CHAT_TEXT_MAX_LENGTH characters. */
export const ChatText = z.string().trim().min(1).max(CHAT_TEXT_MAX_LENGTH);
export type ChatText = z.infer<typeof ChatText>;

/** Trimmed display name, 1..DISPLAY_NAME_MAX_LENGTH characters. */
export const DisplayName = z.string().trim().min(1).max(DISPLAY_NAME_MAX_LENGTH);
export type DisplayName = z.infer<typeof DisplayName>;

/** An optional field where an empty string means "absent" (spec 5: empty values are omitted). */
function emptyAsAbsent<T extends z.ZodType>(schema: T) {
  return z
    .union([z.literal(''), schema])
    .optional()
    .transform((value) => (value === '' ? undefined : value) as Exclude<z.output<T>, ''> | undefined);
}

/** Options of a poll or quiz question: 2..10 trimmed, non-empty strings. */
const PollOptions = z
  .array(z.string().trim().min(1).max(POLL_OPTION_MAX_LENGTH))
  .min(POLL_OPTIONS_MIN)
  .max(POLL_OPTIONS_MAX);

/** Question text of a poll or quiz question. */
const PollQuestionText = z.string().trim().min(1).max(POLL_QUESTION_MAX_LENGTH);

/** How long a poll, quiz question or scoreboard stays open, in seconds. */
const DurationSeconds = z.number().int().min(POLL_DURATION_MIN_SECONDS).max(POLL_DURATION_MAX_SECONDS);

// ---------------------------------------------------------------------------------------------
// Path parameters
// ---------------------------------------------------------------------------------------------

/** `{id}` of `/api/parties/{id}/...`. */
export const PartyIdParam = z.object({ id: PartyId });
export type PartyIdParam = z.infer<typeof PartyIdParam>;

/** `/api/parties/{id}/versions/{version}/restore`: a saved version of the party's settings. */
export const PartyVersionParams = PartyIdParam.extend({ version: VersionNumber });
export type PartyVersionParams = z.infer<typeof PartyVersionParams>;

/** `/api/parties/{id}/tracks/{trackId}/votes`. */
export const PartyTrackParams = PartyIdParam.extend({ trackId: Id });
export type PartyTrackParams = z.infer<typeof PartyTrackParams>;

/** `/api/parties/{id}/chat/messages/{messageId}`. */
export const ChatMessageParams = PartyIdParam.extend({ messageId: Id });
export type ChatMessageParams = z.infer<typeof ChatMessageParams>;

/** `/api/parties/{id}/chat/polls/{pollId}/answers`. */
export const PollParams = PartyIdParam.extend({ pollId: Id });
export type PollParams = z.infer<typeof PollParams>;

/** `/api/parties/{id}/chat/quiz/questions/{questionId}/answers`. */
export const QuizQuestionParams = PartyIdParam.extend({ questionId: Id });
export type QuizQuestionParams = z.infer<typeof QuizQuestionParams>;

/** `/api/parties/{id}/chat/schedule/{scheduleId}` (the spec writes `{id}` twice; ours is named). */
export const ScheduledMessageParams = PartyIdParam.extend({ scheduleId: Id });
export type ScheduledMessageParams = z.infer<typeof ScheduledMessageParams>;

/** `/api/parties/{id}/users/{userId}/...` and `/api/parties/{id}/uploads/profile/{userId}`. */
export const PartyUserParams = PartyIdParam.extend({ userId: Id });
export type PartyUserParams = z.infer<typeof PartyUserParams>;

/** `/api/parties/{id}/grants/{service}/{serviceId}`. */
export const GrantByServiceParams = PartyIdParam.extend({ service: LoginService, serviceId: Id });
export type GrantByServiceParams = z.infer<typeof GrantByServiceParams>;

/** `/api/parties/{id}/grants/{token}`. */
export const GrantByTokenParams = PartyIdParam.extend({ token: Id });
export type GrantByTokenParams = z.infer<typeof GrantByTokenParams>;

/** `{id}` of `/api/spotify/{albums|playlists|artists}/{id}`: the id on Spotify. */
export const CatalogIdParam = z.object({ id: Id });
export type CatalogIdParam = z.infer<typeof CatalogIdParam>;

/** `/api/{service}/{albums|playlists}/{country}/{id}`: catalogue lookups of other services. */
export const ServiceCatalogParams = z.object({
  service: PlayerService,
  /** Storefront country. */
  country: CountryCodeInput,
  id: Id,
});
export type ServiceCatalogParams = z.infer<typeof ServiceCatalogParams>;

// ---------------------------------------------------------------------------------------------
// Party
// ---------------------------------------------------------------------------------------------

/** Response of `GET /api/parties/{id}`. */
export const GetPartyResponse = Party;
export type GetPartyResponse = z.infer<typeof GetPartyResponse>;

/** A follow entry as the admin tool sends it: an empty `id` is allowed, the server drops it. */
export const FollowEntryInput = FollowEntry.extend({ id: z.string().max(ID_MAX_LENGTH) });
export type FollowEntryInput = z.infer<typeof FollowEntryInput>;

/**
 * Body of `PUT /api/parties/{id}` (CMS). Every field is optional: absent fields keep their value.
 * `starts_at` and `ends_at` are our additions to the spec's list.
 */
export const PutPartyBody = z
  .strictObject({
    name: z.string().trim().min(1).max(PARTY_NAME_MAX_LENGTH).optional(),
    voting_enabled: z.boolean().optional(),
    auto_start: z.boolean().optional(),
    wp_post_id: z.number().int().nullable().optional(),
    frontend: FrontendSettings.optional(),
    /** Entries with an empty `id` are dropped by the server (spec 3). */
    follow: z.array(FollowEntryInput).max(FOLLOW_ENTRIES_MAX).optional(),
    login_required: z.boolean().optional(),
    starts_at: IsoDateTime.optional(),
    /** Null makes the party open-ended. */
    ends_at: IsoDateTime.nullable().optional(),
  })
  .refine((body) => !body.starts_at || !body.ends_at || Date.parse(body.ends_at) > Date.parse(body.starts_at), {
    message: 'ends_at must be after starts_at',
    path: ['ends_at'],
  });
export type PutPartyBody = z.infer<typeof PutPartyBody>;

/** Response of `GET /api/parties` (ours, CMS): every party, newest start first, at most PARTY_LIST_MAX. */
export const PartiesResponse = listOf(Party);
export type PartiesResponse = z.infer<typeof PartiesResponse>;

/** Response of `PUT /api/parties/{id}`: the stored party. */
export const PutPartyResponse = Party;
export type PutPartyResponse = z.infer<typeof PutPartyResponse>;

/** The party's run state, answered by start and stop. */
export const PartyRunState = z.object({
  /** Non-null while started; after a stop the timeline is paused (or null if nothing played). */
  status: PlayerStatus.nullable(),
  started_at: IsoDateTime.nullable(),
});
export type PartyRunState = z.infer<typeof PartyRunState>;

/** Response of `POST /api/parties/{id}/start`. */
export const StartPartyResponse = PartyRunState;
export type StartPartyResponse = z.infer<typeof StartPartyResponse>;

/** Response of `POST /api/parties/{id}/stop`. */
export const StopPartyResponse = PartyRunState;
export type StopPartyResponse = z.infer<typeof StopPartyResponse>;

/** Response of `POST /api/parties/{id}/end`: the new end time (now), which the client stores. */
export const EndPartyResponse = z.object({ ends_at: IsoDateTime });
export type EndPartyResponse = z.infer<typeof EndPartyResponse>;

/** Response of `GET /api/parties/{id}/player/status`. */
export const PlayerStatusResponse = z.object({
  status: PlayerStatus.nullable(),
  /** Server clock when the answer was made, for aligning the client clock. */
  server_time_ms: EpochMs,
});
export type PlayerStatusResponse = z.infer<typeof PlayerStatusResponse>;

// ---------------------------------------------------------------------------------------------
// Search (catalogue lookups for the admin tool)
// ---------------------------------------------------------------------------------------------

/** An artist as named by a catalogue item. */
export const CatalogArtistRef = z.object({ id: Id, name: z.string() });
export type CatalogArtistRef = z.infer<typeof CatalogArtistRef>;

/** An album as listed on an artist. */
export const CatalogAlbumRef = z.object({ id: Id, name: z.string(), image: z.string().nullable() });
export type CatalogAlbumRef = z.infer<typeof CatalogAlbumRef>;

/** Response of `GET /api/spotify/albums/{id}` and `GET /api/{service}/albums/{country}/{id}`. */
export const MusicAlbum = z.object({
  id: Id,
  name: z.string(),
  artists: z.array(CatalogArtistRef),
  image: z.string().nullable(),
  /** As the service gives it: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`. */
  release_date: z.string().nullable(),
  tracks: z.array(Track),
});
export type MusicAlbum = z.infer<typeof MusicAlbum>;

/** Response of `GET /api/spotify/playlists/{id}` and `GET /api/{service}/playlists/{country}/{id}`. */
export const MusicPlaylist = z.object({
  id: Id,
  name: z.string(),
  /** Display name of the playlist's owner. */
  owner: z.string(),
  image: z.string().nullable(),
  tracks: z.array(Track),
});
export type MusicPlaylist = z.infer<typeof MusicPlaylist>;

/** Response of `GET /api/spotify/artists/{id}`. */
export const MusicArtist = z.object({
  id: Id,
  name: z.string(),
  image: z.string().nullable(),
  albums: z.array(CatalogAlbumRef),
});
export type MusicArtist = z.infer<typeof MusicArtist>;

// ---------------------------------------------------------------------------------------------
// Tracks and votes
// ---------------------------------------------------------------------------------------------

/** Response of `GET /api/parties/{id}/tracks` (and of `PUT`). */
export const PartyTracksResponse = z.object({
  /** The party's tracks in album or playlist order, without the excluded ones. */
  items: z.array(PartyTrack),
  options: MusicOptions.nullable(),
  /** Ids of tracks of the album or playlist that the party leaves out. */
  excluded: z.array(Id),
});
export type PartyTracksResponse = z.infer<typeof PartyTracksResponse>;

/** Body of `PUT /api/parties/{id}/tracks` (CMS): which album or playlist the party plays. */
export const PutTracksBody = z.strictObject({
  type: MusicType,
  /** Album or playlist id on `service`. */
  id: Id,
  service: PlayerService.default(MUSIC_SERVICE_DEFAULT),
  country: CountryCodeInput.default(DEFAULT_COUNTRY),
  /** Track ids to leave out. */
  excluded: z.array(Id).max(EXCLUDED_TRACKS_MAX).optional(),
});
export type PutTracksBody = z.infer<typeof PutTracksBody>;

/** Response of `PUT /api/parties/{id}/tracks`. */
export const PutTracksResponse = PartyTracksResponse;
export type PutTracksResponse = z.infer<typeof PutTracksResponse>;

/** Response of `POST` and `DELETE /api/parties/{id}/tracks/{trackId}/votes`. */
export const VoteResponse = z.object({
  track_id: Id,
  /** The track's vote count after the call. */
  votes: NonNegativeInt,
  /** Whether the caller now votes for the track. */
  voted: z.boolean(),
});
export type VoteResponse = z.infer<typeof VoteResponse>;

// ---------------------------------------------------------------------------------------------
// Chat
// ---------------------------------------------------------------------------------------------

/** Query of `GET /api/parties/{id}/chat/messages`: the newest `limit` messages before `before`. */
export const ChatMessagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(CHAT_FETCH_MAX_LIMIT).default(CHAT_FETCH_DEFAULT_LIMIT),
  /** Cursor: only messages with `timestamp_ms` before this time (ms since epoch). */
  before: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * Tie-breaker of the cursor: with `before`, also returns messages of exactly `before` ms whose
   * `seq_id` is below this one (messages can share a millisecond). Pass the oldest message's.
   */
  before_seq_id: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * Catch-up cursor (instead of `before`): the messages numbered after this `seq_id`, oldest
   * first, `limit` at a time. The app pages with it after a `resync`, from the last message it
   * has, so a fan back from a server restart misses nothing however long the gap.
   */
  after_seq_id: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type ChatMessagesQuery = z.infer<typeof ChatMessagesQuery>;

/** Response of `GET .../chat/messages` and `GET .../chat/recent`, oldest first. */
export const ChatMessagesResponse = listOf(ChatMessage);
export type ChatMessagesResponse = z.infer<typeof ChatMessagesResponse>;

/** Body of `POST /api/parties/{id}/chat/messages`: a text, a sticker, or both. */
export const PostChatMessageBody = z
  .strictObject({
    reply_to_message_id: Id.nullable().optional(),
    text: ChatText.optional(),
    /** Sticker id; allowed only when the party's sticker list is non-empty. */
    sticker: StickerId.nullable().optional(),
  })
  .refine((body) => body.text !== undefined || (body.sticker !== undefined && body.sticker !== null), {
    message: 'text or sticker is required',
    path: ['text'],
  });
export type PostChatMessageBody = z.infer<typeof PostChatMessageBody>;

/** Response of the chat posting calls: the message as stored (also broadcast on the socket). */
export const PostChatMessageResponse = ChatMessage;
export type PostChatMessageResponse = z.infer<typeof PostChatMessageResponse>;

/** Body of `POST /api/parties/{id}/chat/media`: a video or photo (URLs from `uploads/media`). */
export const PostChatMediaBody = z
  .strictObject({
    text: ChatText.optional(),
    video: WebUrl.nullable().optional(),
    photo: WebUrl.nullable().optional(),
  })
  .refine((body) => Boolean(body.video) || Boolean(body.photo), {
    message: 'video or photo is required',
    path: ['video'],
  });
export type PostChatMediaBody = z.infer<typeof PostChatMediaBody>;

/** Body of `POST /api/parties/{id}/chat/popups` (host/admin). */
export const PostPopupBody = z.strictObject({
  /** Target service; absent (or an empty string, normalised to absent) targets every fan. */
  service: emptyAsAbsent(PlayerService),
  /** Only non-premium fans see it. */
  free_only: z.boolean().default(false),
  message: ChatText,
  is_closeable: z.boolean().default(true),
  is_restart: z.boolean().default(false),
});
export type PostPopupBody = z.infer<typeof PostPopupBody>;

/** Body of `POST /api/parties/{id}/chat/polls` (host/admin). */
export const PostPollBody = z.strictObject({
  question: PollQuestionText,
  /** With `set_next_track`, each option must be a track id of the party. */
  options: PollOptions,
  duration_seconds: DurationSeconds,
  /** The app creates polls with false (spec 5). */
  set_next_track: z.boolean().default(false),
});
export type PostPollBody = z.infer<typeof PostPollBody>;

/** Body of `POST .../chat/polls/{pollId}/answers` and `.../chat/quiz/questions/{questionId}/answers`. */
export const AnswerBody = z.strictObject({
  /** Index into the options. A fan answers once; a second answer is a 409. */
  answer_id: StoredNonNegativeInt,
});
export type AnswerBody = z.infer<typeof AnswerBody>;

/** Response of `POST .../chat/polls/{pollId}/answers`: the recorded answer. */
export const AnswerPollResponse = PollAnswer;
export type AnswerPollResponse = z.infer<typeof AnswerPollResponse>;

/** Response of `POST .../chat/quiz/questions/{questionId}/answers`: the recorded answer. */
export const AnswerQuizResponse = QuizAnswer;
export type AnswerQuizResponse = z.infer<typeof AnswerQuizResponse>;

/** Body of `POST /api/parties/{id}/chat/quiz/questions` (host/admin). */
export const PostQuizQuestionBody = z
  .strictObject({
    question: PollQuestionText,
    options: PollOptions,
    /** Index of the correct option. */
    correct_answer: StoredNonNegativeInt,
    /** The app creates quiz questions with false (spec 5). */
    set_next_track: z.boolean().default(false),
    duration_seconds: DurationSeconds,
  })
  .refine((body) => body.correct_answer < body.options.length, {
    message: 'correct_answer must index one of the options',
    path: ['correct_answer'],
  });
export type PostQuizQuestionBody = z.infer<typeof PostQuizQuestionBody>;

/**
 * Body of `POST /api/parties/{id}/chat/prepared` (host/admin): a poll or quiz question kept on the
 * server for later, as `postPoll` or `postQuizQuestion` will send it; nothing reaches the fans
 * until a host starts it through that call. At most `PREPARED_QUESTIONS_MAX` a party.
 */
export const PostPreparedQuestionBody = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('poll'), body: PostPollBody }),
  z.strictObject({ kind: z.literal('quiz'), body: PostQuizQuestionBody }),
]);
export type PostPreparedQuestionBody = z.input<typeof PostPreparedQuestionBody>;

/** A prepared poll or quiz question of a party. */
export const PreparedQuestion = z.discriminatedUnion('kind', [
  z.object({ id: Id, kind: z.literal('poll'), body: PostPollBody, created_at: IsoDateTime }),
  z.object({ id: Id, kind: z.literal('quiz'), body: PostQuizQuestionBody, created_at: IsoDateTime }),
]);
export type PreparedQuestion = z.infer<typeof PreparedQuestion>;

/** Response of `GET /api/parties/{id}/chat/prepared`: oldest first. */
export const PreparedQuestionsResponse = z.object({ items: z.array(PreparedQuestion).max(PREPARED_QUESTIONS_MAX) });
export type PreparedQuestionsResponse = z.infer<typeof PreparedQuestionsResponse>;

/** `/api/parties/{id}/chat/prepared/{preparedId}`. */
export const PreparedQuestionParams = PartyIdParam.extend({ preparedId: Id });
export type PreparedQuestionParams = z.infer<typeof PreparedQuestionParams>;

/** Body of `POST /api/parties/{id}/chat/quiz/scoreboard` (host/admin): posts the top `count`. */
export const PostScoreboardBody = z.strictObject({
  count: z.number().int().min(1).max(SCOREBOARD_MAX_COUNT),
  /** How long the scoreboard stays shown, in seconds. */
  duration_seconds: DurationSeconds.optional(),
});
export type PostScoreboardBody = z.infer<typeof PostScoreboardBody>;

/** Query of `GET /api/parties/{id}/chat/quiz/scoreboard`. */
export const ScoreboardQuery = z.object({
  count: z.coerce.number().int().min(1).max(SCOREBOARD_MAX_COUNT).default(SCOREBOARD_DEFAULT_COUNT),
});
export type ScoreboardQuery = z.infer<typeof ScoreboardQuery>;

/** Response of `GET /api/parties/{id}/chat/quiz/scoreboard`. */
export const ScoreboardResponse = z.object({
  /** Best first. */
  items: z.array(ScoreboardEntry),
  /** Number of quiz questions asked so far. */
  total_questions: NonNegativeInt,
});
export type ScoreboardResponse = z.infer<typeof ScoreboardResponse>;

/** Response of `GET /api/parties/{id}/chat/schedule` (CMS). */
export const ScheduledMessagesResponse = listOf(ScheduledMessage);
export type ScheduledMessagesResponse = z.infer<typeof ScheduledMessagesResponse>;

/** Longest repeat interval of a scheduled message: a year (also fits the `integer` column). */
export const SCHEDULE_RECURRING_MAX_SECONDS = 366 * 24 * 3600;

/** Body of `POST /api/parties/{id}/chat/schedule` (CMS). */
export const PostScheduledMessageBody = z.strictObject({
  text: ChatText,
  sticker: StickerId.nullable().optional(),
  post_at: IsoDateTime,
  /** Repeat interval in seconds; 0, null or absent mean "once" and are normalised to null. */
  recurring_interval: z
    .number()
    .int()
    .nonnegative()
    .max(SCHEDULE_RECURRING_MAX_SECONDS)
    .nullable()
    .optional()
    .transform((seconds) => (seconds ? seconds : null)),
});
export type PostScheduledMessageBody = z.infer<typeof PostScheduledMessageBody>;

/** Response of `POST /api/parties/{id}/chat/schedule`. */
export const PostScheduledMessageResponse = ScheduledMessage;
export type PostScheduledMessageResponse = z.infer<typeof PostScheduledMessageResponse>;

/**
 * Body and response of `PUT /api/parties/{id}/chat/slow_mode` (host/admin, ours): party-wide slow
 * mode, one message per `seconds` per listener; 0 switches it off.
 */
export const SlowModeBody = z.strictObject({ seconds: z.number().int().min(0).max(CHAT_SLOW_MODE_MAX_SECONDS) });
export type SlowModeBody = z.infer<typeof SlowModeBody>;
export const SlowModeResponse = z.object({ seconds: NonNegativeInt });
export type SlowModeResponse = z.infer<typeof SlowModeResponse>;

/** Body of `POST /api/parties/{id}/chat/fake` (CMS): generated chat traffic, our load generator. */
export const FakeChatBody = z.strictObject({
  messages_per_second: z.number().positive().max(FAKE_CHAT_MAX_MESSAGES_PER_SECOND),
  /** Seconds after which the traffic stops by itself. */
  stop_after: z.number().int().min(1).max(FAKE_CHAT_MAX_SECONDS),
});
export type FakeChatBody = z.infer<typeof FakeChatBody>;

// ---------------------------------------------------------------------------------------------
// Users and login
// ---------------------------------------------------------------------------------------------

/**
 * Body of `POST /api/parties/{id}/users` (signup). An empty `country` or `email` counts as absent
 * (spec 5). A taken `email` or `display_name` answers 409 `DuplicateSignupError` naming the field.
 */
export const SignupBody = z.strictObject({
  real_name: z.string().trim().min(1).max(REAL_NAME_MAX_LENGTH),
  display_name: DisplayName,
  country: emptyAsAbsent(CountryCodeInput),
  email: emptyAsAbsent(z.email()),
  /** One of our upload URLs (`uploads/profile`) or an https URL; the server checks which. */
  profile_picture: WebUrl.nullable().optional(),
  /** Sticker id used as avatar: one of the party's sticker list (checked by the server). */
  profile_sticker: StickerId.nullable().optional(),
  /** Accepted the competition terms (when `competitionIsEnabled`). */
  competition_accepted: z.boolean().optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;

/** Response of `POST /api/parties/{id}/users`. */
export const SignupResponse = z.object({
  /** The new party user's id. */
  id: Id,
  /** A new bearer token when the fan signed up without provider login; else null (keep yours). */
  access_token: z.string().nullable(),
});
export type SignupResponse = z.infer<typeof SignupResponse>;

/**
 * Query of `GET /api/parties/{id}/users` (host/admin), e.g. `?can_chat=False` for the blocked
 * users. Parsed to a boolean.
 */
export const UsersQuery = z.object({
  can_chat: z
    .enum(['True', 'False', 'true', 'false'])
    .transform((flag) => flag.toLowerCase() === 'true')
    .optional(),
});
export type UsersQuery = z.infer<typeof UsersQuery>;

/** Response of `GET /api/parties/{id}/users`. */
export const UsersResponse = listOf(PartyUser);
export type UsersResponse = z.infer<typeof UsersResponse>;

/** Response of `GET /api/parties/{id}/users/me`; 403 until the fan has signed up. */
export const PartyUserResponse = PartyUser;
export type PartyUserResponse = z.infer<typeof PartyUserResponse>;

/** Query of `GET /api/users/me`: with `party_id`, the answer also says whether the caller signed up there. */
export const SystemMeQuery = z.object({ party_id: PartyId.optional() });
export type SystemMeQuery = z.infer<typeof SystemMeQuery>;

/**
 * Response of `GET /api/users/me`. With `party_id`, `party_user` is the caller's profile in that
 * party, or null until they sign up: one call tells a page both, with no 403 to read.
 */
export const SystemUserResponse = SystemUser.extend({ party_user: PartyUser.nullable().optional() });
export type SystemUserResponse = z.infer<typeof SystemUserResponse>;

/** Response of `GET /api/users/me/service_token`: the fan's streaming-service token. */
export const ServiceTokenResponse = z.object({
  token: z.string(),
  /** Expiry in ms since epoch; null when the token does not expire. */
  expires_at: EpochMs.nullable(),
});
export type ServiceTokenResponse = z.infer<typeof ServiceTokenResponse>;

/** Body of `POST /api/auth/apple/login`. */
export const AppleLoginBody = z.strictObject({
  /** The Music User Token from MusicKit. */
  music_user_token: headerToken(PROVIDER_TOKEN_MAX_LENGTH),
  /** A grant token (from a `/grant/{grantToken}` link) to redeem with this login. */
  grant_token: Id.nullable().optional(),
  party_id: PartyId.nullable().optional(),
});
export type AppleLoginBody = z.infer<typeof AppleLoginBody>;

/** Response of `POST /api/auth/apple/login`: our bearer token for the fan. */
export const AccessTokenResponse = z.object({ access_token: z.string().min(1) });
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;

/** Query of `GET /api/auth/spotify/login`: a browser redirect to Spotify's consent page. */
export const SpotifyLoginQuery = z.object({
  /** Where the browser returns after login, with `LoginRedirectParams` added. */
  redirect_uri: z.url({ protocol: /^https?$/ }).max(URL_MAX_LENGTH),
  party_id: PartyId.optional(),
  /** A grant token to redeem with this login. */
  grant: Id.optional(),
  /** Comma-separated Spotify artist ids to follow after login. */
  artist_ids: z.string().max(URL_MAX_LENGTH).optional(),
  /** 'true' appends the result to redirect_uri's hash fragment instead of its query; the app sends 'false'. */
  hash_output: z.enum(['true', 'false']).default('false'),
});
export type SpotifyLoginQuery = z.infer<typeof SpotifyLoginQuery>;

/** Successful login result added to `redirect_uri` (spec 4, login flow step 1). */
export const LoginRedirectSuccess = z.object({
  access_token: z.string().min(1),
  service_token: z.string().min(1),
  /** Expiry of `service_token` in ms since epoch. */
  service_expires_at: z.coerce.number().nonnegative(),
  auth_service: LoginService,
});
export type LoginRedirectSuccess = z.infer<typeof LoginRedirectSuccess>;

/** Failed login result added to `redirect_uri`. */
export const LoginRedirectError = z.object({
  /** Machine-readable reason, e.g. `access_denied`. */
  error: z.string().min(1),
  auth_service: LoginService,
});
export type LoginRedirectError = z.infer<typeof LoginRedirectError>;

/** The query put on `redirect_uri` after a provider login: an error, or the tokens. */
export const LoginRedirectParams = z.union([LoginRedirectError, LoginRedirectSuccess]);
export type LoginRedirectParams = z.infer<typeof LoginRedirectParams>;

/**
 * Body of `POST /api/parties/{id}/grants` (CMS). `service` and `service_id` come together (a grant
 * to a streaming account) or not at all (a grant token is generated for a `/grant/{token}` link).
 */
export const PostGrantBody = z
  .strictObject({
    service: LoginService.optional(),
    service_id: Id.optional(),
    role: GrantRole,
    display_name: DisplayName,
    profile_picture: WebUrl.nullable().optional(),
    /** Grant links only: how many fans may redeem it (default GRANT_LINK_DEFAULT_MAX_USES, one). */
    max_uses: z.number().int().min(1).max(GRANT_LINK_MAX_USES).optional(),
    /** Grant links only: days until the link stops working (default GRANT_LINK_DEFAULT_TTL_DAYS, 7). */
    expires_in_days: z.number().int().min(1).max(GRANT_LINK_MAX_TTL_DAYS).optional(),
  })
  .refine((body) => (body.service === undefined) === (body.service_id === undefined), {
    message: 'service and service_id must be given together',
    path: ['service_id'],
  });
export type PostGrantBody = z.infer<typeof PostGrantBody>;

/**
 * Response of `POST /api/parties/{id}/grants`: the new grant (with its token if generated) and,
 * for a token grant, the full link to hand the new host or admin (`{party page}#/grant/{token}`);
 * the token is shown only here, so the link is too.
 */
export const PostGrantResponse = Grant.extend({ link: z.string().nullable() });
export type PostGrantResponse = z.infer<typeof PostGrantResponse>;

/** Response of `GET /api/parties/{id}/grants`. */
export const GrantsResponse = listOf(Grant);
export type GrantsResponse = z.infer<typeof GrantsResponse>;

/** Response of block (`DELETE`) and unblock (`PUT`) `/api/parties/{id}/users/{userId}/can_chat`. */
export const UserChatRightResponse = UserChatRight;
export type UserChatRightResponse = z.infer<typeof UserChatRightResponse>;

// ---------------------------------------------------------------------------------------------
// Uploads
// ---------------------------------------------------------------------------------------------

/** Response of the multipart upload calls: where the stored file is served. */
export const UploadResponse = z.object({ url: WebUrl });
export type UploadResponse = z.infer<typeof UploadResponse>;
