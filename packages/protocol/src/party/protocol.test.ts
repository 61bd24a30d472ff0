import { describe, it, expect } from 'vitest';
import {
  AppleLoginBody,
  CHAT_BATCH_WINDOW_MS,
  CHAT_FETCH_DEFAULT_LIMIT,
  CHAT_INITIAL_MESSAGES,
  CHAT_MESSAGE_TYPES,
  CHAT_TEXT_MAX_LENGTH,
  ChatMessage,
  ChatMessagesQuery,
  ClientFrame,
  CloseCode,
  DEFAULT_COUNTRY,
  DEFAULT_LOCALE,
  DEFAULT_STICKER_COUNT,
  DEFAULT_STICKERS,
  ErrorBody,
  FOLLOW_TYPES,
  FONTS,
  FrontendSettings,
  IS_AUTO_START_DEFAULT,
  IS_VOTE_DEFAULT,
  LOGIN_REQUIRED_DEFAULT,
  LOGIN_SERVICES,
  LoginRedirectParams,
  MOBILE_BREAKPOINT_PX,
  MUSIC_SERVICE_DEFAULT,
  MUSIC_TYPES,
  OLDER_MESSAGES_CURSOR_ROUND_MS,
  OLDER_MESSAGES_FETCH_LIMIT,
  OLDER_MESSAGES_KEEP,
  PARTY_ROUTES,
  PING_TEXT,
  PLAYER_SERVICES,
  PONG_TEXT,
  PRODUCT_VERSION,
  Party,
  PostChatMediaBody,
  PostChatMessageBody,
  PostGrantBody,
  PostPollBody,
  PostPopupBody,
  PostQuizQuestionBody,
  PostScheduledMessageBody,
  PutPartyBody,
  PutTracksBody,
  RECONNECT_RETRY_CAP,
  ROLES,
  SCRIPT_LOAD_TIMEOUT_MS,
  SERVICE_TOKEN_REFRESH_WINDOW_MS,
  SOCKET_HEARTBEAT_MS,
  SOCKET_PATH,
  START_ALLOWED,
  START_ALLOWED_DEFAULT,
  ServerEvent,
  ServerFrame,
  SignupBody,
  UsersQuery,
  WAITING_ROOM_DEFAULT_MINUTES,
  isSequencedEvent,
  parseClientMessage,
} from '../index.ts';
import type { RouteDef } from '../index.ts';

const track = {
  id: 't1',
  name: 'Intro',
  artists: ['Band'],
  album: 'Record',
  duration_ms: 180_000,
  image: null,
  service: 'spotify',
  hls_url: null,
};
const status = { track, progress_ms: 1000, is_paused: false, timestamp_ms: 1_700_000_000_000 };

