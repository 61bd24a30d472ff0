/**
 * The figures of one party for its hosts (issue 14), kept up to date from the party's events and
 * the socket server's joins and leaves, and turned into one `party_stats` event at a time. Pure
 * state: no timers, no I/O (the dashboard socket server drives it), so it is tested directly.
 */
import {
  STATS_BLOCKED,
  STATS_BUCKET_MS,
  STATS_BUCKETS,
  STATS_CHAT_TAIL,
  STATS_QUESTIONS,
  emptySourceCounts,
  type BlockedFan,
  type ChatMessage,
  type PartyStatsEvent,
  type PlayerStatus,
  type QuestionStats,
  type SourceCounts,
  type SequencedEvent,
  type StatsBucket,
} from '@fanfare/protocol';
import type { PartyJoins } from './joinLedger.ts';

/** What the aggregator starts from (read from the database when the first dashboard opens). */
export interface StatsSnapshot {
  tracks: { track_id: string; name: string }[];
  votes: Map<string, number>;
  questions: QuestionStats[];
  status: PlayerStatus | null;
  started_at: string | null;
  ends_at: string | null;
  blocked: BlockedFan[];
  /** Chat messages per bucket start, for the buckets still shown. */
  messageBuckets: Map<number, number>;
  totalMessages: number;
  totalAnswers: number;
  /** The newest chat messages, oldest first. */
  recentChat: ChatMessage[];
  /** Display names of fans, for the blocked list (filled as messages arrive). */
  names: Map<string, string>;
  /** Fan chat messages per second start over the last minute (the per-minute rate). */
  messageSeconds?: Map<number, number>;
  /** Fan socket joins and leaves this node counted before the first dashboard opened. */
  joins?: PartyJoins;
}

interface Bucket {
  joins: number;
  leaves: number;
  messages: number;
  listeners: number;
}

/** A chat message that counts as chat (not a deletion, a system post, a poll or a popup). */
export function isFanChat(m: ChatMessage): boolean {
  return m.type === 'message' && !m.delete_message_id && m.sender !== null;
}

export class PartyStatsAggregator {
  private readonly buckets = new Map<number, Bucket>();
  private readonly votes: Map<string, number>;
  private readonly trackNames: Map<string, string>;
  private readonly trackOrder: string[];
  private questions: QuestionStats[];
  private status: PlayerStatus | null;
  private startedAt: string | null;
  private endsAt: string | null;
  private readonly blocked = new Map<string, BlockedFan>();
  private readonly names: Map<string, string>;
  private totals: PartyStatsEvent['totals'];
  private tail: ChatMessage[];
  /** The newest chat messages whatever was sent already (for a dashboard that connects). */
  private recent: ChatMessage[];
  private skipped = 0;
  private deleted: string[] = [];
  private listeners = 0;
  private sources: SourceCounts = emptySourceCounts();
  /** Fan chat messages per second start, for the last minute only. */
  private readonly seconds = new Map<number, number>();
  /** True when something changed since the last `take()`. */
  dirty = true;

  constructor(
    snapshot: StatsSnapshot,
    private readonly scope: PartyStatsEvent['listeners_scope'],
  ) {
    this.trackOrder = snapshot.tracks.map((t) => t.track_id);
    this.trackNames = new Map(snapshot.tracks.map((t) => [t.track_id, t.name]));
    this.votes = new Map(snapshot.votes);
    this.questions = snapshot.questions.slice(0, STATS_QUESTIONS);
    this.status = snapshot.status;
    this.startedAt = snapshot.started_at;
    this.endsAt = snapshot.ends_at;
    for (const b of snapshot.blocked.slice(0, STATS_BLOCKED)) this.blocked.set(b.user_id, b);
    this.names = snapshot.names;
    for (const [start, messages] of snapshot.messageBuckets) this.buckets.set(start, { joins: 0, leaves: 0, messages, listeners: 0 });
    const joins = snapshot.joins ?? { joins: 0, leaves: 0, buckets: new Map() };
    for (const [start, j] of [...joins.buckets].sort((a, b) => a[0] - b[0])) {
      const b = this.buckets.get(start) ?? { joins: 0, leaves: 0, messages: 0, listeners: 0 };
      this.buckets.set(start, Object.assign(b, { joins: j.joins, leaves: j.leaves, listeners: j.listeners }));
      this.listeners = j.listeners;
    }
    for (const [second, n] of snapshot.messageSeconds ?? []) this.seconds.set(second, n);
    let votes = 0;
    for (const n of this.votes.values()) votes += n;
    this.totals = { messages: snapshot.totalMessages, joins: joins.joins, leaves: joins.leaves, votes, answers: snapshot.totalAnswers };
    this.tail = [];
    this.recent = snapshot.recentChat.slice(-STATS_CHAT_TAIL);
  }

