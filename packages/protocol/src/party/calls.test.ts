import { describe, expect, it } from 'vitest';
import {
  AccessTokenResponse,
  AnswerBody,
  AppleLoginBody,
  CatalogAlbumRef,
  CatalogArtistRef,
  CatalogIdParam,
  ChatMessageParams,
  ChatMessagesQuery,
  ChatText,
  CountryCodeInput,
  DisplayName,
  EndPartyResponse,
  FakeChatBody,
  FollowEntryInput,
  GrantByServiceParams,
  GrantByTokenParams,
  LoginRedirectParams,
  MusicAlbum,
  MusicArtist,
  MusicPlaylist,
  PartyIdParam,
  PartyRunState,
  PartyTrackParams,
  PartyTracksResponse,
  PartyUserParams,
  PartyVersionParams,
  PlayerStatusResponse,
  PollParams,
  PostChatMediaBody,
  PostChatMessageBody,
  PostGrantBody,
  PostGrantResponse,
  PostPollBody,
  PostPopupBody,
  PostPreparedQuestionBody,
  PostQuizQuestionBody,
  PostScheduledMessageBody,
  PostScoreboardBody,
  PreparedQuestion,
  PreparedQuestionParams,
  PreparedQuestionsResponse,
  PutPartyBody,
  PutTracksBody,
  QuizQuestionParams,
  SCHEDULE_RECURRING_MAX_SECONDS,
  ScheduledMessageParams,
  ScoreboardQuery,
  ScoreboardResponse,
  ServiceCatalogParams,
  ServiceTokenResponse,
  SignupBody,
  SignupResponse,
  SlowModeBody,
  SlowModeResponse,
  SpotifyLoginQuery,
  SystemMeQuery,
  SystemUserResponse,
  UploadResponse,
  UsersQuery,
  VoteResponse,
} from './calls.ts';

const track = { id: 't1', name: 'Intro', artists: ['Band'], album: 'Record', duration_ms: 180_000, image: null, service: 'spotify', hls_url: null };
const status = { track, progress_ms: 1000, is_paused: true, timestamp_ms: 1_700_000_000_000 };
const poll = { question: 'Next?', options: ['t2', 't3', 't4'], duration_seconds: 60, set_next_track: true };
const quiz = { question: 'Year?', options: ['1999', '2001', '2003'], correct_answer: 2, duration_seconds: 30, set_next_track: false };

/** The issue a refusing schema reports, for checking where it points and what it says. */
function firstIssue(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  expect(result.success).toBe(false);
  return result.error!.issues[0]!;
}

describe('spec 5: input helpers', () => {
  it('country codes may come in either case and are stored lower-case', () => {
    expect(CountryCodeInput.parse('De')).toBe('de');
    expect(CountryCodeInput.parse('at')).toBe('at');
    for (const bad of ['d', 'DEU', '1de', 'de1', 'd-', ' de']) expect(CountryCodeInput.safeParse(bad).success, bad).toBe(false);
    expect(firstIssue(CountryCodeInput.safeParse('DEU')).message).toMatch(/two-letter country code/);
  });

  it('chat text and display names are trimmed, non-empty and bounded', () => {
    expect(ChatText.parse('  hello there  ')).toBe('hello there');
    expect(ChatText.safeParse('x'.repeat(500)).success).toBe(true);
    expect(ChatText.safeParse('x'.repeat(501)).success).toBe(false);
    expect(DisplayName.parse('  ada  ')).toBe('ada');
    expect(DisplayName.safeParse('x'.repeat(40)).success).toBe(true);
    expect(DisplayName.safeParse('x'.repeat(41)).success).toBe(false);
    expect(DisplayName.safeParse('   ').success).toBe(false);
  });
});

