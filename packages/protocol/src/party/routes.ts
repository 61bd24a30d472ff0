/**
 * Every call of spec `listening-party.md`, section 7, as data: the typed client, the server's
 * route registration and the OpenAPI document are built on this table.
 */
import type { z } from 'zod';
import {
  AccessTokenResponse,
  AnswerBody,
  AnswerPollResponse,
  AnswerQuizResponse,
  AppleLoginBody,
  CatalogIdParam,
  ChatMessageParams,
  ChatMessagesQuery,
  ChatMessagesResponse,
  EndPartyResponse,
  FakeChatBody,
  GetPartyResponse,
  GrantByServiceParams,
  GrantByTokenParams,
  GrantsResponse,
  MusicAlbum,
  MusicArtist,
  MusicPlaylist,
  PartyIdParam,
  PartyTrackParams,
  PartyTracksResponse,
  PartyUserParams,
  PartyUserResponse,
  PlayerStatusResponse,
  PollParams,
  PostChatMediaBody,
  PostChatMessageBody,
  PostChatMessageResponse,
  PostGrantBody,
  PostGrantResponse,
  PostPollBody,
  PostPopupBody,
  PostQuizQuestionBody,
  PostScheduledMessageBody,
  PostScheduledMessageResponse,
  PostScoreboardBody,
  PutPartyBody,
  PutPartyResponse,
  PutTracksBody,
  PutTracksResponse,
  QuizQuestionParams,
  ScheduledMessageParams,
  ScheduledMessagesResponse,
  ScoreboardQuery,
  ScoreboardResponse,
  ServiceCatalogParams,
  ServiceTokenResponse,
  SignupBody,
  SignupResponse,
  SpotifyLoginQuery,
  StartPartyResponse,
  StopPartyResponse,
  SystemUserResponse,
  UploadResponse,
  UserChatRightResponse,
  UsersQuery,
  UsersResponse,
  VoteResponse,
} from './calls.ts';

/** HTTP methods the API uses. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * How a call is authenticated:
 * - `none`: public.
 * - `bearer`: a fan's `Authorization: Bearer <access_token>`.
 * - `bearer_optional`: a bearer token is read when present (signup to a party without
 *   `login_required` needs none).
 * - `bearer_host`: bearer of a user whose party role is `host` or `admin` (start additionally
 *   follows `partyStartAllowed`).
 * - `cms`: a back-office user's CMS token header (the admin tool).
 */
export const ROUTE_AUTH = ['none', 'bearer', 'bearer_optional', 'bearer_host', 'cms'] as const;
export type RouteAuth = (typeof ROUTE_AUTH)[number];

/** One call of the API. */
export interface RouteDef {
  method: HttpMethod;
  /** Fastify-style path with `:params`. */
  path: string;
  auth: RouteAuth;
  /** One line for the OpenAPI document. */
  summary: string;
  /** Path parameters; its keys are exactly the path's `:params`. */
  params?: z.ZodObject;
  query?: z.ZodType;
  /** JSON body. Absent for calls without a body and for multipart uploads. */
  body?: z.ZodType;
  /** JSON response of a 2xx answer. Absent means `204 No Content` (or a redirect). */
  response?: z.ZodType;
  /** The body is `multipart/form-data` with one file field `file`. */
  multipart?: true;
  /** The answer is a browser redirect (302), not JSON. */
  redirect?: true;
}

