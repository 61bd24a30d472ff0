import type { ChatMessage, PollAnswer, PostPollBody, PostQuizQuestionBody, QuizAnswer } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { fromBool, parseJson, toBool } from '../../../platform/db/columns.ts';
import { conflict, notFound, unprocessable } from '../../../platform/errors.ts';
import { newId } from '../../../platform/tokens.ts';
import type { Fan } from '../../auth/sessions.ts';
import { listTrackRows } from '../../timeline/queries.ts';
import { setNextTrack } from '../../timeline/queue.ts';
import { requireParty } from '../../parties/queries.ts';
import { resolveAuthor, senderColumns } from '../messages/author.ts';
import { runPartyWrite } from '../../../realtime/unitOfWork.ts';
import { queueMessage } from '../messages/publish.ts';
import { emptyMessageRow } from '../messages/queries.ts';
import { postQuizUserScores } from '../quiz/scores.ts';
import {
  answerCounts,
  claimClose,
  dueQuestionIds,
  findQuestion,
  findQuestionById,
  hasAnswered,
  insertAnswer,
  insertQuestion,
  nextQuestionDue,
  toQuestionPayload,
  type QuestionKind,
  type QuestionRow,
} from './queries.ts';

/** What the poll and quiz services need from the running chat domain. */
export interface QuestionRuntime {
  /** Re-plans the scheduler (a new closing time exists). */
  pokeTimers(): void;
  /** Publishes the live counts of a question soon (coalesced). */
  touchResults(partyId: string, questionId: string): void;
}

/**
 * Creates a poll or quiz question, posts it to the chat (type `poll` or `quiz_question`) and plans
 * its closing after `duration_seconds`. A poll with `set_next_track` must offer tracks of the party
 * that can still be played next.
 */
export async function createQuestion(
  ctx: ServerContext,
  runtime: QuestionRuntime,
  partyId: string,
  /** The host or admin who asks; null for the admin tool (the question has no sender). */
  fan: Fan | null,
  kind: QuestionKind,
  body: PostPollBody | PostQuizQuestionBody,
): Promise<ChatMessage> {
  await requireParty(ctx.db, partyId);
  if (kind === 'poll' && body.set_next_track) await checkTrackOptions(ctx, partyId, body.options);
  const now = ctx.now();
  const row: QuestionRow = {
    id: newId(),
    party_id: partyId,
    kind,
    question: body.question,
    options: JSON.stringify(body.options),
    correct_answer: 'correct_answer' in body ? body.correct_answer : null,
    duration_seconds: body.duration_seconds,
    // Quiz questions never steer the timeline; only polls do.
    set_next_track: fromBool(kind === 'poll' && body.set_next_track),
    created_at_ms: now,
    closes_at_ms: now + body.duration_seconds * 1000,
    closed_at_ms: null,
  };
  const author = fan ? await resolveAuthor(ctx.db, partyId, fan) : null;
  const payload = toQuestionPayload(row, parseJson<string[]>(row.options, []).map(() => 0));
  // The question and its chat message are stored together: a question without its message (or the
  // reverse) would close, score and count for something fans never saw.
  const queued = await runPartyWrite(ctx, async (w) => {
    await insertQuestion(w.db, row);
    return queueMessage(
      w,
      ctx,
      {
        ...emptyMessageRow(newId(), partyId, kind === 'poll' ? 'poll' : 'quiz_question'),
        ...(author ? senderColumns(author) : {}),
        text: body.question,
        poll_id: kind === 'poll' ? row.id : null,
        question_id: kind === 'quiz' ? row.id : null,
      },
      { questions: new Map([[row.id, payload]]) },
    );
  });
  runtime.pokeTimers();
  return queued.message;
}

async function checkTrackOptions(ctx: ServerContext, partyId: string, options: string[]): Promise<void> {
  const tracks = await listTrackRows(ctx.db, partyId);
  const playable = new Set(tracks.filter((t) => !toBool(t.excluded) && !toBool(t.played)).map((t) => t.track_id));
  options.forEach((option, i) => {
    if (!playable.has(option)) {
      throw unprocessable(['body', 'options', i], `With set_next_track every option must be an unplayed track id of the party; ${option} is not`);
    }
  });
}

/**
 * Records a fan's answer (the entry's `polls.answer` / `quiz.answer` has checked the signup): a valid option (422), the question open
 * (409), and once per fan (409; the primary key decides a race). Counts are derived from the rows.
 */
