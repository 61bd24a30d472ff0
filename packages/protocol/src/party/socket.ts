/**
 * The party socket (spec `listening-party.md`, sections 4 "Socket connection" and 7 "Socket").
 *
 * - Connect: `GET /api/parties/{id}?access_token={token}` upgraded to a WebSocket.
 * - Heartbeat: either side may send the text `ping`; the other side answers with the text `pong`.
 *   The client pings about every `SOCKET_HEARTBEAT_MS` plus jitter; the server pings idle sockets.
 * - Server → client: `ping`/`pong` texts, or a JSON array of `ServerEvent` (events are batched).
 * - Client → server: `ping`/`pong` texts, or one JSON `ClientFrame` per message.
 *
 * Sequenced events carry `seq_id` (per party, strictly increasing) and `server_time_ms`. A client
 * that reconnects sends `resume` with the last `seq_id` it applied; the server replays what it
 * still holds, or sends `resync` when the gap is beyond its retained window.
 */
import { z } from 'zod';
import { EpochMs, Id, IsoDateTime, NonNegativeInt } from '../common.ts';
import { ChatMessage } from './chat.ts';
import { PlayerStatus, Role, SeqId, UserChatRight } from './entities.ts';
import { DASHBOARD_VIEW, PartyStatsEvent } from './dashboard.ts';
import { SourceFrame } from './source.ts';

/** Path of a party's socket (the same path as `GET /api/parties/{id}`, upgraded). */
export const SOCKET_PATH = (partyId: string): string => `/api/parties/${encodeURIComponent(partyId)}`;

/** The socket route in fastify style, for the server. */
export const SOCKET_ROUTE_PATH = '/api/parties/:id';

/** Query of the socket URL: the fan's bearer token (browsers cannot set socket headers). */
export const SocketQuery = z.object({
  access_token: z.string().min(1),
  /** Ours (issue 14): `dashboard` opens the hosts' aggregated stream (`party_stats`) instead of the fan stream. */
  view: z.literal(DASHBOARD_VIEW).optional(),
});
export type SocketQuery = z.infer<typeof SocketQuery>;

/** Heartbeat text. Whoever receives `ping` answers `pong`. */
export const PING_TEXT = 'ping';
/** Answer to a `ping` text. */
export const PONG_TEXT = 'pong';

/** Close codes of the party socket. */
export const CloseCode = {
  /** Normal close (client leaves, party ended). */
  NORMAL: 1000,
  /** The server is going away (e.g. restart); reconnect. */
  GOING_AWAY: 1001,
  /** Bad or missing token, or the fan was removed from the party. The app shows its global error state (spec 5). */
  POLICY_VIOLATION: 1008,
  /** The server is shutting down; reconnect with backoff. */
  SERVER_SHUTDOWN: 4001,
  /** The client did not read fast enough and its send buffer filled up; reconnect and resume. */
  SLOW_CONSUMER: 4008,
} as const;
export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode];

/** Codes of the `error` event. */
export const SOCKET_ERROR_CODES = ['invalid_json', 'invalid_frame', 'unknown_type', 'rate_limited'] as const;

/** Why the server refused a client frame (`error` event). */
export const SocketErrorCode = z.enum(SOCKET_ERROR_CODES);
export type SocketErrorCode = z.infer<typeof SocketErrorCode>;

// ---------------------------------------------------------------------------------------------
// Server → client: sequenced party events
// ---------------------------------------------------------------------------------------------

/** Fields every sequenced event carries. */
const sequenced = {
  /** Position in the party's event stream: per party, strictly increasing. */
  seq_id: SeqId,
  /** Server clock when the event was made. */
  server_time_ms: EpochMs,
};

/** A chat message is itself the event: `type` is the message type (`message`, `poll`, ...). */
export const ChatMessageEvent = ChatMessage.extend({ server_time_ms: EpochMs });
export type ChatMessageEvent = z.infer<typeof ChatMessageEvent>;

/** The current track changed (a new track started, or a seek); the client plays `status`. */
export const TrackChangeEvent = z.object({ type: z.literal('track_change'), ...sequenced, status: PlayerStatus });
export type TrackChangeEvent = z.infer<typeof TrackChangeEvent>;

