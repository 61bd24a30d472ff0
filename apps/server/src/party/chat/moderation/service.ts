import type { PartyUser, PollAnswer, QuizAnswer, UserChatRight } from '@fanfare/protocol';
import type { ServerContext } from '../../../context.ts';
import { fromBool } from '../../../platform/db/columns.ts';
import { forbidden, notFound } from '../../../platform/errors.ts';
import { requireParty } from '../../parties/queries.ts';
import { trackVotesByFan } from '../../timeline/queries.ts';
import { toPartyUser } from '../../users/service.ts';
import { runPartyWrite } from '../../../realtime/unitOfWork.ts';
import { roleHas } from '../../policies.ts';
import { quizScores } from '../polls/queries.ts';
import { rolesInParty } from './roles.ts';
import { markReplayStale } from '../../replay/service.ts';

/**
 * Blocks (`canChat` false) or unblocks a party user and tells every open page (`user_can_chat`).
 * Hosts and admins cannot be blocked: they moderate the chat.
 */
export async function setCanChat(ctx: ServerContext, partyId: string, userId: string, canChat: boolean): Promise<UserChatRight> {
  await requireParty(ctx.db, partyId);
  const user = await ctx.db
    .selectFrom('party_users')
    .innerJoin('fans', 'fans.id', 'party_users.fan_id')
    .select(['fans.id', 'fans.service', 'fans.service_user_id'])
    .where('party_users.party_id', '=', partyId)
    .where('party_users.fan_id', '=', userId)
    .executeTakeFirst();
  if (!user) throw notFound(`No user ${userId} in this party`);
  if (!canChat) {
    const role = (await rolesInParty(ctx.db, partyId, [user])).get(user.id) ?? 'listener';
    // Whoever may moderate the chat cannot be silenced in it.
    if (roleHas(role, 'chat.moderate')) throw forbidden('A host or admin cannot be blocked from the chat');
  }
  await runPartyWrite(ctx, async (w) => {
    await w.db
      .updateTable('party_users')
      .set({ can_chat: fromBool(canChat) })
      .where('party_id', '=', partyId)
      .where('fan_id', '=', userId)
      .execute();
    // A blocked fan's messages leave the party's replay (and come back on unblock; issue 47).
    await markReplayStale(w.db, partyId);
    w.emit(partyId, { type: 'user_can_chat', user_id: userId, can_chat: canChat });
  });
  return { user_id: userId, can_chat: canChat };
}

/** The party's users (only blocked or only allowed ones with `canChat`), oldest signup first. */
export async function listPartyUsers(ctx: ServerContext, partyId: string, canChat?: boolean): Promise<PartyUser[]> {
  await requireParty(ctx.db, partyId);
  let q = ctx.db
    .selectFrom('party_users')
    .innerJoin('fans', 'fans.id', 'party_users.fan_id')
    .selectAll('party_users')
    .select(['fans.premium', 'fans.service', 'fans.service_user_id'])
    .where('party_users.party_id', '=', partyId);
  if (canChat !== undefined) q = q.where('party_users.can_chat', '=', fromBool(canChat));
  const rows = await q.orderBy('party_users.created_at').orderBy('party_users.fan_id').execute();
  if (rows.length === 0) return [];
  const [roles, scores, answers, votes] = await Promise.all([
    rolesInParty(ctx.db, partyId, rows.map((r) => ({ id: r.fan_id, service: r.service, service_user_id: r.service_user_id }))),
    quizScores(ctx.db, partyId),
    ctx.db.selectFrom('chat_answers').select(['fan_id', 'question_id', 'kind', 'answer_id']).where('party_id', '=', partyId).orderBy('created_at').execute(),
    trackVotesByFan(ctx.db, partyId),
  ]);
  const polls = new Map<string, PollAnswer[]>();
  const quizzes = new Map<string, QuizAnswer[]>();
  for (const a of answers) {
    if (a.kind === 'poll') polls.set(a.fan_id, [...(polls.get(a.fan_id) ?? []), { poll_id: a.question_id, answer_id: Number(a.answer_id) }]);
    else quizzes.set(a.fan_id, [...(quizzes.get(a.fan_id) ?? []), { question_id: a.question_id, answer_id: Number(a.answer_id) }]);
  }
  return rows.map((r) =>
    toPartyUser(r, r, roles.get(r.fan_id) ?? 'listener', {
      track_votes: votes.get(r.fan_id) ?? [],
      poll_answers: polls.get(r.fan_id) ?? [],
      quiz_answers: quizzes.get(r.fan_id) ?? [],
      quiz_score: scores.get(r.fan_id) ?? 0,
    }),
  );
}

/** Removes every user of the party (CMS) and tells every open page (`users_cleared`). */
export async function deleteAllUsers(ctx: ServerContext, partyId: string): Promise<void> {
  await requireParty(ctx.db, partyId);
  await runPartyWrite(
    ctx,
    async (w) => {
      await w.db.deleteFrom('party_users').where('party_id', '=', partyId).execute();
      w.emit(partyId, { type: 'users_cleared' });
    },
    { singleStatement: true },
  );
}