  private bucket(now: number): Bucket {
    const start = now - (now % STATS_BUCKET_MS);
    let b = this.buckets.get(start);
    if (!b) {
      b = { joins: 0, leaves: 0, messages: 0, listeners: this.listeners };
      this.buckets.set(start, b);
      // Forget what no longer shows.
      const oldest = start - (STATS_BUCKETS - 1) * STATS_BUCKET_MS;
      for (const key of this.buckets.keys()) if (key < oldest) this.buckets.delete(key);
    }
    return b;
  }

  /** A fan's socket joined (`listeners`: the party's distinct listeners now). */
  joined(now: number, listeners: number): void {
    this.listeners = listeners;
    const b = this.bucket(now);
    b.joins += 1;
    b.listeners = listeners;
    this.totals.joins += 1;
    this.dirty = true;
  }

  left(now: number, listeners: number): void {
    this.listeners = listeners;
    const b = this.bucket(now);
    b.leaves += 1;
    b.listeners = listeners;
    this.totals.leaves += 1;
    this.dirty = true;
  }

  /** Applies one party event. */
  apply(event: SequencedEvent, now: number): void {
    switch (event.type) {
      case 'message':
      case 'poll':
      case 'quiz_question':
      case 'quiz_scoreboard':
      case 'quiz_user_scores':
      case 'popup':
        return this.onChat(event, now);
      case 'track_change':
        this.status = event.status;
        break;
      case 'party_started':
        this.status = event.status;
        this.startedAt = event.started_at;
        break;
      case 'party_stopped':
        this.status = event.status;
        break;
      case 'party_ended':
        this.endsAt = event.ends_at;
        break;
      case 'party_changed':
        this.endsAt = event.ends_at;
        break;
      case 'queue_change':
        return;
      case 'votes_changed': {
        const before = this.votes.get(event.track_id) ?? 0;
        this.votes.set(event.track_id, event.votes);
        this.totals.votes = Math.max(0, this.totals.votes + event.votes - before);
        break;
      }
      case 'poll_results':
        this.onResults(event.poll_id, event.results, event.closed, null);
        break;
      case 'quiz_results':
        this.onResults(event.question_id, event.results, event.closed, event.correct_answer);
        break;
      case 'user_can_chat':
        if (event.can_chat) this.blocked.delete(event.user_id);
        else if (this.blocked.size < STATS_BLOCKED) this.blocked.set(event.user_id, { user_id: event.user_id, display_name: this.names.get(event.user_id) ?? event.user_id });
        break;
      case 'chat_cleared':
        this.tail = [];
        this.recent = [];
        this.skipped = 0;
        break;
      case 'users_cleared':
        this.blocked.clear();
        break;
      default:
        return event satisfies never;
    }
    this.dirty = true;
  }

  private onChat(m: ChatMessage, now: number): void {
    if (m.delete_message_id) {
      this.deleted.push(m.delete_message_id);
      const before = this.tail.length;
      this.tail = this.tail.filter((t) => t.id !== m.delete_message_id);
      this.recent = this.recent.filter((t) => t.id !== m.delete_message_id);
      if (this.tail.length === before && this.deleted.length > STATS_CHAT_TAIL * 5) this.deleted.shift();
      this.dirty = true;
      return;
    }
    if (m.type === 'poll' && m.poll) {
      this.addQuestion({ id: m.poll.id, kind: 'poll', question: m.poll.question, options: m.poll.options, results: m.poll.results, closed: m.poll.closed, correct_answer: null, created_at_ms: m.poll.created_at_ms });
    } else if (m.type === 'quiz_question' && m.quiz_question) {
      const q = m.quiz_question;
      this.addQuestion({ id: q.id, kind: 'quiz', question: q.question, options: q.options, results: q.results, closed: q.closed, correct_answer: q.correct_answer, created_at_ms: q.created_at_ms });
    }
    if (!isFanChat(m)) return;
    if (m.sender) this.names.set(m.sender.id, m.sender.display_name);
    this.bucket(now).messages += 1;
    const second = now - (now % 1_000);
    this.seconds.set(second, (this.seconds.get(second) ?? 0) + 1);
    this.totals.messages += 1;
    this.tail.push(m);
    this.recent.push(m);
    if (this.recent.length > STATS_CHAT_TAIL) this.recent.shift();
    // Only the newest messages travel; the rest are counted as skipped.
    if (this.tail.length > STATS_CHAT_TAIL) {
      this.skipped += this.tail.length - STATS_CHAT_TAIL;
      this.tail = this.tail.slice(-STATS_CHAT_TAIL);
    }
    this.dirty = true;
  }