/** The upcoming order changed (votes, a poll with `set_next_track`, tracks edited). */
export const QueueChangeEvent = z.object({
  type: z.literal('queue_change'),
  ...sequenced,
  /** Upcoming track ids, next first. */
  queue: z.array(Id),
});
export type QueueChangeEvent = z.infer<typeof QueueChangeEvent>;

/** The party was started. */
export const PartyStartedEvent = z.object({
  type: z.literal('party_started'),
  ...sequenced,
  status: PlayerStatus,
  started_at: IsoDateTime,
});
export type PartyStartedEvent = z.infer<typeof PartyStartedEvent>;

/** The party was stopped: the timeline is paused (`status.is_paused`) or gone. */
export const PartyStoppedEvent = z.object({
  type: z.literal('party_stopped'),
  ...sequenced,
  status: PlayerStatus.nullable(),
});
export type PartyStoppedEvent = z.infer<typeof PartyStoppedEvent>;

/** The party was ended; the client stores `ends_at` and re-runs the redirect rule. */
export const PartyEndedEvent = z.object({ type: z.literal('party_ended'), ...sequenced, ends_at: IsoDateTime });
export type PartyEndedEvent = z.infer<typeof PartyEndedEvent>;

/** The party's times or voting flag changed; the client re-runs the redirect rule (spec 4). */
export const PartyChangedEvent = z.object({
  type: z.literal('party_changed'),
  ...sequenced,
  starts_at: IsoDateTime,
  ends_at: IsoDateTime.nullable(),
  voting_enabled: z.boolean(),
  /**
   * Ours: `frontend.waitingRoomReadOnly`, so fans already waiting follow the host's switch (a
   * change of it publishes this event too). Absent from older servers: keep what is known.
   */
  waiting_room_read_only: z.boolean().optional(),
});
export type PartyChangedEvent = z.infer<typeof PartyChangedEvent>;

/** A track's vote count changed. */
export const VotesChangedEvent = z.object({
  type: z.literal('votes_changed'),
  ...sequenced,
  track_id: Id,
  votes: NonNegativeInt,
});
export type VotesChangedEvent = z.infer<typeof VotesChangedEvent>;

/** New counts of a poll, or its closing. */
export const PollResultsEvent = z.object({
  type: z.literal('poll_results'),
  ...sequenced,
  poll_id: Id,
  /** Answer count per option index. */
  results: z.array(NonNegativeInt),
  closed: z.boolean(),
});
export type PollResultsEvent = z.infer<typeof PollResultsEvent>;

/** New counts of a quiz question, or its closing (which reveals `correct_answer`). */
export const QuizResultsEvent = z.object({
  type: z.literal('quiz_results'),
  ...sequenced,
  question_id: Id,
  results: z.array(NonNegativeInt),
  closed: z.boolean(),
  /** Null while the question is open. */
  correct_answer: NonNegativeInt.nullable(),
});
export type QuizResultsEvent = z.infer<typeof QuizResultsEvent>;

/** A user was blocked from or allowed back into the chat. */
export const UserCanChatEvent = UserChatRight.extend({ type: z.literal('user_can_chat'), ...sequenced });
export type UserCanChatEvent = z.infer<typeof UserCanChatEvent>;

/** All chat messages were deleted (`DELETE /api/parties/{id}/chat`). */
export const ChatClearedEvent = z.object({ type: z.literal('chat_cleared'), ...sequenced });
export type ChatClearedEvent = z.infer<typeof ChatClearedEvent>;

/** All users were removed (`DELETE /api/parties/{id}/users`); sockets are then closed with 1008. */
export const UsersClearedEvent = z.object({ type: z.literal('users_cleared'), ...sequenced });
export type UsersClearedEvent = z.infer<typeof UsersClearedEvent>;

