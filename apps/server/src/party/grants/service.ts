import {
  GRANT_LINK_DEFAULT_MAX_USES,
  GRANT_LINK_DEFAULT_TTL_DAYS,
  type Grant,
  type GrantRedemption,
  type GrantRole,
  type PostGrantBody,
  type Role,
} from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import type { GrantTable } from '../../platform/db/schema.ts';
import { conflict, notFound } from '../../platform/errors.ts';
import { hashToken, newId, newToken } from '../../platform/tokens.ts';
import type { Fan } from '../auth/sessions.ts';

const ROLE_RANK: Record<GrantRole, number> = { host: 1, admin: 2 };

/** The fan's role in a party: the strongest grant that names their account or that they redeemed. */
export async function roleInParty(db: Db, partyId: string, fan: Fan): Promise<Role> {
  const grants = await grantsOfFan(db, fan, partyId);
  let best: GrantTable | null = null;
  for (const g of grants) if (!best || ROLE_RANK[g.role as GrantRole] > ROLE_RANK[best.role as GrantRole]) best = g;
  return best ? (best.role as GrantRole) : 'listener';
}

/** Every grant that applies to a fan, in one party or in all. */
export async function grantsOfFan(db: Db, fan: Fan, partyId?: string): Promise<GrantTable[]> {
  let q = db
    .selectFrom('grants')
    .selectAll()
    .where((eb) => {
      const redeemed = eb.exists(
        eb
          .selectFrom('grant_redemptions')
          .select('grant_redemptions.grant_id')
          .whereRef('grant_redemptions.grant_id', '=', 'grants.id')
          .where('grant_redemptions.fan_id', '=', fan.id),
      );
      if (!fan.service || !fan.service_user_id) return redeemed;
      return eb.or([eb.and([eb('service', '=', fan.service), eb('service_id', '=', fan.service_user_id)]), redeemed]);
    });
  if (partyId) q = q.where('party_id', '=', partyId);
  return q.execute();
}

/** How redeeming a grant link ended: `redeemed` (now or earlier, by this fan), or why it was refused. */
export type GrantRedeemOutcome = 'redeemed' | 'unknown' | 'expired' | 'used_up';

/** Thrown inside the redemption transaction to roll its redemption row back. */
class Refused extends Error {
  constructor(readonly why: Exclude<GrantRedeemOutcome, 'redeemed' | 'unknown'>) {
    super(why);
  }
}

/**
 * Redeems a grant token for a fan: `unknown` when the token is unknown (or for another party),
 * `expired`, `used_up` when other fans took its uses. A fan redeeming again is not counted twice.
 * Atomic on both databases: the fan's redemption row is inserted first (its unique key makes a
 * parallel redemption by the same fan wait, then find it), and the use is taken with one
 * conditional UPDATE in the same transaction, rolled back with the row when the link is refused.
 */