export async function answerQuestion(
  ctx: ServerContext,
  runtime: QuestionRuntime,
  partyId: string,
  fan: Fan,
  kind: QuestionKind,
  questionId: string,
  answerId: number,
): Promise<PollAnswer | QuizAnswer> {
  const question = await findQuestion(ctx.db, partyId, kind, questionId);
  const noun = kind === 'poll' ? 'poll' : 'quiz question';
  if (!question) throw notFound(`No ${noun} ${questionId} in this party`);
  const options = parseJson<string[]>(question.options, []);
  if (answerId >= options.length) throw unprocessable(['body', 'answer_id'], `answer_id must be below ${options.length}`, 'out_of_range');
  const now = ctx.now();
  if (question.closed_at_ms !== null || now >= question.closes_at_ms) throw conflict(`This ${noun} is closed`);
  if (await hasAnswered(ctx.db, question.id, fan.id)) throw conflict(`You have already answered this ${noun}`);
  let inserted: boolean;
  try {
    inserted = await insertAnswer(ctx.db, question, fan.id, answerId, now);
  } catch (e) {
    if (/unique|duplicate|primary key/i.test(String(e))) throw conflict(`You have already answered this ${noun}`);
    throw e;
  }
  if (!inserted) throw conflict(`This ${noun} is closed`);
  runtime.touchResults(partyId, question.id);
  return kind === 'poll' ? { poll_id: question.id, answer_id: answerId } : { question_id: question.id, answer_id: answerId };
}

/** Publishes the current counts of an open question (`poll_results` / `quiz_results`). */
export async function publishResults(ctx: ServerContext, questionId: string): Promise<void> {
  const question = await findQuestionById(ctx.db, questionId);
  // After the closing, the closing event carries the final counts; a late live update would undo it.
  if (!question || question.closed_at_ms !== null) return;
  // The counts of the answers committed so far, published as one unit (a read, no statement of its own).
  await runPartyWrite(
    ctx,
    async (w) => {
      const results = await answerCounts(w.db, question);
      if (question.kind === 'poll') w.emit(question.party_id, { type: 'poll_results', poll_id: question.id, results, closed: false });
      else w.emit(question.party_id, { type: 'quiz_results', question_id: question.id, results, closed: false, correct_answer: null });
    },
    { singleStatement: true },
  );
}

/**
 * Closes a question once across all nodes (the conditional update claims it), publishes its final
 * counts, then: a poll with `set_next_track` makes its winning track the next one; a quiz question
 * reveals its correct answer and posts the new scores of those who answered (`quiz_user_scores`).
 */
export async function closeQuestion(ctx: ServerContext, questionId: string): Promise<void> {
  // The claim and the final counts are one unit of work: the closing event leaves after the claim commits.
  const closed = await runPartyWrite(ctx, async (w) => {
    if (!(await claimClose(w.db, questionId, ctx.now()))) return null;
    const question = await findQuestionById(w.db, questionId);
    if (!question) return null;
    const results = await answerCounts(w.db, question);
    if (question.kind === 'poll') w.emit(question.party_id, { type: 'poll_results', poll_id: question.id, results, closed: true });
    else w.emit(question.party_id, { type: 'quiz_results', question_id: question.id, results, closed: true, correct_answer: question.correct_answer });
    return { question, results };
  });
  if (!closed) return;
  const { question, results } = closed;
  const partyId = question.party_id;
  if (question.kind === 'poll') {
    if (toBool(question.set_next_track)) {
      const winner = winningOption(results);
      const options = parseJson<string[]>(question.options, []);
      const trackId = winner === null ? undefined : options[winner];
      if (trackId !== undefined && !(await setNextTrack(ctx, partyId, trackId))) {
        ctx.logger.warn({ partyId, pollId: question.id, trackId }, 'poll winner can no longer be the next track');
      }
    }
    return;
  }
  await postQuizUserScores(ctx, partyId, question.id);
}

/** Index of the option with the most answers; ties go to the earlier option; null without answers. */
export function winningOption(results: number[]): number | null {
  let best: number | null = null;
  results.forEach((count, i) => {
    if (count > 0 && (best === null || count > results[best]!)) best = i;
  });
  return best;
}

/** The job that closes due poll and quiz questions, for the server's scheduler (`platform/jobs.ts`). */
export function questionClosing(ctx: ServerContext) {
  return {
    name: 'close questions',
    readsTables: ['chat_questions'],
    async runDue(now: number) {
      for (const id of await dueQuestionIds(ctx.db, now)) await closeQuestion(ctx, id);
    },
    nextDue: () => nextQuestionDue(ctx.db),
  };
}

/** Publishes live counts at most once per `windowMs` per question, however fast answers come. */
export class ResultsThrottle {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly ctx: ServerContext,
    private readonly windowMs: number,
  ) {}

  touch(_partyId: string, questionId: string): void {
    if (this.pending.has(questionId)) return;
    this.pending.set(
      questionId,
      setTimeout(() => {
        this.pending.delete(questionId);
        const run = publishResults(this.ctx, questionId)
          .catch((err: unknown) => this.ctx.logger.error({ err, questionId }, 'publishing results failed'))
          .finally(() => this.inFlight.delete(run));
        this.inFlight.add(run);
      }, this.windowMs),
    );
  }

  async close(): Promise<void> {
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
    await Promise.all([...this.inFlight]);
  }
}