/** Any sequenced party event: these are retained for `resume` and applied in `seq_id` order. */
export const SequencedEvent = z.discriminatedUnion('type', [
  ChatMessageEvent,
  TrackChangeEvent,
  QueueChangeEvent,
  PartyStartedEvent,
  PartyStoppedEvent,
  PartyEndedEvent,
  PartyChangedEvent,
  VotesChangedEvent,
  PollResultsEvent,
  QuizResultsEvent,
  UserCanChatEvent,
  ChatClearedEvent,
  UsersClearedEvent,
]);
export type SequencedEvent = z.infer<typeof SequencedEvent>;

// ---------------------------------------------------------------------------------------------
// Server → client: control events (not sequenced, not replayed)
// ---------------------------------------------------------------------------------------------

/** First event on a new socket. */
export const HelloEvent = z.object({
  type: z.literal('hello'),
  /** The party's current `seq_id`: events after it will follow. */
  seq_id: SeqId,
  server_time_ms: EpochMs,
  /** The connected party user. */
  user_id: Id,
  role: Role,
});
export type HelloEvent = z.infer<typeof HelloEvent>;

/** Reasons for a `resync`. */
export const RESYNC_REASONS = ['missed_events'] as const;

/**
 * Answer to a `resume` that asked for events beyond the retained window: the client reloads its
 * state over REST (party, tracks, chat) and continues from `seq_id`.
 */
export const ResyncEvent = z.object({
  type: z.literal('resync'),
  reason: z.enum(RESYNC_REASONS),
  /** The party's current `seq_id`. */
  seq_id: SeqId,
  status: PlayerStatus.nullable(),
});
export type ResyncEvent = z.infer<typeof ResyncEvent>;

/** Clock-sync answer to a client `time` frame; offset ≈ server_time_ms - (sent + received) / 2. */
export const TimeEvent = z.object({
  type: z.literal('time'),
  /** Echo of the client's `client_time_ms`. */
  client_time_ms: z.number(),
  server_time_ms: EpochMs,
});
export type TimeEvent = z.infer<typeof TimeEvent>;

/** The server refused a client frame; the socket stays open. */
export const SocketErrorEvent = z.object({
  type: z.literal('error'),
  code: SocketErrorCode,
  message: z.string(),
});
export type SocketErrorEvent = z.infer<typeof SocketErrorEvent>;

/**
 * Ours (issue 15): the party's live listener count. Aggregated by the server and sent at most once
 * per `PRESENCE_WINDOW_MS` when it changed, never one event per join or leave.
 */
export const PresenceEvent = z.object({
  type: z.literal('presence'),
  /** Fans with an open socket to the party (distinct fans). */
  listeners: NonNegativeInt,
});
export type PresenceEvent = z.infer<typeof PresenceEvent>;

/** Ours (issue 15): the quick reactions a fan can send on the current track (a small fixed set). */
export const REACTIONS = ['fire', 'heart', 'clap', 'wow', 'party'] as const;
export const Reaction = z.enum(REACTIONS);
export type Reaction = z.infer<typeof Reaction>;

/** Reactions of a party are counted per window of this length and sent as one `reactions` event. */
export const REACTIONS_WINDOW_MS = 1_000;
/** A listener count that changed is sent at most once per this window. */
export const PRESENCE_WINDOW_MS = 2_000;
/**
 * A fan's sustained reaction pace: one per this interval (10 per second), well above a tapping
 * fan's natural 5 per second. Reactions beyond it and beyond the burst answer 429 with the wait.
 */
export const REACTION_MIN_INTERVAL_MS = 100;
/** How many reactions a fan may send at once before the sustained pace applies (the abuse limit). */
export const REACTION_BURST = 20;

/** Ours (issue 15): the reactions of the last window, summed by the server; the client shows a burst. */
export const ReactionsEvent = z.object({
  type: z.literal('reactions'),
  /** The track the reactions were sent on (null between tracks). */
  track_id: Id.nullable(),
  /** How many fans sent each reaction in the window (absent: none). */
  counts: z.partialRecord(Reaction, z.number().int().positive()),
});
export type ReactionsEvent = z.infer<typeof ReactionsEvent>;

/** Body of `POST /api/parties/{id}/reactions`. */
export const ReactionBody = z.strictObject({ reaction: Reaction });
export type ReactionBody = z.infer<typeof ReactionBody>;

