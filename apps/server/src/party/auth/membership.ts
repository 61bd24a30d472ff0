/**
 * A fan's standing in one party — the grants that apply to them and their signup row — read by
 * every fan call that acts in a party (votes, chat posts, the socket). Cached per party and fan
 * (issue 16), emptied by any write to grants, redemptions or signups (a new signup or grant does
 * change a fan's standing), and by a change of a fan (their login service decides which grants
 * name them).
 */
import type { GrantRole, Role } from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import { cached, cacheKind, onChange, onWrite } from '../../platform/db/cache.ts';
import type { GrantTable, PartyUserTable } from '../../platform/db/schema.ts';
import { grantsOfFan } from '../grants/service.ts';
import type { Fan } from './sessions.ts';

export interface Membership {
  /** The grants naming the fan (by login or redeemed), strongest first. */
  grants: readonly Readonly<GrantTable>[];
  /** The fan's signup for the party; null when not signed up. */
  signup: Readonly<PartyUserTable> | null;
}

const RANK: Record<GrantRole, number> = { host: 1, admin: 2 };

/**
 * Only signed-up fans' memberships are kept: a new signup row then cannot change a kept entry, so
 * the thousands of signups of a live party do not empty the cache (issue 16); an edit or a removal does.
 */
const memberships = cacheKind<string, Membership>({
  max: 20_000,
  maxAgeMs: 60_000,
  dependsOn: [onWrite('grants'), onWrite('grant_redemptions'), onChange('party_users'), onChange('fans')],
  keep: (m) => m.signup !== null,
});

/** The fan's grants and signup in the party. */
export function membershipOf(db: Db, partyId: string, fan: Fan): Promise<Membership> {
  return cached(memberships, db, `${partyId}\n${fan.id}`, async () => {
    const [signup, grants] = await Promise.all([
      db.selectFrom('party_users').selectAll().where('party_id', '=', partyId).where('fan_id', '=', fan.id).executeTakeFirst(),
      grantsOfFan(db, fan, partyId),
    ]);
    // Stable sort: the strongest role first, equal roles in the database's order.
    const sorted = [...grants].sort((a, b) => RANK[b.role as GrantRole] - RANK[a.role as GrantRole]);
    return Object.freeze({ grants: Object.freeze(sorted.map((g) => Object.freeze(g))), signup: signup ? Object.freeze(signup) : null });
  });
}

/** The role the strongest grant gives, else listener. */
export function roleOf(m: Membership): Role {
  const best = m.grants[0];
  return best ? (best.role as GrantRole) : 'listener';
}
