import { describe, expect, it } from 'vitest';
import { ChatMessage, ChatSender } from './chat.ts';
import { PartyStatsEvent } from './dashboard.ts';
import { PARTY_ROUTES } from './routes.ts';
import {
  ClientFrame,
  ControlEvent,
  ReactionAccepted,
  ReactionBody,
  ReactionsEvent,
  SequencedEvent,
  ServerEvent,
  ServerFrame,
  SOCKET_PATH,
  SOCKET_ROUTE_PATH,
  SocketQuery,
  isSequencedEvent,
  parseClientMessage,
} from './socket.ts';

const track = { id: 't1', name: 'Intro', artists: ['Band'], album: 'Record', duration_ms: 180_000, image: null, service: 'spotify', hls_url: null };
const status = { track, progress_ms: 1000, is_paused: false, timestamp_ms: 1_700_000_000_000 };
const at = { seq_id: 7, server_time_ms: 1_700_000_000_500 };
const sender = { id: 'u1', role: 'host', quiz_score: 3, display_name: 'The Band', profile_picture: null, profile_sticker: 'fire' };
const poll = {
  id: 'po1',
  question: 'Next?',
  options: ['t2', 't3'],
  duration_seconds: 60,
  set_next_track: true,
  created_at_ms: 1,
  closes_at_ms: 60_001,
  closed: false,
  results: [1, 2],
};

/** A message that sets every optional field, so a field the schema forgets shows in the output. */
const fullMessage = {
  id: 'm1',
  timestamp_ms: 1_700_000_000_000,
  seq_id: 5,
  type: 'quiz_question',
  sender,
  poll_id: 'po1',
  question_id: 'q1',
  delete_message_id: null,
  reply_to_message_id: 'm0',
  text: 'Which year?',
  sticker: 'fire',
  video: 'https://cdn.example.com/v.mp4',
  photo: '/uploads/media/a.jpg',
  poll,
  quiz_question: { ...poll, id: 'q1', correct_answer: null },
  popup: { service: 'apple', free_only: true, message: 'Hi', is_closeable: true, is_restart: false, timestamp_ms: 9 },
  scoreboard: [{ user_id: 'u2', display_name: 'ada', score: 4 }],
  duration_seconds: 30,
  closes_at_ms: 1_700_000_030_000,
  user_ids: ['u2'],
  scores: [4],
  total_questions: 2,
};

const sources = { provider: 3, label_stream: 1, preview: 0, none: 0, unknown: 1 };
const partyStats = {
  type: 'party_stats',
  server_time_ms: 1_700_000_000_000,
  listeners: 5,
  listeners_scope: 'cluster',
  sources,
  buckets: [{ start_ms: 1_700_000_000_000, joins: 2, leaves: 1, messages: 4, listeners: 5 }],
  messages_last_minute: 4,
  totals: { messages: 10, joins: 6, leaves: 1, votes: 3, answers: 2 },
  votes: [{ track_id: 't1', name: 'Intro', votes: 3 }],
  questions: [
    { id: 'q1', kind: 'quiz', question: 'Year?', options: ['1999', '2001'], results: [1, 1], closed: false, correct_answer: 1, created_at_ms: 1 },
  ],
  status,
  started_at: '2025-05-02T18:00:00Z',
  ends_at: null,
  chat: [{ id: 'm2', timestamp_ms: 2, seq_id: 8, type: 'message', sender, text: 'hi' }],
  chat_skipped: 0,
  deleted_message_ids: ['m0'],
  blocked: [{ user_id: 'u9', display_name: 'troll' }],
};

/** One example of every sequenced event (spec 7 "Socket"), each with its sequence position. */
const sequencedEvents = [
  { ...fullMessage, server_time_ms: 1_700_000_000_001 },
  { type: 'track_change', ...at, status },
  { type: 'queue_change', ...at, queue: ['t2', 't3'] },
  { type: 'party_started', ...at, status, started_at: '2025-05-02T18:00:00Z' },
  { type: 'party_stopped', ...at, status: { ...status, is_paused: true } },
  { type: 'party_ended', ...at, ends_at: '2025-05-02T20:00:00Z' },
  { type: 'party_changed', ...at, starts_at: '2025-05-02T18:00:00Z', ends_at: null, voting_enabled: false, waiting_room_read_only: true },
  { type: 'votes_changed', ...at, track_id: 't2', votes: 4 },
  { type: 'poll_results', ...at, poll_id: 'po1', results: [3, 1], closed: true },
  { type: 'quiz_results', ...at, question_id: 'q1', results: [0, 2], closed: true, correct_answer: 1 },
  { type: 'user_can_chat', ...at, user_id: 'u2', can_chat: false },
  { type: 'chat_cleared', ...at },
  { type: 'users_cleared', ...at },
];

