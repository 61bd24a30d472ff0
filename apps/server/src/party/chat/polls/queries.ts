import type { Poll, PollAnswer, QuizAnswer, QuizQuestion, ScoreboardEntry } from '@fanfare/protocol';
import type { Db } from '../../../platform/db/database.ts';
import { parseJson, toBool } from '../../../platform/db/columns.ts';
import type { ChatTables } from '../../../platform/db/tables/chat.ts';

export type QuestionRow = ChatTables['chat_questions'];
export type QuestionKind = 'poll' | 'quiz';

/** A poll or quiz question as the wire shows it, with its current counts. */
export interface QuestionPayload {
  kind: QuestionKind;
  poll: Poll;
  quizQuestion: QuizQuestion;
}

export async function insertQuestion(db: Db, row: QuestionRow): Promise<void> {
  await db.insertInto('chat_questions').values(row).execute();
}

export async function findQuestion(db: Db, partyId: string, kind: QuestionKind, id: string): Promise<QuestionRow | null> {
  const row = await db
    .selectFrom('chat_questions')
    .selectAll()
    .where('party_id', '=', partyId)
    .where('kind', '=', kind)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

export async function findQuestionById(db: Db, id: string): Promise<QuestionRow | null> {
  return (await db.selectFrom('chat_questions').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/**
 * Records a fan's answer while the question is open. Returns false when the question is closed
 * (or past its closing time); the primary key (question, fan) refuses a second answer by throwing.
 */
export async function insertAnswer(
  db: Db,
  question: QuestionRow,
  fanId: string,
  answerId: number,
  now: number,
): Promise<boolean> {
  const isCorrect = question.kind === 'quiz' && question.correct_answer === answerId ? 1 : 0;
  // One statement: the row is written only if the question is still open at that moment.
  const res = await db
    .insertInto('chat_answers')
    .columns(['question_id', 'fan_id', 'party_id', 'kind', 'answer_id', 'is_correct', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('chat_questions')
        .select([
          eb.val(question.id).as('question_id'),
          eb.val(fanId).as('fan_id'),
          eb.val(question.party_id).as('party_id'),
          eb.val(question.kind).as('kind'),
          eb.val(answerId).as('answer_id'),
          eb.val(isCorrect).as('is_correct'),
          eb.val(now).as('created_at'),
        ])
        .where('id', '=', question.id)
        .where('closed_at_ms', 'is', null)
        .where('closes_at_ms', '>', now),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function hasAnswered(db: Db, questionId: string, fanId: string): Promise<boolean> {
  const row = await db.selectFrom('chat_answers').select('fan_id').where('question_id', '=', questionId).where('fan_id', '=', fanId).executeTakeFirst();
  return row !== undefined;
}

/** Answer counts per option index, derived from the answer rows. */
export async function answerCounts(db: Db, question: QuestionRow): Promise<number[]> {
  const counts = await countsOf(db, [question.id]);
  return resultsFor(question, counts);
}

async function countsOf(db: Db, ids: string[]): Promise<Map<string, Map<number, number>>> {
  const out = new Map<string, Map<number, number>>();
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('chat_answers')
    .select((eb) => ['question_id', 'answer_id', eb.fn.countAll<number | string>().as('n')])
    .where('question_id', 'in', ids)
    .groupBy(['question_id', 'answer_id'])
    .execute();
  for (const r of rows) {
    const m = out.get(r.question_id) ?? new Map<number, number>();
    m.set(Number(r.answer_id), Number(r.n));
    out.set(r.question_id, m);
  }
  return out;
}

function resultsFor(question: QuestionRow, counts: Map<string, Map<number, number>>): number[] {
  const options = parseJson<string[]>(question.options, []);
  const m = counts.get(question.id);
  return options.map((_, i) => m?.get(i) ?? 0);
}

/** The wire shapes of a question with the given counts. */
export function toQuestionPayload(row: QuestionRow, results: number[]): QuestionPayload {
  const closed = row.closed_at_ms !== null;
  const poll: Poll = {
    id: row.id,
    question: row.question,
    options: parseJson<string[]>(row.options, []),
    duration_seconds: Number(row.duration_seconds),
    set_next_track: toBool(row.set_next_track),
    created_at_ms: Number(row.created_at_ms),
    closes_at_ms: Number(row.closes_at_ms),
    closed,
    results,
  };
  // The correct answer stays secret until the question closed.
  return { kind: row.kind as QuestionKind, poll, quizQuestion: { ...poll, correct_answer: closed ? row.correct_answer : null } };
}

/** Current payloads of the given questions, keyed by id. */
export async function loadQuestionPayloads(db: Db, ids: string[]): Promise<Map<string, QuestionPayload>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, QuestionPayload>();
  if (unique.length === 0) return out;
  const [rows, counts] = await Promise.all([db.selectFrom('chat_questions').selectAll().where('id', 'in', unique).execute(), countsOf(db, unique)]);
  for (const row of rows) out.set(row.id, toQuestionPayload(row, resultsFor(row, counts)));
  return out;
}

/** Claims the closing of a question: true on exactly one caller across all nodes. */
export async function claimClose(db: Db, id: string, now: number): Promise<boolean> {
  const res = await db.updateTable('chat_questions').set({ closed_at_ms: now }).where('id', '=', id).where('closed_at_ms', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Ids of open questions whose closing time has come. */
export async function dueQuestionIds(db: Db, now: number): Promise<string[]> {
  const rows = await db.selectFrom('chat_questions').select('id').where('closed_at_ms', 'is', null).where('closes_at_ms', '<=', now).limit(100).execute();
  return rows.map((r) => r.id);
}

/** The earliest closing time of an open question, if any. */
export async function nextQuestionDue(db: Db): Promise<number | null> {
  const row = await db
    .selectFrom('chat_questions')
    .select((eb) => eb.fn.min<number | string | null>('closes_at_ms').as('due'))
    .where('closed_at_ms', 'is', null)
    .executeTakeFirst();
  return row?.due == null ? null : Number(row.due);
}

/** A fan's answers in a party, split into poll and quiz answers. */
export async function answersOf(db: Db, partyId: string, fanId: string): Promise<{ poll_answers: PollAnswer[]; quiz_answers: QuizAnswer[] }> {
  const rows = await db
    .selectFrom('chat_answers')
    .select(['question_id', 'kind', 'answer_id'])
    .where('party_id', '=', partyId)
    .where('fan_id', '=', fanId)
    .orderBy('created_at')
    .execute();
  return {
    poll_answers: rows.filter((r) => r.kind === 'poll').map((r) => ({ poll_id: r.question_id, answer_id: Number(r.answer_id) })),
    quiz_answers: rows.filter((r) => r.kind === 'quiz').map((r) => ({ question_id: r.question_id, answer_id: Number(r.answer_id) })),
  };
}

/**
 * Quiz scores of fans in a party: the number of their correct answers to closed questions (an open
 * question does not count yet, so a score never reveals its correct answer). Absent fans score 0.
 */
export async function quizScores(db: Db, partyId: string, fanIds?: string[]): Promise<Map<string, number>> {
  if (fanIds && fanIds.length === 0) return new Map();
  let q = db
    .selectFrom('chat_answers')
    .innerJoin('chat_questions', 'chat_questions.id', 'chat_answers.question_id')
    .select((eb) => ['chat_answers.fan_id', eb.fn.countAll<number | string>().as('score')])
    .where('chat_answers.party_id', '=', partyId)
    .where('chat_answers.kind', '=', 'quiz')
    .where('chat_answers.is_correct', '=', 1)
    .where('chat_questions.closed_at_ms', 'is not', null)
    .groupBy('chat_answers.fan_id');
  if (fanIds) q = q.where('chat_answers.fan_id', 'in', fanIds);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.fan_id, Number(r.score)]));
}

export async function quizScore(db: Db, partyId: string, fanId: string): Promise<number> {
  return (await quizScores(db, partyId, [fanId])).get(fanId) ?? 0;
}

/** Number of quiz questions asked in the party so far. */
export async function totalQuizQuestions(db: Db, partyId: string): Promise<number> {
  const row = await db
    .selectFrom('chat_questions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('party_id', '=', partyId)
    .where('kind', '=', 'quiz')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The best `count` signed-up fans by quiz score (only fans who scored), ties by earliest last
 * correct answer, then name: whoever got there first ranks higher.
 */
export async function topScores(db: Db, partyId: string, count: number): Promise<ScoreboardEntry[]> {
  const rows = await db
    .selectFrom('chat_answers')
    .innerJoin('chat_questions', 'chat_questions.id', 'chat_answers.question_id')
    .innerJoin('party_users', (join) =>
      join.onRef('party_users.fan_id', '=', 'chat_answers.fan_id').onRef('party_users.party_id', '=', 'chat_answers.party_id'),
    )
    .select((eb) => [
      'chat_answers.fan_id as user_id',
      'party_users.display_name as display_name',
      eb.fn.countAll<number | string>().as('score'),
      eb.fn.max<number | string>('chat_answers.created_at').as('last_at'),
    ])
    .where('chat_answers.party_id', '=', partyId)
    .where('chat_answers.kind', '=', 'quiz')
    .where('chat_answers.is_correct', '=', 1)
    .where('chat_questions.closed_at_ms', 'is not', null)
    .groupBy(['chat_answers.fan_id', 'party_users.display_name'])
    .orderBy('score', 'desc')
    .orderBy('last_at', 'asc')
    .orderBy('party_users.display_name', 'asc')
    .limit(count)
    .execute();
  return rows.map((r) => ({ user_id: r.user_id, display_name: r.display_name, score: Number(r.score) }));
}

/** Fan ids that answered a question. */
export async function answerersOf(db: Db, questionId: string): Promise<string[]> {
  const rows = await db.selectFrom('chat_answers').select('fan_id').where('question_id', '=', questionId).orderBy('created_at').execute();
  return rows.map((r) => r.fan_id);
}