  private addQuestion(q: QuestionStats): void {
    if (this.questions.some((x) => x.id === q.id)) return;
    this.questions = [q, ...this.questions].slice(0, STATS_QUESTIONS);
    this.dirty = true;
  }

  private onResults(id: string, results: number[], closed: boolean, correct: number | null): void {
    const q = this.questions.find((x) => x.id === id);
    if (!q) return;
    const before = q.results.reduce((a, b) => a + b, 0);
    const after = results.reduce((a, b) => a + b, 0);
    this.totals.answers = Math.max(0, this.totals.answers + after - before);
    q.results = results;
    q.closed = closed;
    if (correct !== null) q.correct_answer = correct;
  }

  /** The correct answer of a quiz question, for the host (fans learn it when it closes). */
  setCorrectAnswer(questionId: string, correct: number | null): void {
    const q = this.questions.find((x) => x.id === questionId);
    if (q && correct !== null) q.correct_answer = correct;
  }

  /** Sets the listener count without a join or leave (a periodic recount). */
  setListeners(now: number, listeners: number): void {
    if (listeners === this.listeners) return;
    this.listeners = listeners;
    this.bucket(now).listeners = listeners;
    this.dirty = true;
  }

  /** Sets the listeners by effective source (issue 47), recounted with the listeners. */
  setSources(sources: SourceCounts): void {
    const same = (Object.keys(sources) as (keyof SourceCounts)[]).every((k) => sources[k] === this.sources[k]);
    if (same) return;
    this.sources = { ...sources };
    this.dirty = true;
  }

  /**
   * Fan chat messages in the 60 s up to `now`, to the second: a per-minute rate, not the sum of
   * the 10 s buckets that touch the minute (which counted up to 70 s).
   */
  private lastMinute(now: number): number {
    const from = now - (now % 1_000) - 59_000;
    let n = 0;
    for (const [second, count] of this.seconds) {
      if (second < from) this.seconds.delete(second);
      else n += count;
    }
    return n;
  }

  /**
   * The event to send now: every figure, and the chat since the previous call. Resets the chat tail
   * and the dirty flag.
   */
  take(now: number): PartyStatsEvent {
    const event = this.build(now, this.tail, this.skipped, this.deleted);
    this.tail = [];
    this.skipped = 0;
    this.deleted = [];
    this.dirty = false;
    return event;
  }

  /** The full picture for a dashboard that just connected, with the newest chat; changes nothing. */
  snapshot(now: number): PartyStatsEvent {
    return this.build(now, this.recent, 0, []);
  }

  private build(now: number, chat: ChatMessage[], skipped: number, deleted: string[]): PartyStatsEvent {
    this.bucket(now);
    const starts = [...this.buckets.keys()].sort((a, b) => a - b).slice(-STATS_BUCKETS);
    let listeners = 0;
    const buckets: StatsBucket[] = starts.map((start) => {
      const b = this.buckets.get(start)!;
      // A bucket with no join or leave keeps the count of the one before it.
      if (b.joins || b.leaves || b.listeners) listeners = b.listeners;
      return { start_ms: start, joins: b.joins, leaves: b.leaves, messages: b.messages, listeners };
    });
    buckets.at(-1)!.listeners = this.listeners;
    return {
      type: 'party_stats',
      server_time_ms: now,
      listeners: this.listeners,
      listeners_scope: this.scope,
      sources: { ...this.sources },
      buckets,
      messages_last_minute: this.lastMinute(now),
      totals: { ...this.totals },
      votes: this.trackOrder.map((id) => ({ track_id: id, name: this.trackNames.get(id) ?? id, votes: this.votes.get(id) ?? 0 })),
      questions: this.questions.map((q) => ({ ...q, results: [...q.results] })),
      status: this.status,
      started_at: this.startedAt,
      ends_at: this.endsAt,
      chat,
      chat_skipped: skipped,
      deleted_message_ids: deleted,
      blocked: [...this.blocked.values()],
    };
  }
}