/** One example of every control event: not sequenced, not replayed. */
const controlEvents = [
  { type: 'hello', seq_id: 4, server_time_ms: 10, user_id: 'u1', role: 'listener' },
  { type: 'resync', reason: 'missed_events', seq_id: 40, status: null },
  { type: 'time', client_time_ms: 123.5, server_time_ms: 130 },
  { type: 'error', code: 'rate_limited', message: 'Slow down' },
  { type: 'presence', listeners: 12 },
  { type: 'reactions', track_id: 't1', counts: { fire: 3, heart: 1 } },
  partyStats,
];

describe('spec 7 socket: server events', () => {
  it('every sequenced event parses to itself and counts as sequenced', () => {
    for (const event of sequencedEvents) {
      expect(ServerEvent.parse(event), event.type).toEqual(event);
      expect(SequencedEvent.parse(event), event.type).toEqual(event);
      expect(isSequencedEvent(ServerEvent.parse(event)), event.type).toBe(true);
    }
  });

  it('a sequenced event without its seq_id or server time is refused', () => {
    for (const event of sequencedEvents) {
      const { seq_id: _seq, ...withoutSeq } = event;
      const { server_time_ms: _time, ...withoutTime } = event;
      expect(ServerEvent.safeParse(withoutSeq).success, event.type).toBe(false);
      expect(ServerEvent.safeParse(withoutTime).success, event.type).toBe(false);
    }
  });

  it('every control event parses to itself and is not sequenced', () => {
    for (const event of controlEvents) {
      expect(ServerEvent.parse(event), event.type).toEqual(event);
      expect(ControlEvent.parse(event), event.type).toEqual(event);
      expect(isSequencedEvent(ServerEvent.parse(event)), event.type).toBe(false);
    }
  });

  it('control events miss none of their fields', () => {
    for (const event of controlEvents) {
      for (const key of Object.keys(event).filter((k) => k !== 'type')) {
        const { [key]: _dropped, ...without } = event as Record<string, unknown>;
        expect(ServerEvent.safeParse(without).success, `${event.type} without ${key}`).toBe(false);
      }
    }
  });

  it('a frame is an array of events of any kind, in order', () => {
    const frame = [...sequencedEvents, ...controlEvents];
    expect(ServerFrame.parse(frame)).toEqual(frame);
    expect(ServerFrame.safeParse(sequencedEvents[1]).success).toBe(false);
  });

  it('sequenced events keep their payload rules: queue ids, counts and resync reasons', () => {
    expect(ServerEvent.safeParse({ type: 'queue_change', ...at, queue: [''] }).success).toBe(false);
    expect(ServerEvent.safeParse({ type: 'votes_changed', ...at, track_id: 't2', votes: -1 }).success).toBe(false);
    expect(ServerEvent.safeParse({ type: 'party_started', ...at, status, started_at: 'today' }).success).toBe(false);
    expect(ServerEvent.safeParse({ type: 'resync', reason: 'bored', seq_id: 1, status: null }).success).toBe(false);
    expect(ServerEvent.safeParse({ type: 'error', code: 'teapot', message: 'x' }).success).toBe(false);
    expect(ServerEvent.safeParse({ type: 'presence', listeners: 1.5 }).success).toBe(false);
  });

  it('reactions: counts are positive integers per known reaction; absent reactions mean none', () => {
    expect(ReactionsEvent.parse({ type: 'reactions', track_id: null, counts: {} })).toEqual({ type: 'reactions', track_id: null, counts: {} });
    expect(ReactionsEvent.safeParse({ type: 'reactions', track_id: null, counts: { fire: 0 } }).success).toBe(false);
    expect(ReactionsEvent.safeParse({ type: 'reactions', track_id: null, counts: { fire: 1.5 } }).success).toBe(false);
    expect(ReactionsEvent.safeParse({ type: 'reactions', track_id: null, counts: { boo: 1 } }).success).toBe(false);
  });

  it('the dashboard stream: party_stats carries the aggregates, scope node or cluster', () => {
    expect(PartyStatsEvent.parse(partyStats)).toEqual(partyStats);
    expect(PartyStatsEvent.parse({ ...partyStats, listeners_scope: 'node' }).listeners_scope).toBe('node');
    expect(PartyStatsEvent.safeParse({ ...partyStats, listeners_scope: 'region' }).success).toBe(false);
    expect(PartyStatsEvent.safeParse({ ...partyStats, totals: { ...partyStats.totals, answers: undefined } }).success).toBe(false);
  });
});