describe('spec 7: path parameters', () => {
  it('each parameter set keeps exactly its named parameters', () => {
    const cases: [{ parse(v: unknown): unknown }, Record<string, string>][] = [
      [PartyIdParam, { id: 'p1' }],
      [PartyTrackParams, { id: 'p1', trackId: 't1' }],
      [ChatMessageParams, { id: 'p1', messageId: 'm1' }],
      [PollParams, { id: 'p1', pollId: 'po1' }],
      [QuizQuestionParams, { id: 'p1', questionId: 'q1' }],
      [ScheduledMessageParams, { id: 'p1', scheduleId: 's1' }],
      [PartyUserParams, { id: 'p1', userId: 'u1' }],
      [GrantByServiceParams, { id: 'p1', service: 'apple', serviceId: 'x1' }],
      [GrantByTokenParams, { id: 'p1', token: 'tok' }],
      [CatalogIdParam, { id: 'al1' }],
      [PreparedQuestionParams, { id: 'p1', preparedId: 'pq1' }],
    ];
    for (const [schema, params] of cases) expect(schema.parse({ ...params, extra: 'x' }), JSON.stringify(params)).toEqual(params);
    expect(PartyVersionParams.parse({ id: 'p1', version: '3' })).toEqual({ id: 'p1', version: 3 });
    expect(PartyVersionParams.safeParse({ id: 'p1', version: '0' }).success).toBe(false);
    expect(PartyIdParam.safeParse({ id: '../x' }).success).toBe(false);
    expect(GrantByServiceParams.safeParse({ id: 'p1', service: 'umg_hls', serviceId: 'x' }).success).toBe(false);
  });

  it('catalogue lookups name a player service, a storefront country and an id', () => {
    expect(ServiceCatalogParams.parse({ service: 'apple', country: 'AT', id: 'al1' })).toEqual({ service: 'apple', country: 'at', id: 'al1' });
    expect(ServiceCatalogParams.safeParse({ service: 'apple', country: 'AT' }).success).toBe(false);
  });
});

describe('spec 7 party calls', () => {
  it('PUT party: every field may be set at once, names are trimmed and bounded', () => {
    const body = {
      name: '  Release night  ',
      voting_enabled: false,
      auto_start: true,
      wp_post_id: 12,
      frontend: { partyStartAllowed: 'admin' },
      follow: [{ type: 'playlist', service: 'spotify', id: 'pl1' }],
      login_required: false,
      starts_at: '2025-05-02T18:00:00Z',
      ends_at: '2025-05-02T20:00:00Z',
    };
    expect(PutPartyBody.parse(body)).toEqual({ ...body, name: 'Release night' });
    expect(PutPartyBody.safeParse({ name: '   ' }).success).toBe(false);
    expect(PutPartyBody.safeParse({ name: 'x'.repeat(200) }).success).toBe(true);
    expect(PutPartyBody.safeParse({ name: 'x'.repeat(201) }).success).toBe(false);
    expect(PutPartyBody.safeParse({ follow: Array.from({ length: 51 }, () => body.follow[0]) }).success).toBe(false);
    expect(FollowEntryInput.safeParse({ type: 'artist', service: 'spotify', id: 'x'.repeat(201) }).success).toBe(false);
  });

  it('PUT party: ends_at must be after starts_at when both are given', () => {
    const starts_at = '2025-05-02T18:00:00Z';
    expect(PutPartyBody.safeParse({ starts_at, ends_at: '2025-05-02T18:00:01Z' }).success).toBe(true);
    expect(PutPartyBody.safeParse({ starts_at }).success).toBe(true);
    expect(PutPartyBody.safeParse({ ends_at: '2025-05-02T18:00:00Z' }).success).toBe(true);
    expect(PutPartyBody.safeParse({ starts_at, ends_at: null }).success).toBe(true);
    const issue = firstIssue(PutPartyBody.safeParse({ starts_at, ends_at: starts_at }));
    expect(issue.path).toEqual(['ends_at']);
    expect(issue.message).toContain('ends_at');
  });

  it('start, stop, end and the player status answer the timeline', () => {
    expect(PartyRunState.parse({ status, started_at: '2025-05-02T18:00:00Z' })).toEqual({ status, started_at: '2025-05-02T18:00:00Z' });
    expect(PartyRunState.safeParse({ status }).success).toBe(false);
    expect(EndPartyResponse.parse({ ends_at: '2025-05-02T20:00:00Z' })).toEqual({ ends_at: '2025-05-02T20:00:00Z' });
    expect(EndPartyResponse.safeParse({}).success).toBe(false);
    expect(PlayerStatusResponse.parse({ status, server_time_ms: 5 })).toEqual({ status, server_time_ms: 5 });
    expect(PlayerStatusResponse.safeParse({ status: null }).success).toBe(false);
  });
});