describe('spec 9: business constants and limits', () => {
  it('9 chat: waiting room, initial messages, older-message fetch, fetch limit, batch window', () => {
    expect(WAITING_ROOM_DEFAULT_MINUTES).toBe(30);
    expect(CHAT_INITIAL_MESSAGES).toBe(80);
    expect(OLDER_MESSAGES_FETCH_LIMIT).toBe(200);
    expect(OLDER_MESSAGES_KEEP).toBe(20);
    expect(OLDER_MESSAGES_CURSOR_ROUND_MS).toBe(30_000);
    expect(CHAT_FETCH_DEFAULT_LIMIT).toBe(20);
    expect(CHAT_BATCH_WINDOW_MS).toBe(150);
  });

  it('9 connection: heartbeat about 20 s, reconnect cap 5, token refresh window 9 minutes', () => {
    expect(SOCKET_HEARTBEAT_MS).toBe(20_000);
    expect(RECONNECT_RETRY_CAP).toBe(5);
    expect(SERVICE_TOKEN_REFRESH_WINDOW_MS).toBe(9 * 60 * 1000);
  });

  it('9 app: mobile breakpoint 900 px, script load timeout 120 s, locale and country de, version', () => {
    expect(MOBILE_BREAKPOINT_PX).toBe(900);
    expect(SCRIPT_LOAD_TIMEOUT_MS).toBe(120_000);
    expect(DEFAULT_LOCALE).toBe('de');
    expect(DEFAULT_COUNTRY).toBe('de');
    expect(PRODUCT_VERSION).toBe('1.36.0');
  });

  it('3/9 party defaults: loginRequired true, isVote true, isAutoStart false, startAllowed host, service spotify', () => {
    expect(LOGIN_REQUIRED_DEFAULT).toBe(true);
    expect(IS_VOTE_DEFAULT).toBe(true);
    expect(IS_AUTO_START_DEFAULT).toBe(false);
    expect(START_ALLOWED_DEFAULT).toBe('host');
    expect(MUSIC_SERVICE_DEFAULT).toBe('spotify');
  });

  it('3/9 value lists: fonts, player services, start allowed, roles, message, follow and music types', () => {
    expect(FONTS).toEqual(['mono', 'poppins', 'playfair', 'merriweather', 'rubik']);
    expect(PLAYER_SERVICES).toEqual(['spotify', 'apple', 'umg_hls']);
    expect(START_ALLOWED).toEqual(['host', 'admin', 'both']);
    expect(ROLES).toEqual(['admin', 'host', 'listener']);
    expect(CHAT_MESSAGE_TYPES).toEqual(['message', 'poll', 'quiz_question', 'quiz_scoreboard', 'quiz_user_scores', 'popup']);
    expect(FOLLOW_TYPES).toEqual(['artist', 'album', 'playlist']);
    expect(MUSIC_TYPES).toEqual(['album', 'playlist']);
  });

  it('6 login: the internal streaming service umg_hls is excluded from the login options', () => {
    expect(LOGIN_SERVICES).toEqual(['spotify', 'apple']);
    expect(LOGIN_SERVICES).not.toContain('umg_hls');
  });

  it('3/9 stickers: the default list has 24 unique ids', () => {
    expect(DEFAULT_STICKER_COUNT).toBe(24);
    expect(DEFAULT_STICKERS).toHaveLength(DEFAULT_STICKER_COUNT);
    expect(new Set(DEFAULT_STICKERS).size).toBe(DEFAULT_STICKER_COUNT);
  });
});

describe('spec 3: entities', () => {
  const party = {
    id: 'p1',
    name: 'Release night',
    created_at: '2025-05-01T10:00:00Z',
    updated_at: '2025-05-01T10:00:00Z',
    started_at: null,
    starts_at: '2025-05-02T18:00:00+02:00',
    ends_at: null,
    voting_enabled: true,
    auto_start: false,
    wp_post_id: null,
    frontend: { partyStartAllowed: 'both', visual: { dark: true, primaryColor: '#ff0066', font: 'rubik' } },
    follow: [{ type: 'artist', service: 'spotify', id: 'a1' }],
    login_required: true,
    status: null,
    music: { type: 'album', id: 'al1', service: 'spotify', country: 'de', url: null },
    is_playable: true,
  };

  it('a party as GET /api/parties/{id} returns it parses', () => {
    expect(Party.safeParse(party).success).toBe(true);
    expect(Party.safeParse({ ...party, status }).success).toBe(true);
  });

  it('visual colours must be CSS hex colours and fonts must be known', () => {
    expect(FrontendSettings.safeParse({ visual: { primaryColor: '#abc' } }).success).toBe(true);
    expect(FrontendSettings.safeParse({ visual: { primaryColor: '#aabbccdd' } }).success).toBe(true);
    expect(FrontendSettings.safeParse({ visual: { primaryColor: 'red' } }).success).toBe(false);
    expect(FrontendSettings.safeParse({ visual: { font: 'comic' } }).success).toBe(false);
    expect(FrontendSettings.safeParse({ partyIsWaitingRoomMinutes: 1441 }).success).toBe(false);
  });

  it('a chat deletion is a message with delete_message_id set', () => {
    const deletion = { id: 'm2', timestamp_ms: 1, seq_id: 2, type: 'message', sender: null, delete_message_id: 'm1' };
    expect(ChatMessage.parse(deletion).delete_message_id).toBe('m1');
    expect(ChatMessage.safeParse({ ...deletion, type: 'shout' }).success).toBe(false);
  });

  it('error bodies: a string, a structured detail, or validation issues', () => {
    expect(ErrorBody.safeParse({ detail: 'Not found' }).success).toBe(true);
    const duplicate = { detail: { message: 'taken', type: 'DuplicateSignupError', fields: ['email'], extra: 1 } };
    expect(ErrorBody.parse(duplicate)).toEqual(duplicate);
    expect(ErrorBody.safeParse({ detail: [{ loc: ['body', 'email'], msg: 'bad', type: 'invalid_format' }] }).success).toBe(true);
  });
});

