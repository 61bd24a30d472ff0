/**
 * Chat messages (spec `listening-party.md`, section 3 "Chat message"). Every kind of message
 * (text, poll, quiz question, scoreboard, quiz scores, popup) is one object shape; `type` says
 * which payload field is set. A message with `delete_message_id` set is a deletion: the client
 * removes the message it names.
 */
import { z } from 'zod';
import { EpochMs, Id, NonNegativeInt } from '../common.ts';
import { ChatMessageType, Poll, Popup, QuizQuestion, Role, ScoreboardEntry, SeqId } from './entities.ts';

/** The author of a chat message, as shown next to it. */
export const ChatSender = z.object({
  id: Id,
  /** Messages by `admin`, `host` (or the viewer) count as artist messages. */
  role: Role,
  quiz_score: NonNegativeInt,
  display_name: z.string(),
  profile_picture: z.string().nullable(),
  profile_sticker: z.string().nullable(),
});
export type ChatSender = z.infer<typeof ChatSender>;

/** A chat message of any kind; the client orders and deduplicates by `timestamp_ms` and `seq_id`. */
export const ChatMessage = z.object({
  id: Id,
  /** Server time at which the message was accepted. */
  timestamp_ms: EpochMs,
  /** Position in the party's event stream, assigned by the server. */
  seq_id: SeqId,
  type: ChatMessageType,
  /** Null for messages by the system (popups, scoreboards, scheduled messages). */
  sender: ChatSender.nullable(),
  /** Set on `poll` messages: the id of `poll`. */
  poll_id: Id.nullable().optional(),
  /** Set on `quiz_question` messages: the id of `quiz_question`. */
  question_id: Id.nullable().optional(),
  /** When set, this message deletes the message with that id. */
  delete_message_id: Id.nullable().optional(),
  /** The message this one replies to. */
  reply_to_message_id: Id.nullable().optional(),
  text: z.string().nullable().optional(),
  /** Sticker id. */
  sticker: z.string().nullable().optional(),
  /** Video URL (from `POST .../uploads/media`). */
  video: z.string().nullable().optional(),
  /** Photo URL (from `POST .../uploads/media`). */
  photo: z.string().nullable().optional(),
  /** Payload of a `poll` message. */
  poll: Poll.optional(),
  /** Payload of a `quiz_question` message. */
  quiz_question: QuizQuestion.optional(),
  /** Payload of a `popup` message. */
  popup: Popup.optional(),
  /** Payload of a `quiz_scoreboard` message: the top entries, best first. */
  scoreboard: z.array(ScoreboardEntry).optional(),
  /** `quiz_scoreboard`: how long the scoreboard stays shown (the host's `duration_seconds`). */
  duration_seconds: NonNegativeInt.optional(),
  /** `quiz_scoreboard`: server time at which the app stops showing it. */
  closes_at_ms: NonNegativeInt.optional(),
  /** `quiz_user_scores`: users whose scores changed; `scores[i]` belongs to `user_ids[i]`. */
  user_ids: z.array(Id).optional(),
  /** `quiz_user_scores`: new total score per entry of `user_ids`. */
  scores: z.array(NonNegativeInt).optional(),
  /** `quiz_user_scores`: number of quiz questions asked so far. */
  total_questions: NonNegativeInt.optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;