describe('spec 7 search', () => {
  it('albums, playlists and artists keep their tracks, artists and albums', () => {
    const album = {
      id: 'al1',
      name: 'Record',
      artists: [{ id: 'a1', name: 'Band' }],
      image: null,
      release_date: '2025-05',
      tracks: [track],
    };
    expect(MusicAlbum.parse(album)).toEqual(album);
    expect(MusicAlbum.safeParse({ ...album, release_date: undefined }).success).toBe(false);
    const playlist = { id: 'pl1', name: 'Mix', owner: 'label', image: 'https://img.example.com/p.jpg', tracks: [track] };
    expect(MusicPlaylist.parse(playlist)).toEqual(playlist);
    expect(MusicPlaylist.safeParse({ ...playlist, owner: undefined }).success).toBe(false);
    const artist = { id: 'a1', name: 'Band', image: null, albums: [{ id: 'al1', name: 'Record', image: null }] };
    expect(MusicArtist.parse(artist)).toEqual(artist);
    expect(MusicArtist.safeParse({ ...artist, albums: undefined }).success).toBe(false);
    expect(CatalogArtistRef.safeParse({ id: 'a1' }).success).toBe(false);
    expect(CatalogAlbumRef.safeParse({ id: 'al1', name: 'Record' }).success).toBe(false);
  });
});

describe('spec 7 tracks and votes', () => {
  it('the track list keeps items, options and the excluded ids', () => {
    const response = {
      items: [{ ...track, votes: 2, played: false, position: 0 }],
      options: { type: 'playlist', id: 'pl1', service: 'apple', country: 'at', url: null },
      excluded: ['t9'],
    };
    expect(PartyTracksResponse.parse(response)).toEqual(response);
    expect(PartyTracksResponse.safeParse({ ...response, excluded: undefined }).success).toBe(false);
  });

  it('PUT tracks: excluded ids are bounded; unknown keys refused', () => {
    const excluded = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    expect(PutTracksBody.parse({ type: 'album', id: 'al1', excluded }).excluded).toEqual(excluded);
    expect(PutTracksBody.safeParse({ type: 'album', id: 'al1', excluded: [...excluded, 'one-more'] }).success).toBe(false);
    expect(PutTracksBody.safeParse({ type: 'album', id: 'al1', extra: 1 }).success).toBe(false);
  });

  it('a vote answers the count and whether the caller votes', () => {
    expect(VoteResponse.parse({ track_id: 't1', votes: 3, voted: true })).toEqual({ track_id: 't1', votes: 3, voted: true });
    expect(VoteResponse.safeParse({ track_id: 't1', votes: 3 }).success).toBe(false);
  });
});