/** Every call of the listening-party API, keyed by call name. */
export const PARTY_ROUTES = {
  // --- Party ------------------------------------------------------------------------------
  getParty: {
    method: 'GET',
    path: '/api/parties/:id',
    auth: 'none',
    summary: 'Get a party (public: the app reads it before login)',
    params: PartyIdParam,
    response: GetPartyResponse,
  },
  putParty: {
    method: 'PUT',
    path: '/api/parties/:id',
    auth: 'cms',
    summary: 'Create or edit a party',
    params: PartyIdParam,
    body: PutPartyBody,
    response: PutPartyResponse,
  },
  startParty: {
    method: 'POST',
    path: '/api/parties/:id/start',
    auth: 'bearer_host',
    summary: 'Start the party (roles per partyStartAllowed)',
    params: PartyIdParam,
    response: StartPartyResponse,
  },
  stopParty: {
    method: 'POST',
    path: '/api/parties/:id/stop',
    auth: 'cms',
    summary: 'Stop (pause) the party (CMS token, or a host/admin bearer from the app)',
    params: PartyIdParam,
    response: StopPartyResponse,
  },
  endParty: {
    method: 'POST',
    path: '/api/parties/:id/end',
    auth: 'cms',
    summary: 'End the party now (CMS token, or a host/admin bearer from the app)',
    params: PartyIdParam,
    response: EndPartyResponse,
  },
  getPlayerStatus: {
    method: 'GET',
    path: '/api/parties/:id/player/status',
    auth: 'bearer',
    summary: 'Get the playback timeline',
    params: PartyIdParam,
    response: PlayerStatusResponse,
  },

  // --- Search -----------------------------------------------------------------------------
  searchSpotifyAlbum: {
    method: 'GET',
    path: '/api/spotify/albums/:id',
    auth: 'none',
    summary: 'Look up a Spotify album',
    params: CatalogIdParam,
    response: MusicAlbum,
  },
  searchSpotifyPlaylist: {
    method: 'GET',
    path: '/api/spotify/playlists/:id',
    auth: 'none',
    summary: 'Look up a Spotify playlist',
    params: CatalogIdParam,
    response: MusicPlaylist,
  },
  searchSpotifyArtist: {
    method: 'GET',
    path: '/api/spotify/artists/:id',
    auth: 'none',
    summary: 'Look up a Spotify artist',
    params: CatalogIdParam,
    response: MusicArtist,
  },
  searchServiceAlbum: {
    method: 'GET',
    path: '/api/:service/albums/:country/:id',
    auth: 'none',
    summary: "Look up an album in a service's storefront",
    params: ServiceCatalogParams,
    response: MusicAlbum,
  },
  searchServicePlaylist: {
    method: 'GET',
    path: '/api/:service/playlists/:country/:id',
    auth: 'none',
    summary: "Look up a playlist in a service's storefront",
    params: ServiceCatalogParams,
    response: MusicPlaylist,
  },

  // --- Tracks and votes -------------------------------------------------------------------
  getTracks: {
    method: 'GET',
    path: '/api/parties/:id/tracks',
    auth: 'none',
    summary: "Get the party's tracks with votes",
    params: PartyIdParam,
    response: PartyTracksResponse,
  },
  putTracks: {
    method: 'PUT',
    path: '/api/parties/:id/tracks',
    auth: 'cms',
    summary: 'Set the album or playlist of the party',
    params: PartyIdParam,
    body: PutTracksBody,
    response: PutTracksResponse,
  },
  voteTrack: {
    method: 'POST',
    path: '/api/parties/:id/tracks/:trackId/votes',
    auth: 'bearer',
    summary: 'Vote for a track',
    params: PartyTrackParams,
    response: VoteResponse,
  },
  unvoteTrack: {
    method: 'DELETE',
    path: '/api/parties/:id/tracks/:trackId/votes',
    auth: 'bearer',
    summary: 'Withdraw a vote',
    params: PartyTrackParams,
    response: VoteResponse,
  },

  // --- Chat -------------------------------------------------------------------------------
  listChatMessages: {
    method: 'GET',
    path: '/api/parties/:id/chat/messages',
    auth: 'bearer',
    summary: 'Page through chat messages',
    params: PartyIdParam,
    query: ChatMessagesQuery,
    response: ChatMessagesResponse,
  },
  listRecentChatMessages: {
    method: 'GET',
    path: '/api/parties/:id/chat/recent',
    auth: 'bearer',
    summary: 'Get the recent chat messages shown when the chat opens',
    params: PartyIdParam,
    response: ChatMessagesResponse,
  },
  postChatMessage: {
    method: 'POST',
    path: '/api/parties/:id/chat/messages',
    auth: 'bearer',
    summary: 'Post a text or sticker message',
    params: PartyIdParam,
    body: PostChatMessageBody,
    response: PostChatMessageResponse,
  },
  deleteChatMessage: {
    method: 'DELETE',
    path: '/api/parties/:id/chat/messages/:messageId',
    auth: 'bearer_host',
    summary: 'Delete a chat message (posts a deletion message)',
    params: ChatMessageParams,
  },
  postChatMedia: {
    method: 'POST',
    path: '/api/parties/:id/chat/media',
    auth: 'bearer',
    summary: 'Post a photo or video message',
    params: PartyIdParam,
    body: PostChatMediaBody,
    response: PostChatMessageResponse,
  },
  postPopup: {
    method: 'POST',
    path: '/api/parties/:id/chat/popups',
    auth: 'bearer_host',
    summary: 'Create a popup',
    params: PartyIdParam,
    body: PostPopupBody,
    response: PostChatMessageResponse,
  },
  postPoll: {
    method: 'POST',
    path: '/api/parties/:id/chat/polls',
    auth: 'bearer_host',
    summary: 'Create a poll',
    params: PartyIdParam,
    body: PostPollBody,
    response: PostChatMessageResponse,
  },
  answerPoll: {
    method: 'POST',
    path: '/api/parties/:id/chat/polls/:pollId/answers',
    auth: 'bearer',
    summary: 'Answer a poll (once)',
    params: PollParams,
    body: AnswerBody,
    response: AnswerPollResponse,
  },
  postQuizQuestion: {
    method: 'POST',
    path: '/api/parties/:id/chat/quiz/questions',
    auth: 'bearer_host',
    summary: 'Create a quiz question',
    params: PartyIdParam,
    body: PostQuizQuestionBody,
    response: PostChatMessageResponse,
  },
  answerQuizQuestion: {
    method: 'POST',
    path: '/api/parties/:id/chat/quiz/questions/:questionId/answers',
    auth: 'bearer',
    summary: 'Answer a quiz question (once)',
    params: QuizQuestionParams,
    body: AnswerBody,
    response: AnswerQuizResponse,
  },
  postScoreboard: {
    method: 'POST',
    path: '/api/parties/:id/chat/quiz/scoreboard',
    auth: 'bearer_host',
    summary: 'Post the quiz scoreboard to the chat',
    params: PartyIdParam,
    body: PostScoreboardBody,
    response: PostChatMessageResponse,
  },
  getScoreboard: {
    method: 'GET',
    path: '/api/parties/:id/chat/quiz/scoreboard',
    auth: 'bearer',
    summary: 'Get the quiz scoreboard',
    params: PartyIdParam,
    query: ScoreboardQuery,
    response: ScoreboardResponse,
  },
  clearChat: {
    method: 'DELETE',
    path: '/api/parties/:id/chat',
    auth: 'cms',
    summary: 'Delete all chat messages',
    params: PartyIdParam,
  },
  listScheduledMessages: {
    method: 'GET',
    path: '/api/parties/:id/chat/schedule',
    auth: 'cms',
    summary: 'List scheduled chat messages',
    params: PartyIdParam,
    response: ScheduledMessagesResponse,
  },
  postScheduledMessage: {
    method: 'POST',
    path: '/api/parties/:id/chat/schedule',
    auth: 'cms',
    summary: 'Schedule a chat message',
    params: PartyIdParam,
    body: PostScheduledMessageBody,
    response: PostScheduledMessageResponse,
  },
  deleteScheduledMessage: {
    method: 'DELETE',
    path: '/api/parties/:id/chat/schedule/:scheduleId',
    auth: 'cms',
    summary: 'Delete a scheduled chat message',
    params: ScheduledMessageParams,
  },
  startFakeChat: {
    method: 'POST',
    path: '/api/parties/:id/chat/fake',
    auth: 'cms',
    summary: 'Start fake chat traffic (load generator)',
    params: PartyIdParam,
    body: FakeChatBody,
  },
  stopFakeChat: {
    method: 'DELETE',
    path: '/api/parties/:id/chat/fake',
    auth: 'cms',
    summary: 'Stop fake chat traffic',
    params: PartyIdParam,
  },

  // --- Users and login --------------------------------------------------------------------
  signup: {
    method: 'POST',
    path: '/api/parties/:id/users',
    auth: 'bearer_optional',
    summary: 'Sign up for the party',
    params: PartyIdParam,
    body: SignupBody,
    response: SignupResponse,
  },
  listUsers: {
    method: 'GET',
    path: '/api/parties/:id/users',
    auth: 'bearer_host',
    summary: 'List party users (e.g. the blocked ones)',
    params: PartyIdParam,
    query: UsersQuery,
    response: UsersResponse,
  },
  getPartyMe: {
    method: 'GET',
    path: '/api/parties/:id/users/me',
    auth: 'bearer',
    summary: "Get the caller's party profile (403 until signed up)",
    params: PartyIdParam,
    response: PartyUserResponse,
  },
  getSystemMe: {
    method: 'GET',
    path: '/api/users/me',
    auth: 'bearer',
    summary: "Get the caller's system-wide profile",
    response: SystemUserResponse,
  },
  getServiceToken: {
    method: 'GET',
    path: '/api/users/me/service_token',
    auth: 'bearer',
    summary: "Get the caller's streaming-service token",
    response: ServiceTokenResponse,
  },
  logout: {
    method: 'DELETE',
    path: '/api/auth/session',
    auth: 'bearer',
    summary: 'Log out (revoke the access token)',
  },
  listGrants: {
    method: 'GET',
    path: '/api/parties/:id/grants',
    auth: 'cms',
    summary: "List the party's grants",
    params: PartyIdParam,
    response: GrantsResponse,
  },
  postGrant: {
    method: 'POST',
    path: '/api/parties/:id/grants',
    auth: 'cms',
    summary: 'Grant host or admin to an account, or create a grant token',
    params: PartyIdParam,
    body: PostGrantBody,
    response: PostGrantResponse,
  },
  deleteGrantByService: {
    method: 'DELETE',
    path: '/api/parties/:id/grants/:service/:serviceId',
    auth: 'cms',
    summary: "Revoke an account's grant",
    params: GrantByServiceParams,
  },
  deleteGrantByToken: {
    method: 'DELETE',
    path: '/api/parties/:id/grants/:token',
    auth: 'cms',
    summary: 'Revoke a grant token',
    params: GrantByTokenParams,
  },
  blockUser: {
    method: 'DELETE',
    path: '/api/parties/:id/users/:userId/can_chat',
    auth: 'bearer_host',
    summary: 'Block a user from the chat',
    params: PartyUserParams,
    response: UserChatRightResponse,
  },
  unblockUser: {
    method: 'PUT',
    path: '/api/parties/:id/users/:userId/can_chat',
    auth: 'bearer_host',
    summary: 'Allow a user back into the chat',
    params: PartyUserParams,
    response: UserChatRightResponse,
  },
  deleteUsers: {
    method: 'DELETE',
    path: '/api/parties/:id/users',
    auth: 'cms',
    summary: 'Remove all users of the party',
    params: PartyIdParam,
  },
  appleLogin: {
    method: 'POST',
    path: '/api/auth/apple/login',
    auth: 'none',
    summary: 'Log in with an Apple Music user token',
    body: AppleLoginBody,
    response: AccessTokenResponse,
  },
  spotifyLogin: {
    method: 'GET',
    path: '/api/auth/spotify/login',
    auth: 'none',
    summary: 'Start the Spotify login (browser redirect)',
    query: SpotifyLoginQuery,
    redirect: true,
  },

  // --- Uploads ----------------------------------------------------------------------------
  uploadProfile: {
    method: 'POST',
    path: '/api/parties/:id/uploads/profile',
    auth: 'bearer',
    summary: "Upload the caller's profile picture",
    params: PartyIdParam,
    multipart: true,
    response: UploadResponse,
  },
  uploadProfileFor: {
    method: 'POST',
    path: '/api/parties/:id/uploads/profile/:userId',
    auth: 'cms',
    summary: "Upload another user's profile picture",
    params: PartyUserParams,
    multipart: true,
    response: UploadResponse,
  },
  uploadAdminProfile: {
    method: 'POST',
    path: '/api/parties/:id/uploads/admin/profile',
    auth: 'cms',
    summary: 'Upload a profile picture for a grant (host or admin)',
    params: PartyIdParam,
    multipart: true,
    response: UploadResponse,
  },
  uploadMedia: {
    method: 'POST',
    path: '/api/parties/:id/uploads/media',
    auth: 'bearer',
    summary: 'Upload a chat photo or video',
    params: PartyIdParam,
    multipart: true,
    response: UploadResponse,
  },
} as const satisfies Record<string, RouteDef>;

/** Name of a call of the API. */
export type PartyRouteName = keyof typeof PARTY_ROUTES;
