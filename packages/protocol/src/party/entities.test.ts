import { describe, expect, it } from 'vitest';
import {
  CHAT_RATE_LIMITED_ERROR,
  CHAT_SLOW_MODE_ERROR,
  DEFAULT_STICKERS,
  DUPLICATE_SIGNUP_ERROR,
  FAQ_ANSWER_MAX_LENGTH,
  FAQ_MATCH_ALL,
  GRANT_LINK_REFUSED_ERROR,
  PARTY_ID_RULE,
  STICKER_GLYPHS,
  WAITING_ROOM_READ_ONLY_DETAIL,
} from './constants.ts';
import {
  CountryCode,
  FaqEntry,
  FaqLocation,
  FrontendSettings,
  Grant,
  GrantRedemption,
  HexColor,
  LegalSettings,
  MusicOptions,
  Party,
  PartyId,
  PartyTrack,
  PartyUser,
  PlayerDevice,
  PlayerStatus,
  Poll,
  Popup,
  QuizQuestion,
  ScheduledMessage,
  ScoreboardEntry,
  StickerId,
  SystemUser,
  Track,
  UserChatRight,
  UserGrantRef,
  VisualSettings,
} from './entities.ts';
import { REACTION_RATE_LIMITED_ERROR } from './socket.ts';
import { expectAllRequired, refusal } from '../test/schemaChecks.ts';

const track = { id: 't1', name: 'Intro', artists: ['Band', 'Guest'], album: 'Record', duration_ms: 180_000, image: 'https://img.example.com/c.jpg', service: 'umg_hls', hls_url: 'https://cdn.example.com/t1.m3u8' };
const status = { track, progress_ms: 1000, is_paused: false, timestamp_ms: 1_700_000_000_000 };
const visual = {
  dark: true,
  primaryColor: '#ff0066',
  backgroundColor: '#000',
  artistHeaderBackground: '#112233',
  artistProfileBackground: '#11223344',
  supportHeaderBackground: '#abc',
  supportProfileBackground: '#ABCDEF',
  userHeaderBackground: '#fff',
  userProfileBackground: '#eee',
  ownHeaderBackground: '#ddd',
  ownProfileBackground: '#ccc',
  musicImage: 'https://img.example.com/m.jpg',
  headerImage: '/uploads/h.jpg',
  radioImage: 'https://img.example.com/r.jpg',
  phoneImage: 'https://img.example.com/p.jpg',
  logoImage: 'https://img.example.com/l.jpg',
  font: 'playfair',
  stickerBackground: 'linear-gradient(#000, #fff)',
  stickers: ['fire', 'heart'],
  hideStartPageGraphs: false,
  headerElements: ['logo', 'title'],
};
const frontend = {
  competitionIsEnabled: true,
  pageModulesWaiting: ['countdown', 'chat'],
  pageModulesEnd: ['thanks'],
  partyIsWaitingRoomMinutes: 45,
  partyStartAllowed: 'both',
  faq: [{ question: 'Why?', answer: '<p>Because</p>', image: null, locations: [{ page: 'All', service: 'spotify' }] }],
  chatSlowModeSeconds: 10,
  waitingRoomReadOnly: true,
  labelStreamFallback: false,
  visual,
  legal: { imprint: '<p>Label GmbH</p>', privacy: '<p>We keep little</p>', terms: '<p>Play fair</p>' },
};
const party = {
  id: 'p1',
  name: 'Release night',
  created_at: '2025-05-01T10:00:00Z',
  updated_at: '2025-05-01T11:00:00Z',
  started_at: '2025-05-02T18:01:00Z',
  starts_at: '2025-05-02T18:00:00+02:00',
  ends_at: '2025-05-02T22:00:00Z',
  voting_enabled: true,
  auto_start: false,
  wp_post_id: 42,
  frontend,
  follow: [{ type: 'artist', service: 'spotify', id: 'a1' }],
  login_required: true,
  status,
  music: { type: 'album', id: 'al1', service: 'spotify', country: 'de', url: 'https://open.spotify.com/album/al1' },
  is_playable: true,
};
const partyUser = {
  id: 'u1',
  real_name: 'Ada Lovelace',
  display_name: 'ada',
  email: 'ada@example.com',
  premium: true,
  country: 'gb',
  profile_sticker: 'fire',
  profile_picture: '/uploads/profile/u1.jpg',
  role: 'listener',
  can_chat: true,
  is_subscribed: true,
  service: 'apple',
  track_votes: ['t1'],
  poll_answers: [{ poll_id: 'po1', answer_id: 0 }],
  quiz_answers: [{ question_id: 'q1', answer_id: 1 }],
  quiz_score: 2,
};
const grant = {
  id: 'g1',
  service_id: null,
  service: null,
  token: 'tok-123',
  role: 'host',
  display_name: 'The Band',
  profile_picture: null,
  max_uses: 5,
  uses: 1,
  expires_at: '2025-06-01T00:00:00Z',
  redeemed_by: [{ user_id: 'u3', display_name: 'bassist', redeemed_at: '2025-05-03T10:00:00Z' }],
};
const poll = { id: 'po1', question: 'Next?', options: ['t2', 't3'], duration_seconds: 60, set_next_track: true, created_at_ms: 1, closes_at_ms: 60_001, closed: true, results: [2, 1] };