describe('spec 7: request bodies', () => {
  it('PUT party: all fields optional, unknown keys refused, empty follow ids allowed', () => {
    expect(PutPartyBody.safeParse({}).success).toBe(true);
    expect(PutPartyBody.safeParse({ name: 'x', follow: [{ type: 'album', service: 'apple', id: '' }] }).success).toBe(true);
    expect(PutPartyBody.safeParse({ nmae: 'typo' }).success).toBe(false);
    expect(
      PutPartyBody.safeParse({ starts_at: '2025-05-02T18:00:00Z', ends_at: '2025-05-02T17:00:00Z' }).success,
    ).toBe(false);
  });

  it('PUT tracks: service and country default to spotify and de; country is lower-cased', () => {
    expect(PutTracksBody.parse({ type: 'album', id: 'al1' })).toEqual({ type: 'album', id: 'al1', service: 'spotify', country: 'de' });
    expect(PutTracksBody.parse({ type: 'playlist', id: 'pl1', service: 'apple', country: 'AT' }).country).toBe('at');
  });

  it('chat message: refused with neither text nor sticker; text is trimmed and bounded', () => {
    expect(PostChatMessageBody.safeParse({}).success).toBe(false);
    expect(PostChatMessageBody.safeParse({ sticker: null }).success).toBe(false);
    expect(PostChatMessageBody.safeParse({ text: '   ' }).success).toBe(false);
    expect(PostChatMessageBody.parse({ text: '  hi  ' }).text).toBe('hi');
    expect(PostChatMessageBody.safeParse({ sticker: 'fire' }).success).toBe(true);
    expect(PostChatMessageBody.safeParse({ text: 'x'.repeat(CHAT_TEXT_MAX_LENGTH + 1) }).success).toBe(false);
  });

  it('chat media: a video or a photo is required', () => {
    expect(PostChatMediaBody.safeParse({ text: 'look' }).success).toBe(false);
    expect(PostChatMediaBody.safeParse({ photo: '/uploads/media/a.jpg' }).success).toBe(true);
    expect(PostChatMediaBody.safeParse({ video: 'https://cdn.example.com/v.mp4', photo: null }).success).toBe(true);
  });

  it('5 popup: an empty service is omitted', () => {
    const popup = PostPopupBody.parse({ service: '', message: 'Hello' });
    expect(popup.service).toBeUndefined();
    expect(popup).toMatchObject({ free_only: false, is_closeable: true, is_restart: false });
    expect(PostPopupBody.parse({ service: 'apple', message: 'Hi' }).service).toBe('apple');
    expect(PostPopupBody.safeParse({ service: 'deezer', message: 'Hi' }).success).toBe(false);
  });

  it('5 polls and quizzes are created with set_next_track false by default', () => {
    const poll = PostPollBody.parse({ question: 'Next?', options: ['a', 'b'], duration_seconds: 60 });
    expect(poll.set_next_track).toBe(false);
    expect(PostPollBody.safeParse({ question: 'Next?', options: ['a'], duration_seconds: 60 }).success).toBe(false);
    const quiz = { question: 'Year?', options: ['1999', '2001'], correct_answer: 1, duration_seconds: 30 };
    expect(PostQuizQuestionBody.parse(quiz).set_next_track).toBe(false);
    expect(PostQuizQuestionBody.safeParse({ ...quiz, correct_answer: 2 }).success).toBe(false);
  });

  it('3 scheduled message: recurring_interval 0 is sent as null', () => {
    const base = { text: 'Welcome', post_at: '2025-05-02T18:00:00Z' };
    expect(PostScheduledMessageBody.parse({ ...base, recurring_interval: 0 }).recurring_interval).toBeNull();
    expect(PostScheduledMessageBody.parse(base).recurring_interval).toBeNull();
    expect(PostScheduledMessageBody.parse({ ...base, recurring_interval: 600 }).recurring_interval).toBe(600);
    expect(PostScheduledMessageBody.safeParse({ ...base, post_at: 'tomorrow' }).success).toBe(false);
  });

  it('5 signup: a bad email is refused; empty country and email are omitted', () => {
    const base = { real_name: 'Ada Lovelace', display_name: 'ada' };
    expect(SignupBody.safeParse({ ...base, email: 'not-an-email' }).success).toBe(false);
    const parsed = SignupBody.parse({ ...base, email: '', country: '' });
    expect(parsed.email).toBeUndefined();
    expect(parsed.country).toBeUndefined();
    expect(SignupBody.parse({ ...base, email: 'ada@example.com', country: 'DE' })).toMatchObject({ country: 'de' });
    expect(SignupBody.safeParse({ ...base, display_name: '' }).success).toBe(false);
  });

  it('grants: service without service_id is refused; neither means a grant token', () => {
    const base = { role: 'host', display_name: 'The Band' };
    expect(PostGrantBody.safeParse({ ...base, service: 'spotify' }).success).toBe(false);
    expect(PostGrantBody.safeParse({ ...base, service_id: 'x' }).success).toBe(false);
    expect(PostGrantBody.safeParse({ ...base, service: 'spotify', service_id: 'x' }).success).toBe(true);
    expect(PostGrantBody.safeParse(base).success).toBe(true);
    expect(PostGrantBody.safeParse({ ...base, role: 'listener' }).success).toBe(false);
  });

  it('apple login: music_user_token required', () => {
    expect(AppleLoginBody.safeParse({ party_id: 'p1' }).success).toBe(false);
    expect(AppleLoginBody.safeParse({ music_user_token: 'mut', grant_token: null, party_id: 'p1' }).success).toBe(true);
  });
});

