import type { GrantRole, Role } from '@fanfare/protocol';
import type { Db } from '../../../platform/db/database.ts';

const RANK: Record<GrantRole, number> = { host: 1, admin: 2 };

export interface FanAccount {
  id: string;
  service: string | null;
  service_user_id: string | null;
}

/**
 * Roles of many fans of a party in two queries (the batch form of `roleInParty`): a grant applies
 * to a fan whose streaming account it names or who redeemed its token; the strongest one wins.
 */
export async function rolesInParty(db: Db, partyId: string, fans: FanAccount[]): Promise<Map<string, Role>> {
  const roles = new Map<string, Role>(fans.map((f) => [f.id, 'listener']));
  const grants = await db.selectFrom('grants').select(['id', 'service', 'service_id', 'role']).where('party_id', '=', partyId).execute();
  if (grants.length === 0 || fans.length === 0) return roles;
  const redemptions = await db
    .selectFrom('grant_redemptions')
    .select(['grant_id', 'fan_id'])
    .where('grant_id', 'in', grants.map((g) => g.id))
    .execute();
  const redeemedBy = new Map<string, Set<string>>();
  for (const r of redemptions) redeemedBy.set(r.fan_id, (redeemedBy.get(r.fan_id) ?? new Set()).add(r.grant_id));
  for (const fan of fans) {
    let best: GrantRole | null = null;
    for (const g of grants) {
      const byAccount = fan.service !== null && fan.service_user_id !== null && g.service === fan.service && g.service_id === fan.service_user_id;
      const byToken = redeemedBy.get(fan.id)?.has(g.id) ?? false;
      if ((byAccount || byToken) && (!best || RANK[g.role as GrantRole] > RANK[best])) best = g.role as GrantRole;
    }
    if (best) roles.set(fan.id, best);
  }
  return roles;
}
