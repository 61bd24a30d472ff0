import type { FastifyRequest } from 'fastify';
import type { Role } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { forbidden } from '../../platform/errors.ts';
import type { Fan } from '../auth/sessions.ts';
import { requireCms, requireFan } from '../auth/guards.ts';
import { roleInParty } from '../grants/service.ts';
import { requireParty, type PartyRow } from '../parties/queries.ts';

/** True for the roles that may moderate and steer a party's chat. */
export function isStaff(role: Role): boolean {
  return role === 'host' || role === 'admin';
}

/**
 * Guards the host/admin chat actions (block, unblock, delete any message, popups, polls, quizzes,
 * scoreboards, the user list): a valid bearer token (401) of a fan whose grant in this party is
 * host or admin (403). The party must exist (404).
 */
export async function requireStaff(ctx: ServerContext, req: FastifyRequest, partyId: string): Promise<{ fan: Fan; role: Role; party: PartyRow }> {
  const fan = await requireFan(ctx, req);
  const party = await requireParty(ctx.db, partyId);
  const role = await roleInParty(ctx.db, partyId, fan);
  // Only hosts and admins of this very party pass; a grant in another party does not count.
  if (!isStaff(role)) throw forbidden('Only a host or admin of this party may do this');
  return { fan, role, party };
}

/**
 * Guards the CMS actions of the chat (clear chat, remove users, schedule, fake traffic, uploads for
 * others): the `X-Cms-Token` header (401 missing, 403 not accepted). The party must exist (404).
 */
export async function requireCmsForParty(ctx: ServerContext, req: FastifyRequest, partyId: string): Promise<PartyRow> {
  await requireCms(ctx, req);
  return requireParty(ctx.db, partyId);
}