describe('spec 7: queries', () => {
  it('chat messages: limit defaults to 20 and is bounded; before is coerced', () => {
    expect(ChatMessagesQuery.parse({})).toEqual({ limit: CHAT_FETCH_DEFAULT_LIMIT });
    expect(ChatMessagesQuery.parse({ limit: '200', before: '1700000000000' })).toEqual({ limit: 200, before: 1_700_000_000_000 });
    expect(ChatMessagesQuery.safeParse({ limit: '201' }).success).toBe(false);
    expect(ChatMessagesQuery.safeParse({ limit: '0' }).success).toBe(false);
  });

  it('users: can_chat=False (as the app sends it) reads as false', () => {
    expect(UsersQuery.parse({ can_chat: 'False' }).can_chat).toBe(false);
    expect(UsersQuery.parse({ can_chat: 'true' }).can_chat).toBe(true);
    expect(UsersQuery.parse({}).can_chat).toBeUndefined();
  });

  it('4 login flow: the redirect query is either an error or the tokens', () => {
    const error = LoginRedirectParams.parse({ error: 'access_denied', auth_service: 'spotify' });
    expect('error' in error).toBe(true);
    const ok = LoginRedirectParams.parse({
      access_token: 'a',
      service_token: 's',
      service_expires_at: '1700000000000',
      auth_service: 'spotify',
    });
    expect(ok).toMatchObject({ service_expires_at: 1_700_000_000_000 });
    expect(LoginRedirectParams.safeParse({ access_token: 'a' }).success).toBe(false);
  });
});