describe('spec 7 chat calls', () => {
  it('chat history: cursors are coerced, non-negative and safe integers', () => {
    expect(ChatMessagesQuery.parse({ limit: '1', before: '5', before_seq_id: '6', after_seq_id: '7' })).toEqual({
      limit: 1,
      before: 5,
      before_seq_id: 6,
      after_seq_id: 7,
    });
    for (const key of ['before', 'before_seq_id', 'after_seq_id']) {
      expect(ChatMessagesQuery.safeParse({ [key]: '-1' }).success, key).toBe(false);
      expect(ChatMessagesQuery.safeParse({ [key]: '1.5' }).success, key).toBe(false);
      expect(ChatMessagesQuery.safeParse({ [key]: String(Number.MAX_SAFE_INTEGER) }).success, key).toBe(true);
      expect(ChatMessagesQuery.safeParse({ [key]: '1e300' }).success, key).toBe(false);
    }
  });

  it('chat message: a reply keeps its target; text with a null sticker is fine', () => {
    expect(PostChatMessageBody.parse({ reply_to_message_id: 'm1', text: 'yes', sticker: null })).toEqual({
      reply_to_message_id: 'm1',
      text: 'yes',
      sticker: null,
    });
    expect(PostChatMessageBody.parse({ text: 'yes', sticker: 'fire' })).toEqual({ text: 'yes', sticker: 'fire' });
    expect(PostChatMessageBody.safeParse({ sticker: 'x'.repeat(65) }).success).toBe(false);
    const issue = firstIssue(PostChatMessageBody.safeParse({ sticker: null }));
    expect(issue.path).toEqual(['text']);
    expect(issue.message).toMatch(/text or sticker/);
  });

  it('chat media: text may go with the media; the refusal points at video', () => {
    expect(PostChatMediaBody.parse({ text: ' look ', video: null, photo: '/uploads/media/a.jpg' })).toEqual({
      text: 'look',
      video: null,
      photo: '/uploads/media/a.jpg',
    });
    expect(PostChatMediaBody.safeParse({ video: 'https://cdn.example.com/v.mp4' }).success).toBe(true);
    expect(PostChatMediaBody.safeParse({ video: 'ftp://cdn.example.com/v.mp4' }).success).toBe(false);
    const issue = firstIssue(PostChatMediaBody.safeParse({ video: null, photo: null }));
    expect(issue.path).toEqual(['video']);
    expect(issue.message).toMatch(/video or photo/);
  });

  it('popups: every flag can be set; the message is chat text', () => {
    const body = { service: 'umg_hls', free_only: true, message: ' Restart ', is_closeable: false, is_restart: true };
    expect(PostPopupBody.parse(body)).toEqual({ ...body, message: 'Restart' });
    expect(PostPopupBody.parse({ message: 'Hi' })).toEqual({ free_only: false, message: 'Hi', is_closeable: true, is_restart: false });
    expect(PostPopupBody.safeParse({ message: '' }).success).toBe(false);
  });

  it('polls: 2 to 10 trimmed options, a bounded question and duration', () => {
    expect(PostPollBody.parse({ ...poll, options: [' t2 ', 't3', 't4'] })).toEqual(poll);
    const options = (n: number) => Array.from({ length: n }, (_, i) => `option ${i}`);
    expect(PostPollBody.safeParse({ ...poll, options: options(10) }).success).toBe(true);
    expect(PostPollBody.safeParse({ ...poll, options: options(11) }).success).toBe(false);
    expect(PostPollBody.safeParse({ ...poll, options: ['a', ' '] }).success).toBe(false);
    expect(PostPollBody.safeParse({ ...poll, options: ['a', 'x'.repeat(201)] }).success).toBe(false);
    expect(PostPollBody.safeParse({ ...poll, question: ' ' }).success).toBe(false);
    expect(PostPollBody.safeParse({ ...poll, question: 'x'.repeat(300) }).success).toBe(true);
    expect(PostPollBody.safeParse({ ...poll, question: 'x'.repeat(301) }).success).toBe(false);
    expect(PostPollBody.parse({ ...poll, question: ' Next? ' }).question).toBe('Next?');
    for (const seconds of [1, 3600]) expect(PostPollBody.safeParse({ ...poll, duration_seconds: seconds }).success, String(seconds)).toBe(true);
    for (const seconds of [0, 3601, 1.5]) expect(PostPollBody.safeParse({ ...poll, duration_seconds: seconds }).success, String(seconds)).toBe(false);
  });

  it('answers are option indexes that fit a stored integer', () => {
    expect(AnswerBody.parse({ answer_id: 2 })).toEqual({ answer_id: 2 });
    expect(AnswerBody.safeParse({ answer_id: 2_147_483_648 }).success).toBe(false);
    expect(AnswerBody.safeParse({ answer_id: 1, extra: 1 }).success).toBe(false);
  });

  it('quiz questions: the correct answer indexes an option', () => {
    expect(PostQuizQuestionBody.parse(quiz)).toEqual(quiz);
    expect(PostQuizQuestionBody.safeParse({ ...quiz, correct_answer: 0 }).success).toBe(true);
    const issue = firstIssue(PostQuizQuestionBody.safeParse({ ...quiz, correct_answer: 3 }));
    expect(issue.path).toEqual(['correct_answer']);
    expect(issue.message).toMatch(/correct_answer/);
  });

  it('prepared questions are a poll or a quiz question as they will be sent', () => {
    expect(PostPreparedQuestionBody.parse({ kind: 'poll', body: poll })).toEqual({ kind: 'poll', body: poll });
    expect(PostPreparedQuestionBody.parse({ kind: 'quiz', body: quiz })).toEqual({ kind: 'quiz', body: quiz });
    expect(PostPreparedQuestionBody.safeParse({ kind: 'quiz', body: poll }).success).toBe(false);
    expect(PostPreparedQuestionBody.safeParse({ kind: 'poll', body: poll, extra: 1 }).success).toBe(false);
    const stored = [
      { id: 'pq1', kind: 'poll', body: poll, created_at: '2025-05-02T18:00:00Z' },
      { id: 'pq2', kind: 'quiz', body: quiz, created_at: '2025-05-02T18:01:00Z' },
    ];
    for (const item of stored) expect(PreparedQuestion.parse(item)).toEqual(item);
    expect(PreparedQuestion.safeParse({ ...stored[0], created_at: undefined }).success).toBe(false);
    expect(PreparedQuestionsResponse.parse({ items: stored })).toEqual({ items: stored });
    expect(PreparedQuestionsResponse.safeParse({ items: Array.from({ length: 51 }, () => stored[0]) }).success).toBe(false);
  });

  it('scoreboards: 1 to 100 entries, 10 by default', () => {
    expect(PostScoreboardBody.parse({ count: 5, duration_seconds: 30 })).toEqual({ count: 5, duration_seconds: 30 });
    expect(PostScoreboardBody.safeParse({ count: 100 }).success).toBe(true);
    expect(PostScoreboardBody.safeParse({ count: 101 }).success).toBe(false);
    expect(PostScoreboardBody.safeParse({ count: 0 }).success).toBe(false);
    expect(ScoreboardQuery.parse({})).toEqual({ count: 10 });
    expect(ScoreboardQuery.parse({ count: '100' })).toEqual({ count: 100 });
    expect(ScoreboardQuery.safeParse({ count: '101' }).success).toBe(false);
    expect(ScoreboardQuery.safeParse({ count: '0' }).success).toBe(false);
    const board = { items: [{ user_id: 'u1', display_name: 'ada', score: 4 }], total_questions: 3 };
    expect(ScoreboardResponse.parse(board)).toEqual(board);
    expect(ScoreboardResponse.safeParse({ items: [] }).success).toBe(false);
  });

  it('scheduled messages repeat at most yearly (366 days)', () => {
    const base = { text: ' Welcome ', sticker: 'fire', post_at: '2025-05-02T18:00:00Z' };
    expect(SCHEDULE_RECURRING_MAX_SECONDS).toBe(366 * 24 * 60 * 60);
    expect(PostScheduledMessageBody.parse({ ...base, recurring_interval: 366 * 86_400 })).toEqual({
      text: 'Welcome',
      sticker: 'fire',
      post_at: '2025-05-02T18:00:00Z',
      recurring_interval: 366 * 86_400,
    });
    expect(PostScheduledMessageBody.safeParse({ ...base, recurring_interval: 366 * 86_400 + 1 }).success).toBe(false);
    expect(PostScheduledMessageBody.safeParse({ ...base, recurring_interval: -1 }).success).toBe(false);
  });

  it('slow mode: 0 to 3600 seconds; the fake chat is bounded', () => {
    expect(SlowModeBody.parse({ seconds: 3600 })).toEqual({ seconds: 3600 });
    expect(SlowModeBody.safeParse({ seconds: 3601 }).success).toBe(false);
    expect(SlowModeBody.safeParse({ seconds: -1 }).success).toBe(false);
    expect(SlowModeResponse.parse({ seconds: 0 })).toEqual({ seconds: 0 });
    expect(FakeChatBody.parse({ messages_per_second: 0.5, stop_after: 3600 })).toEqual({ messages_per_second: 0.5, stop_after: 3600 });
    expect(FakeChatBody.safeParse({ messages_per_second: 1000, stop_after: 1 }).success).toBe(true);
    expect(FakeChatBody.safeParse({ messages_per_second: 1001, stop_after: 1 }).success).toBe(false);
    expect(FakeChatBody.safeParse({ messages_per_second: 0, stop_after: 1 }).success).toBe(false);
    expect(FakeChatBody.safeParse({ messages_per_second: 1, stop_after: 0 }).success).toBe(false);
    expect(FakeChatBody.safeParse({ messages_per_second: 1, stop_after: 3601 }).success).toBe(false);
  });
});

