import type { FastifyRequest } from 'fastify';
import type { Role } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Fan } from '../auth/sessions.ts';
import { requireCms, requireFan } from '../auth/guards.ts';
import { requireParty, type PartyRow } from '../parties/queries.ts';
import { authorizeFan, type PartyAbility } from '../policies.ts';

/**
 * Guards the host/admin chat actions (block, unblock, popups, polls, quizzes, scoreboards, the
 * user list): a valid bearer token (401) of a fan who holds `ability` in this party (403; see
 * `party/policies.ts`). The party must exist (404).
 */
export async function requireStaff(
  ctx: ServerContext,
  req: FastifyRequest,
  partyId: string,
  ability: PartyAbility = 'chat.moderate',
): Promise<{ fan: Fan; role: Role; party: PartyRow }> {
  const fan = await requireFan(ctx, req);
  const { party, actor } = await authorizeFan(ctx, partyId, fan, ability);
  return { fan, role: actor.role, party };
}

/**
 * Guards the CMS actions of the chat (clear chat, remove users, schedule, fake traffic, uploads for
 * others): the `X-Cms-Token` header (401 missing, 403 not accepted). The party must exist (404).
 */
export async function requireCmsForParty(ctx: ServerContext, req: FastifyRequest, partyId: string): Promise<PartyRow> {
  await requireCms(ctx, req);
  return requireParty(ctx.db, partyId);
}