describe('spec 4: socket', () => {
  it('7 socket path is /api/parties/{id}', () => {
    expect(SOCKET_PATH('p1')).toBe('/api/parties/p1');
  });

  it('5 close code 1008 is the policy violation that shows the global error', () => {
    expect(CloseCode.POLICY_VIOLATION).toBe(1008);
    expect(CloseCode.NORMAL).toBe(1000);
  });

  it('heartbeat: ping text is answered with pong', () => {
    expect(PING_TEXT).toBe('ping');
    expect(PONG_TEXT).toBe('pong');
    expect(parseClientMessage('ping')).toEqual({ kind: 'ping' });
    expect(parseClientMessage('pong')).toEqual({ kind: 'pong' });
  });

  it('client frames: resume and time parse; bad frames get named error codes', () => {
    expect(ClientFrame.parse({ type: 'resume', last_seq_id: 12 })).toEqual({ type: 'resume', last_seq_id: 12 });
    expect(ClientFrame.safeParse({ type: 'resume', last_seq_id: -1 }).success).toBe(false);
    expect(parseClientMessage('{"type":"time","client_time_ms":123.5}')).toEqual({
      kind: 'frame',
      frame: { type: 'time', client_time_ms: 123.5 },
    });
    expect(parseClientMessage('{nope')).toMatchObject({ kind: 'error', code: 'invalid_json' });
    expect(parseClientMessage('[1]')).toMatchObject({ kind: 'error', code: 'invalid_frame' });
    expect(parseClientMessage('{"type":"dance"}')).toMatchObject({ kind: 'error', code: 'unknown_type' });
    expect(parseClientMessage('{"type":"resume"}')).toMatchObject({ kind: 'error', code: 'invalid_frame' });
  });

  it('server frames: a JSON array of events, chat messages are events of their own type', () => {
    const frame = ServerFrame.parse([
      { type: 'hello', seq_id: 4, server_time_ms: 10, user_id: 'u1', role: 'listener' },
      { type: 'poll', id: 'm1', timestamp_ms: 5, seq_id: 5, server_time_ms: 11, sender: null, poll_id: 'po1' },
      { type: 'track_change', seq_id: 6, server_time_ms: 12, status },
      { type: 'queue_change', seq_id: 7, server_time_ms: 13, queue: ['t2', 't3'] },
      { type: 'chat_cleared', seq_id: 8, server_time_ms: 14 },
    ]);
    expect(frame.map((event) => isSequencedEvent(event))).toEqual([false, true, true, true, true]);
    expect(ServerEvent.safeParse({ type: 'track_change', server_time_ms: 1, status }).success).toBe(false);
    expect(ServerEvent.safeParse({ type: 'party_exploded', seq_id: 1, server_time_ms: 1 }).success).toBe(false);
  });
});

describe('spec 7: route table', () => {
  const routes: [string, RouteDef][] = Object.entries(PARTY_ROUTES);

  it('every route has a unique method and path', () => {
    const keys = routes.map(([, route]) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("every route's params schema names exactly the path's :params", () => {
    for (const [name, route] of routes) {
      const fromPath = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]).sort();
      const fromSchema = Object.keys(route.params?.shape ?? {}).sort();
      expect(fromSchema, name).toEqual(fromPath);
    }
  });

  it('multipart uploads carry no JSON body', () => {
    for (const [name, route] of routes) {
      if (route.multipart) expect(route.body, name).toBeUndefined();
    }
  });
});