describe('spec 3: entities as the server sends them', () => {
  it('a party with every field set parses to itself, and each field is required', () => {
    expect(Party.parse(party)).toEqual(party);
    expectAllRequired(Party, party);
  });

  it('tracks, party tracks and the player status keep every field', () => {
    expect(Track.parse(track)).toEqual(track);
    expectAllRequired(Track, track);
    const partyTrack = { ...track, votes: 3, played: true, position: 2 };
    expect(PartyTrack.parse(partyTrack)).toEqual(partyTrack);
    expectAllRequired(PartyTrack, partyTrack);
    expect(PlayerStatus.parse(status)).toEqual(status);
    expectAllRequired(PlayerStatus, status);
    expect(Track.safeParse({ ...track, service: 'deezer' }).success).toBe(false);
  });

  it('music options name the album or playlist, its service and a lower-case country', () => {
    const music = party.music;
    expect(MusicOptions.parse(music)).toEqual(music);
    expectAllRequired(MusicOptions, music);
    expect(MusicOptions.safeParse({ ...music, type: 'artist' }).success).toBe(false);
  });

  it('a party user with answers, votes and grants parses to itself', () => {
    expect(PartyUser.parse(partyUser)).toEqual(partyUser);
    expectAllRequired(PartyUser, partyUser);
    const systemUser = {
      id: 's1',
      service: 'spotify',
      service_user_id: 'sp-1',
      display_name: 'ada',
      email: null,
      country: 'de',
      premium: false,
      profile_picture: null,
      grants: [{ party_id: 'p1', role: 'admin' }],
    };
    expect(SystemUser.parse(systemUser)).toEqual(systemUser);
    expectAllRequired(SystemUser, systemUser);
    expect(UserGrantRef.safeParse({ party_id: 'p1', role: 'listener' }).success).toBe(false);
    expect(SystemUser.safeParse({ ...systemUser, service: 'umg_hls' }).success).toBe(false);
  });

  it('grants keep their link data and redemptions', () => {
    expect(Grant.parse(grant)).toEqual(grant);
    expectAllRequired(Grant, grant);
    expectAllRequired(GrantRedemption, grant.redeemed_by[0]!);
    expect(UserChatRight.parse({ user_id: 'u1', can_chat: false })).toEqual({ user_id: 'u1', can_chat: false });
    expectAllRequired(UserChatRight, { user_id: 'u1', can_chat: false });
  });

  it('chat payloads: popups, polls, quiz questions, scheduled messages, scoreboards, devices', () => {
    const popup = { service: 'spotify', free_only: true, message: 'Upgrade', is_closeable: false, is_restart: true, timestamp_ms: 5 };
    expect(Popup.parse(popup)).toEqual(popup);
    expectAllRequired(Popup, popup, ['service']);
    expect(Poll.parse(poll)).toEqual(poll);
    expectAllRequired(Poll, poll);
    const question = { ...poll, correct_answer: 1 };
    expect(QuizQuestion.parse(question)).toEqual(question);
    expectAllRequired(QuizQuestion, question);
    const scheduled = { id: 's1', text: 'Welcome', sticker: null, post_at: '2025-05-02T18:00:00Z', recurring_interval: 600 };
    expect(ScheduledMessage.parse(scheduled)).toEqual(scheduled);
    expectAllRequired(ScheduledMessage, scheduled);
    expect(ScheduledMessage.safeParse({ ...scheduled, recurring_interval: 0 }).success).toBe(false);
    expect(ScoreboardEntry.parse({ user_id: 'u1', display_name: 'ada', score: 3 })).toEqual({ user_id: 'u1', display_name: 'ada', score: 3 });
    expectAllRequired(ScoreboardEntry, { user_id: 'u1', display_name: 'ada', score: 3 });
    expect(PlayerDevice.parse({ id: 'd1', is_active: true })).toEqual({ id: 'd1', is_active: true });
    expectAllRequired(PlayerDevice, { id: 'd1', is_active: true });
  });
});