/** Answer to a reaction: counted into the current window. */
export const ReactionAccepted = z.object({ reaction: Reaction, track_id: Id.nullable() });
export type ReactionAccepted = z.infer<typeof ReactionAccepted>;

/** `detail.type` of a 429 answer to a reaction sent too soon (`detail.retry_after_ms` says when). */
export const REACTION_RATE_LIMITED_ERROR = 'ReactionRateLimited';

/** Any control event. */
export const ControlEvent = z.discriminatedUnion('type', [HelloEvent, ResyncEvent, TimeEvent, SocketErrorEvent, PresenceEvent, ReactionsEvent, PartyStatsEvent]);
export type ControlEvent = z.infer<typeof ControlEvent>;

/** Any server → client event. */
export const ServerEvent = z.discriminatedUnion('type', [SequencedEvent, ControlEvent]);
export type ServerEvent = z.infer<typeof ServerEvent>;

/** The `type` of any server event. */
export type ServerEventType = ServerEvent['type'];

/** One JSON text frame from the server: a batch of events. */
export const ServerFrame = z.array(ServerEvent);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** Types of the control events, which carry no sequence position of their own. */
export const CONTROL_EVENT_TYPES = ['hello', 'resync', 'time', 'error', 'presence', 'reactions', 'party_stats'] as const satisfies readonly ControlEvent['type'][];

/** True when the event is a sequenced party event (not one of `CONTROL_EVENT_TYPES`). */
export function isSequencedEvent(event: ServerEvent): event is SequencedEvent {
  return !(CONTROL_EVENT_TYPES as readonly string[]).includes(event.type);
}

// ---------------------------------------------------------------------------------------------
// Client → server
// ---------------------------------------------------------------------------------------------

/** Ask for the events after `last_seq_id` (sent after a reconnect). */
export const ResumeFrame = z.strictObject({
  type: z.literal('resume'),
  /** The last `seq_id` the client applied. */
  last_seq_id: NonNegativeInt,
});
export type ResumeFrame = z.infer<typeof ResumeFrame>;

/** Ask for the server clock; answered by a `time` event. */
export const TimeFrame = z.strictObject({
  type: z.literal('time'),
  /** The client's clock when sending, echoed back. */
  client_time_ms: z.number(),
});
export type TimeFrame = z.infer<typeof TimeFrame>;

/** Any JSON frame a client may send. */
export const ClientFrame = z.discriminatedUnion('type', [ResumeFrame, TimeFrame, SourceFrame]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** Types of the frames a client may send. */
export const CLIENT_FRAME_TYPES = ['resume', 'time', 'source'] as const satisfies readonly ClientFrame['type'][];

/** A client text message as the server reads it. */
export type ParsedClientMessage =
  | { kind: 'ping' }
  | { kind: 'pong' }
  | { kind: 'frame'; frame: ClientFrame }
  | { kind: 'error'; code: SocketErrorCode; message: string };

/**
 * Reads one text message from a client: the heartbeat texts, or a JSON `ClientFrame`. Never
 * throws; a bad message yields the `error` code the server answers with.
 */
export function parseClientMessage(text: string): ParsedClientMessage {
  if (text === PING_TEXT) return { kind: 'ping' };
  if (text === PONG_TEXT) return { kind: 'pong' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'error', code: 'invalid_json', message: 'Frame is not valid JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json) || typeof (json as { type?: unknown }).type !== 'string') {
    return { kind: 'error', code: 'invalid_frame', message: 'Frame must be an object with a string type' };
  }
  const type = (json as { type: string }).type;
  if (!(CLIENT_FRAME_TYPES as readonly string[]).includes(type)) {
    return { kind: 'error', code: 'unknown_type', message: `Unknown frame type: ${type}` };
  }
  const parsed = ClientFrame.safeParse(json);
  if (!parsed.success) {
    return { kind: 'error', code: 'invalid_frame', message: z.prettifyError(parsed.error) };
  }
  return { kind: 'frame', frame: parsed.data };
}
