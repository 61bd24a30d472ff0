/** Tables of the chat domain (migration 003_chat declares them; 018 the prepared questions). */
export interface ChatTables {
  chat_messages: ChatMessageTable;
  chat_questions: ChatQuestionTable;
  chat_answers: ChatAnswerTable;
  chat_schedule: ChatScheduleTable;
  chat_fake_traffic: ChatFakeTrafficTable;
  chat_prepared_questions: ChatPreparedQuestionTable;
}

/**
 * One chat message of any kind. The sender's name, picture, role and quiz score are copied in when
 * the message is posted, so a message keeps what its author was at that moment.
 */
export interface ChatMessageTable {
  id: string;
  party_id: string;
  /** The party event's seq_id under which the message was broadcast. */
  seq_id: number;
  /** message | poll | quiz_question | quiz_scoreboard | quiz_user_scores | popup */
  type: string;
  timestamp_ms: number;
  /** Fan id of the author; null for system messages (popups, scoreboards, scheduled messages). */
  sender_id: string | null;
  sender_role: string | null;
  sender_quiz_score: number | null;
  sender_display_name: string | null;
  sender_profile_picture: string | null;
  sender_profile_sticker: string | null;
  reply_to_message_id: string | null;
  text: string | null;
  sticker: string | null;
  video: string | null;
  photo: string | null;
  poll_id: string | null;
  question_id: string | null;
  /** JSON: the popup, the scoreboard entries, or the quiz scores ({user_ids, scores, total_questions}). */
  payload: string | null;
}

/** A poll (`kind` = poll) or a quiz question (`kind` = quiz). */
export interface ChatQuestionTable {
  id: string;
  party_id: string;
  kind: string;
  question: string;
  /** JSON string[] */
  options: string;
  /** Index of the correct option (quiz only). */
  correct_answer: number | null;
  duration_seconds: number;
  set_next_track: number;
  created_at_ms: number;
  closes_at_ms: number;
  /** Set by the one node that claimed the closing; null while open. */
  closed_at_ms: number | null;
}

/** One fan's answer to a poll or quiz question; the primary key makes it one per fan. */
export interface ChatAnswerTable {
  question_id: string;
  fan_id: string;
  party_id: string;
  kind: string;
  answer_id: number;
  /** 1 when a quiz answer is the correct option (counts only once the question closed). */
  is_correct: number;
  created_at: number;
}

/** A scheduled chat message; `next_run_at` is the next due time, null once a one-off was posted. */
export interface ChatScheduleTable {
  id: string;
  party_id: string;
  text: string;
  sticker: string | null;
  post_at: number;
  /** Seconds between repeats; null for a one-off. */
  recurring_interval: number | null;
  next_run_at: number | null;
  last_posted_at: number | null;
  created_at: number;
}

/** Fake chat traffic running for a party; the row is what every node checks to keep or stop it. */
export interface ChatFakeTrafficTable {
  party_id: string;
  run_id: string;
  messages_per_second: number;
  stops_at: number;
  created_at: number;
}

/** A poll or quiz question a host prepared for later (migration 018). */
export interface ChatPreparedQuestionTable {
  id: string;
  party_id: string;
  /** poll | quiz */
  kind: string;
  /** JSON: the body of the poll or quiz call that starts it (`PostPollBody`, `PostQuizQuestionBody`). */
  body: string;
  created_at: number;
}