describe('spec 3: frontend settings', () => {
  it('settings with every field set parse to themselves', () => {
    expect(FrontendSettings.parse(frontend)).toEqual(frontend);
    expect(VisualSettings.parse(visual)).toEqual(visual);
  });

  it('every visual colour field takes only hex colours; image fields only web URLs', () => {
    const colours = Object.entries(visual).filter(([, v]) => typeof v === 'string' && v.startsWith('#'));
    expect(colours).toHaveLength(10);
    for (const [key] of colours) {
      expect(VisualSettings.safeParse({ [key]: 'red' }).success, key).toBe(false);
    }
    for (const key of Object.keys(visual).filter((k) => k.endsWith('Image'))) {
      expect(VisualSettings.safeParse({ [key]: 'javascript:alert(1)' }).success, key).toBe(false);
    }
  });

  it('hex colours: #rgb, #rrggbb or #rrggbbaa, any case, nothing around them', () => {
    for (const ok of ['#abc', '#ABC', '#123', '#a1B2c3', '#aabbccdd', '#0F0F0F0F']) expect(HexColor.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['abc', 'aabbcc', 'x#abc', '#abc ', '#abcx', '#ab', '#abcd', '#abcde', '#abcdefa', '#abcdefabc', '#ggg', '#12g']) {
      expect(HexColor.safeParse(bad).success, bad).toBe(false);
    }
    expect(refusal(HexColor, 'red')).toMatch(/hex colour/);
  });

  it('sticker lists, names and lengths are bounded', () => {
    expect(StickerId.safeParse('').success).toBe(false);
    expect(StickerId.safeParse('x'.repeat(64)).success).toBe(true);
    expect(StickerId.safeParse('x'.repeat(65)).success).toBe(false);
    expect(VisualSettings.safeParse({ stickers: Array.from({ length: 200 }, () => 'fire') }).success).toBe(true);
    expect(VisualSettings.safeParse({ stickers: Array.from({ length: 201 }, () => 'fire') }).success).toBe(false);
    expect(VisualSettings.safeParse({ stickerBackground: 'x'.repeat(201) }).success).toBe(false);
    expect(VisualSettings.safeParse({ headerElements: ['x'.repeat(65)] }).success).toBe(false);
    expect(VisualSettings.safeParse({ headerElements: Array.from({ length: 51 }, () => 'logo') }).success).toBe(false);
    expect(VisualSettings.safeParse({ font: 'comic' }).success).toBe(false);
    expect(VisualSettings.safeParse({ colour: '#fff' }).success).toBe(false);
  });

  it('module lists, waiting-room minutes and slow mode are bounded', () => {
    expect(FrontendSettings.safeParse({ pageModulesWaiting: Array.from({ length: 51 }, () => 'chat') }).success).toBe(false);
    expect(FrontendSettings.safeParse({ pageModulesEnd: ['x'.repeat(65)] }).success).toBe(false);
    expect(FrontendSettings.safeParse({ partyIsWaitingRoomMinutes: 0 }).success).toBe(true);
    expect(FrontendSettings.safeParse({ partyIsWaitingRoomMinutes: 1440 }).success).toBe(true);
    expect(FrontendSettings.safeParse({ partyIsWaitingRoomMinutes: -1 }).success).toBe(false);
    expect(FrontendSettings.safeParse({ partyIsWaitingRoomMinutes: 1.5 }).success).toBe(false);
    expect(FrontendSettings.safeParse({ chatSlowModeSeconds: 0 }).success).toBe(true);
    expect(FrontendSettings.safeParse({ chatSlowModeSeconds: 3600 }).success).toBe(true);
    expect(FrontendSettings.safeParse({ chatSlowModeSeconds: 3601 }).success).toBe(false);
    expect(FrontendSettings.safeParse({ chatSlowModeSeconds: -1 }).success).toBe(false);
    expect(FrontendSettings.safeParse({ partyStartAllowed: 'anyone' }).success).toBe(false);
    expect(FrontendSettings.safeParse({ faq: Array.from({ length: 51 }, () => frontend.faq[0]) }).success).toBe(false);
  });

  it('2 FAQ modal: entries are bounded, locations name a page and a service (All matches all)', () => {
    const entry = frontend.faq[0]!;
    expect(FaqEntry.parse({ ...entry, image: 'https://img.example.com/f.jpg' }).image).toBe('https://img.example.com/f.jpg');
    expect(FaqEntry.safeParse({ ...entry, question: 'x'.repeat(300) }).success).toBe(true);
    expect(FaqEntry.safeParse({ ...entry, question: 'x'.repeat(301) }).success).toBe(false);
    expect(FaqEntry.safeParse({ ...entry, answer: 'x'.repeat(FAQ_ANSWER_MAX_LENGTH + 1) }).success).toBe(false);
    expect(FaqEntry.safeParse({ ...entry, locations: Array.from({ length: 51 }, () => entry.locations[0]) }).success).toBe(false);
    expect(FaqEntry.safeParse({ ...entry, extra: 1 }).success).toBe(false);
    expect(FaqEntry.safeParse({ question: 'q', answer: 'a' }).success).toBe(false);
    expect(FaqLocation.parse({ page: FAQ_MATCH_ALL, service: FAQ_MATCH_ALL })).toEqual({ page: 'All', service: 'All' });
    expect(FaqLocation.safeParse({ page: 'waiting' }).success).toBe(false);
    expect(FaqLocation.safeParse({ page: 'x'.repeat(65), service: 'All' }).success).toBe(false);
  });

  it("legal pages: a party's own texts, up to five FAQ answers long each", () => {
    const longest = 'x'.repeat(FAQ_ANSWER_MAX_LENGTH * 5);
    for (const page of ['imprint', 'privacy', 'terms']) {
      expect(LegalSettings.safeParse({ [page]: longest }).success, page).toBe(true);
      expect(LegalSettings.safeParse({ [page]: `${longest}x` }).success, page).toBe(false);
    }
    expect(LegalSettings.safeParse({ cookies: 'x' }).success).toBe(false);
  });
});

