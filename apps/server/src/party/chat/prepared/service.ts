/**
 * Polls and quiz questions a party's hosts prepare for later: before the party, the day before, on
 * any device. They are kept per party until a host starts one (through the poll or quiz call, which
 * the host's app follows with a removal) or removes it. Nothing reaches the fans before the start.
 */
import { PREPARED_QUESTIONS_MAX, PreparedQuestion, type PostPreparedQuestionBody } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { parseJson } from '../../../platform/db/columns.ts';
import type { ChatTables } from '../../../platform/db/tables/chat.ts';
import { notFound, unprocessable } from '../../../platform/errors.ts';
import { newId } from '../../../platform/tokens.ts';

type PreparedRow = ChatTables['chat_prepared_questions'];

/** The row as the API shows it; null when it no longer fits the schema (then it is left out). */
function toPrepared(row: PreparedRow): PreparedQuestion | null {
  const parsed = PreparedQuestion.safeParse({ id: row.id, kind: row.kind, body: parseJson<unknown>(row.body, null), created_at: new Date(Number(row.created_at)).toISOString() });
  return parsed.success ? parsed.data : null;
}

const countOf = async (ctx: ServerContext, partyId: string): Promise<number> => {
  const row = await ctx.db.selectFrom('chat_prepared_questions').select((eb) => eb.fn.countAll<number>().as('n')).where('party_id', '=', partyId).executeTakeFirstOrThrow();
  return Number(row.n);
};

/** The party's prepared questions, oldest first. */
export async function listPrepared(ctx: ServerContext, partyId: string): Promise<PreparedQuestion[]> {
  const rows = await ctx.db
    .selectFrom('chat_prepared_questions')
    .selectAll()
    .where('party_id', '=', partyId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(PREPARED_QUESTIONS_MAX)
    .execute();
  return rows.flatMap((r) => toPrepared(r) ?? []);
}

const full = () => unprocessable(['body'], `A party keeps at most ${PREPARED_QUESTIONS_MAX} prepared polls and quizzes: start or remove one first`);

/**
 * Keeps a poll or quiz question for later; 422 once the party holds `PREPARED_QUESTIONS_MAX`. The
 * count is checked again after the insert, so parallel calls (other devices, other nodes) can
 * never leave more than the bound: one that finds too many takes its own row back.
 */
export async function createPrepared(ctx: ServerContext, partyId: string, input: PostPreparedQuestionBody): Promise<PreparedQuestion> {
  if ((await countOf(ctx, partyId)) >= PREPARED_QUESTIONS_MAX) throw full();
  const row: PreparedRow = { id: newId(), party_id: partyId, kind: input.kind, body: JSON.stringify(input.body), created_at: ctx.now() };
  await ctx.db.insertInto('chat_prepared_questions').values(row).execute();
  if ((await countOf(ctx, partyId)) > PREPARED_QUESTIONS_MAX) {
    await ctx.db.deleteFrom('chat_prepared_questions').where('id', '=', row.id).execute();
    throw full();
  }
  return toPrepared(row)!;
}

export async function deletePrepared(ctx: ServerContext, partyId: string, id: string): Promise<void> {
  const res = await ctx.db.deleteFrom('chat_prepared_questions').where('party_id', '=', partyId).where('id', '=', id).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound(`No prepared question ${id} in this party`);
}