describe('spec 7 users and login', () => {
  it('signup with every field keeps them, trimmed and normalised', () => {
    const body = {
      real_name: '  Ada Lovelace ',
      display_name: ' ada ',
      country: 'GB',
      email: 'ada@example.com',
      profile_picture: '/uploads/profile/u1.jpg',
      profile_sticker: 'heart',
      competition_accepted: true,
    };
    expect(SignupBody.parse(body)).toEqual({ ...body, real_name: 'Ada Lovelace', display_name: 'ada', country: 'gb' });
    expect(SignupBody.safeParse({ ...body, real_name: ' ' }).success).toBe(false);
    expect(SignupBody.safeParse({ ...body, real_name: 'x'.repeat(100) }).success).toBe(true);
    expect(SignupBody.safeParse({ ...body, real_name: 'x'.repeat(101) }).success).toBe(false);
    expect(SignupBody.safeParse({ ...body, extra: 1 }).success).toBe(false);
    expect(SignupResponse.parse({ id: 'u1', access_token: null })).toEqual({ id: 'u1', access_token: null });
    expect(SignupResponse.safeParse({ id: 'u1' }).success).toBe(false);
  });

  it('users query: every spelling of the flag the apps send; others are refused', () => {
    expect(UsersQuery.parse({ can_chat: 'True' })).toEqual({ can_chat: true });
    expect(UsersQuery.parse({ can_chat: 'false' })).toEqual({ can_chat: false });
    expect(UsersQuery.safeParse({ can_chat: 'yes' }).success).toBe(false);
  });

  it('users/me: optionally for a party, then with the caller profile there', () => {
    expect(SystemMeQuery.parse({ party_id: 'p1' })).toEqual({ party_id: 'p1' });
    expect(SystemMeQuery.safeParse({ party_id: '../p' }).success).toBe(false);
    const me = {
      id: 's1',
      service: 'spotify',
      service_user_id: 'sp1',
      display_name: 'ada',
      email: null,
      country: null,
      premium: true,
      profile_picture: null,
      grants: [],
      party_user: null,
    };
    expect(SystemUserResponse.parse(me)).toEqual(me);
    expect(ServiceTokenResponse.parse({ token: 'tok', expires_at: null })).toEqual({ token: 'tok', expires_at: null });
    expect(ServiceTokenResponse.safeParse({ token: 'tok' }).success).toBe(false);
  });

  it('Apple login: a printable token, with an optional grant and party', () => {
    const body = { music_user_token: 'mut-123', grant_token: 'g1', party_id: 'p1' };
    expect(AppleLoginBody.parse(body)).toEqual(body);
    expect(AppleLoginBody.safeParse({ music_user_token: 'mut 123' }).success).toBe(false);
    expect(AppleLoginBody.safeParse({ music_user_token: 'x'.repeat(4097) }).success).toBe(false);
    expect(AccessTokenResponse.parse({ access_token: 'abc' })).toEqual({ access_token: 'abc' });
    expect(AccessTokenResponse.safeParse({ access_token: '' }).success).toBe(false);
  });

  it('4 login flow: the Spotify login takes an http(s) redirect and options', () => {
    const query = { redirect_uri: 'https://party.example.com/p1', party_id: 'p1', grant: 'g1', artist_ids: 'a1,a2', hash_output: 'true' };
    expect(SpotifyLoginQuery.parse(query)).toEqual(query);
    expect(SpotifyLoginQuery.parse({ redirect_uri: 'http://localhost:5173/' })).toEqual({ redirect_uri: 'http://localhost:5173/', hash_output: 'false' });
    for (const bad of ['ftp://party.example.com/', 'xhttps://party.example.com/', 'httpsx://party.example.com/', 'javascript:alert(1)']) {
      expect(SpotifyLoginQuery.safeParse({ redirect_uri: bad }).success, bad).toBe(false);
    }
    expect(SpotifyLoginQuery.safeParse({ redirect_uri: `https://party.example.com/${'x'.repeat(2048)}` }).success).toBe(false);
    expect(SpotifyLoginQuery.safeParse({ redirect_uri: 'https://party.example.com/', hash_output: 'yes' }).success).toBe(false);
    expect(SpotifyLoginQuery.parse({ redirect_uri: 'https://party.example.com/', hash_output: 'false' }).hash_output).toBe('false');
  });

  it('4 login flow: a success carries both tokens and the expiry; an error names its reason', () => {
    const ok = { access_token: 'access-1', service_token: 'service-1', service_expires_at: '1700000000000', auth_service: 'apple' };
    expect(LoginRedirectParams.parse(ok)).toEqual({ ...ok, service_expires_at: 1_700_000_000_000 });
    expect(LoginRedirectParams.safeParse({ ...ok, service_token: '' }).success).toBe(false);
    expect(LoginRedirectParams.safeParse({ ...ok, access_token: '' }).success).toBe(false);
    expect(LoginRedirectParams.safeParse({ ...ok, service_expires_at: '-1' }).success).toBe(false);
    expect(LoginRedirectParams.parse({ error: 'access_denied', auth_service: 'apple' })).toEqual({ error: 'access_denied', auth_service: 'apple' });
    expect(LoginRedirectParams.safeParse({ error: '', auth_service: 'apple' }).success).toBe(false);
  });

  it('grants: links may limit uses (1..10000) and lifetime (1..365 days)', () => {
    const base = { role: 'admin', display_name: ' Manager ', profile_picture: null };
    expect(PostGrantBody.parse({ ...base, max_uses: 10_000, expires_in_days: 365 })).toEqual({
      ...base,
      display_name: 'Manager',
      max_uses: 10_000,
      expires_in_days: 365,
    });
    for (const bad of [{ max_uses: 0 }, { max_uses: 10_001 }, { expires_in_days: 0 }, { expires_in_days: 366 }]) {
      expect(PostGrantBody.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    const issue = firstIssue(PostGrantBody.safeParse({ ...base, service: 'apple' }));
    expect(issue.path).toEqual(['service_id']);
    expect(issue.message).toMatch(/together/);
    const response = {
      id: 'g1',
      service_id: null,
      service: null,
      token: 'tok',
      role: 'admin',
      display_name: 'Manager',
      profile_picture: null,
      max_uses: 1,
      uses: 0,
      expires_at: null,
      redeemed_by: [],
      link: 'https://party.example.com/p1#/grant/tok',
    };
    expect(PostGrantResponse.parse(response)).toEqual(response);
    expect(PostGrantResponse.safeParse({ ...response, link: undefined }).success).toBe(false);
  });

  it('uploads answer where the file is served', () => {
    expect(UploadResponse.parse({ url: '/uploads/media/a.jpg' })).toEqual({ url: '/uploads/media/a.jpg' });
    expect(UploadResponse.safeParse({}).success).toBe(false);
  });
});