describe('spec 5 validation: ids and codes', () => {
  it('country codes are two lower-case letters', () => {
    expect(CountryCode.safeParse('de').success).toBe(true);
    for (const bad of ['DE', 'd', 'deu', '1d', 'd1', ' de', 'de ']) expect(CountryCode.safeParse(bad).success, bad).toBe(false);
    expect(refusal(CountryCode, 'DE')).toMatch(/two-letter lower-case country code/);
  });

  it('party ids: 1 to 64 letters, digits, - or _, starting with a letter or digit', () => {
    for (const ok of ['p', '7', 'Release-Night_2025', `a${'b'.repeat(63)}`]) expect(PartyId.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', '-p', '_p', `a${'b'.repeat(64)}`, 'p/1', '../p', 'p 1', 'p\n', 'p.1', 'ü']) {
      expect(PartyId.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const refused = PartyId.safeParse('../etc');
    expect(refused.success ? '' : refused.error.issues[0]?.message).toBe(PARTY_ID_RULE);
    expect(PARTY_ID_RULE).toMatch(/64/);
  });
});

describe('spec 3/8: sticker glyphs and error names', () => {
  it('every default sticker has its own glyph', () => {
    const glyphs = DEFAULT_STICKERS.map((id) => STICKER_GLYPHS[id]);
    for (const [i, glyph] of glyphs.entries()) expect(glyph, DEFAULT_STICKERS[i]).toMatch(/\p{Extended_Pictographic}/u);
    expect(new Set(glyphs).size).toBe(DEFAULT_STICKERS.length);
    expect(Object.keys(STICKER_GLYPHS).sort()).toEqual([...DEFAULT_STICKERS].sort());
  });

  it('8: a taken email or display name is a DuplicateSignupError; the FAQ wildcard is All', () => {
    expect(DUPLICATE_SIGNUP_ERROR).toBe('DuplicateSignupError');
    expect(FAQ_MATCH_ALL).toBe('All');
  });

  it('our refusal types are distinct error class names, and the read-only waiting room says why', () => {
    const names = [DUPLICATE_SIGNUP_ERROR, CHAT_RATE_LIMITED_ERROR, GRANT_LINK_REFUSED_ERROR, CHAT_SLOW_MODE_ERROR, REACTION_RATE_LIMITED_ERROR];
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z]+$/);
    expect(new Set(names).size).toBe(names.length);
    expect(WAITING_ROOM_READ_ONLY_DETAIL).toMatch(/chat/i);
  });
});