export async function redeemGrantToken(db: Db, token: string, fanId: string, now: number, partyId?: string | null): Promise<GrantRedeemOutcome> {
  let q = db.selectFrom('grants').select(['id', 'expires_at']).where('token_hash', '=', hashToken(token));
  if (partyId) q = q.where('party_id', '=', partyId);
  const grant = await q.executeTakeFirst();
  if (!grant) return 'unknown';
  try {
    return await db.transaction().execute(async (trx): Promise<GrantRedeemOutcome> => {
      const inserted = await trx
        .insertInto('grant_redemptions')
        .values({ grant_id: grant.id, fan_id: fanId, created_at: now })
        .onConflict((oc) => oc.columns(['grant_id', 'fan_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return 'redeemed'; // this fan's earlier redemption
      if (grant.expires_at != null && Number(grant.expires_at) <= now) throw new Refused('expired');
      const taken = await trx
        .updateTable('grants')
        .set((eb) => ({ uses: eb('uses', '+', 1) }))
        .where('id', '=', grant.id)
        .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) throw new Refused('used_up');
      return 'redeemed';
    });
  } catch (e) {
    if (e instanceof Refused) return e.why;
    throw e;
  }
}

/** The party's grants; each link names the fans who redeemed it (their name in the party, if signed up). */
export async function listGrants(db: Db, partyId: string): Promise<Grant[]> {
  const rows = await db.selectFrom('grants').selectAll().where('party_id', '=', partyId).orderBy('created_at').execute();
  const redemptions = await db
    .selectFrom('grant_redemptions')
    .innerJoin('grants', 'grants.id', 'grant_redemptions.grant_id')
    .innerJoin('fans', 'fans.id', 'grant_redemptions.fan_id')
    .leftJoin('party_users', (join) => join.onRef('party_users.fan_id', '=', 'grant_redemptions.fan_id').on('party_users.party_id', '=', partyId))
    .select(['grant_redemptions.grant_id', 'grant_redemptions.fan_id', 'grant_redemptions.created_at', 'fans.display_name as fan_name', 'party_users.display_name as party_name'])
    .where('grants.party_id', '=', partyId)
    .orderBy('grant_redemptions.created_at')
    .execute();
  const byGrant = new Map<string, GrantRedemption[]>();
  for (const r of redemptions) {
    const list = byGrant.get(r.grant_id) ?? [];
    list.push({ user_id: r.fan_id, display_name: r.party_name ?? r.fan_name, redeemed_at: new Date(Number(r.created_at)).toISOString() });
    byGrant.set(r.grant_id, list);
  }
  return rows.map((r) => toGrant(r, null, byGrant.get(r.id) ?? []));
}

/**
 * Creates a grant. A grant without an account gets a fresh token, returned here once: only its
 * hash is kept, so a leaked database yields no working grant links.
 */
export async function createGrant(db: Db, partyId: string, body: PostGrantBody, now: number): Promise<Grant> {
  const token = body.service_id ? null : newToken();
  const row: GrantTable = {
    id: newId(),
    party_id: partyId,
    service: body.service ?? null,
    service_id: body.service_id ?? null,
    token_hash: token ? hashToken(token) : null,
    role: body.role,
    display_name: body.display_name,
    profile_picture: body.profile_picture ?? null,
    created_at: now,
    // A link works once and for 7 days unless the admin says otherwise (SPEC-NOTES).
    max_uses: token ? (body.max_uses ?? GRANT_LINK_DEFAULT_MAX_USES) : null,
    uses: 0,
    expires_at: token ? now + (body.expires_in_days ?? GRANT_LINK_DEFAULT_TTL_DAYS) * 86_400_000 : null,
  };
  if (row.service) {
    const existing = await db
      .selectFrom('grants')
      .select('id')
      .where('party_id', '=', partyId)
      .where('service', '=', row.service)
      .where('service_id', '=', row.service_id)
      .executeTakeFirst();
    if (existing) throw conflict(`A grant for ${row.service} account ${row.service_id} exists already`);
  }
  await db.insertInto('grants').values(row).execute();
  return toGrant(row, token);
}

export async function deleteGrantByAccount(db: Db, partyId: string, service: string, serviceId: string): Promise<void> {
  const res = await db
    .deleteFrom('grants')
    .where('party_id', '=', partyId)
    .where('service', '=', service)
    .where('service_id', '=', serviceId)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('No such grant');
}

export async function deleteGrantByToken(db: Db, partyId: string, token: string): Promise<void> {
  const res = await db
    .deleteFrom('grants')
    .where('party_id', '=', partyId)
    // The path names a link's token, or its grant id: the list shows no tokens (issue 14).
    .where((eb) => eb.or([eb('token_hash', '=', hashToken(token)), eb.and([eb('id', '=', token), eb('token_hash', 'is not', null)])]))
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('No such grant');
}

function toGrant(row: GrantTable, token: string | null, redeemedBy: GrantRedemption[] = []): Grant {
  return {
    id: row.id,
    service: (row.service as Grant['service']) ?? null,
    service_id: row.service_id,
    token,
    role: row.role as GrantRole,
    display_name: row.display_name,
    profile_picture: row.profile_picture,
    max_uses: row.max_uses == null ? null : Number(row.max_uses),
    uses: Number(row.uses ?? 0),
    expires_at: row.expires_at == null ? null : new Date(Number(row.expires_at)).toISOString(),
    redeemed_by: redeemedBy,
  };
}

/**
 * The full link of a grant token (issue 15): the party's page (the demo party at `/`, any other at
 * `/p/{partyId}/`) with the hash route `#/grant/{token}` that stores the token and logs in.
 */
export function grantLink(publicUrl: string, partyId: string, defaultPartyId: string, token: string): string {
  const page = partyId === defaultPartyId ? `${publicUrl}/` : `${publicUrl}/p/${encodeURIComponent(partyId)}/`;
  return `${page}#/grant/${encodeURIComponent(token)}`;
}