describe('spec 3 chat message', () => {
  it('a message with every payload set parses to itself', () => {
    expect(ChatMessage.parse(fullMessage)).toEqual(fullMessage);
  });

  it('the sender must be complete, with a party role', () => {
    expect(ChatSender.parse(sender)).toEqual(sender);
    for (const key of Object.keys(sender)) {
      const { [key]: _dropped, ...without } = sender as Record<string, unknown>;
      expect(ChatSender.safeParse(without).success, key).toBe(false);
    }
    expect(ChatSender.safeParse({ ...sender, role: 'owner' }).success).toBe(false);
  });

  it('a message needs its id, time, position, type and sender (null for the system)', () => {
    const minimal = { id: 'm3', timestamp_ms: 1, seq_id: 1, type: 'popup', sender: null };
    expect(ChatMessage.parse(minimal)).toEqual(minimal);
    for (const key of Object.keys(minimal)) {
      const { [key]: _dropped, ...without } = minimal as Record<string, unknown>;
      expect(ChatMessage.safeParse(without).success, key).toBe(false);
    }
  });
});

describe('spec 4/7 socket connection', () => {
  it('the socket path is the party path with the id encoded (the same route as GET party, upgraded)', () => {
    expect(SOCKET_PATH('a b/c')).toBe('/api/parties/a%20b%2Fc');
    expect(SOCKET_ROUTE_PATH).toBe(PARTY_ROUTES.getParty.path);
  });

  it('the socket query needs a non-empty token; view may only ask for the dashboard', () => {
    expect(SocketQuery.parse({ access_token: 'token-abc' })).toEqual({ access_token: 'token-abc' });
    expect(SocketQuery.parse({ access_token: 'token-abc', view: 'dashboard' })).toEqual({ access_token: 'token-abc', view: 'dashboard' });
    expect(SocketQuery.safeParse({ access_token: '' }).success).toBe(false);
    expect(SocketQuery.safeParse({}).success).toBe(false);
    expect(SocketQuery.safeParse({ access_token: 'token-abc', view: 'fan' }).success).toBe(false);
  });

  it('a reaction body names one known reaction and nothing else', () => {
    expect(ReactionBody.parse({ reaction: 'clap' })).toEqual({ reaction: 'clap' });
    expect(ReactionBody.safeParse({ reaction: 'clap', extra: 1 }).success).toBe(false);
    expect(ReactionBody.safeParse({ reaction: 'boo' }).success).toBe(false);
    expect(ReactionBody.safeParse({}).success).toBe(false);
    expect(ReactionAccepted.parse({ reaction: 'wow', track_id: null })).toEqual({ reaction: 'wow', track_id: null });
    expect(ReactionAccepted.safeParse({ reaction: 'wow' }).success).toBe(false);
  });
});

describe('spec 7 socket: client messages', () => {
  it('valid frames of each type are read as frames', () => {
    expect(parseClientMessage('{"type":"resume","last_seq_id":0}')).toEqual({ kind: 'frame', frame: { type: 'resume', last_seq_id: 0 } });
    const time = ClientFrame.parse({ type: 'time', client_time_ms: 5 });
    expect(time).toEqual({ type: 'time', client_time_ms: 5 });
    expect(ClientFrame.safeParse({ type: 'time', client_time_ms: 5, extra: true }).success).toBe(false);
    expect(ClientFrame.safeParse({ type: 'resume', last_seq_id: 1, extra: true }).success).toBe(false);
  });

  it('JSON that is not an object with a string type is an invalid frame, never a crash', () => {
    for (const text of ['null', '5', '"resume"', 'true', '[{"type":"resume","last_seq_id":1}]', '{"type":5}', '{}']) {
      expect(parseClientMessage(text), text).toEqual({
        kind: 'error',
        code: 'invalid_frame',
        message: 'Frame must be an object with a string type',
      });
    }
  });

  it('the error messages say what was wrong: bad JSON, the unknown type, the invalid field', () => {
    expect(parseClientMessage('{nope')).toEqual({ kind: 'error', code: 'invalid_json', message: 'Frame is not valid JSON' });
    expect(parseClientMessage('{"type":"dance"}')).toEqual({ kind: 'error', code: 'unknown_type', message: 'Unknown frame type: dance' });
    const invalid = parseClientMessage('{"type":"resume","last_seq_id":"x"}');
    expect(invalid).toMatchObject({ kind: 'error', code: 'invalid_frame' });
    expect(invalid.kind === 'error' && invalid.message).toContain('last_seq_id');
  });

  it('only the exact heartbeat texts are heartbeats', () => {
    expect(parseClientMessage('ping ')).toMatchObject({ kind: 'error', code: 'invalid_json' });
    expect(parseClientMessage('PONG')).toMatchObject({ kind: 'error', code: 'invalid_json' });
  });
});
