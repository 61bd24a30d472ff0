import type { Db } from '../../platform/db/database.ts';
import { queryOf } from '../../platform/db/queryOf.ts';
import { cached, cacheKind, onChange } from '../../platform/db/cache.ts';
import type { FanTable } from '../../platform/db/schema.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';

export type Fan = FanTable;

const insertTokenQuery = queryOf((db: Db, v: { tokenHash: string; fanId: string; now: number; expiresAt: number }) =>
  db.insertInto('access_tokens').values({ token_hash: v.tokenHash, fan_id: v.fanId, created_at: v.now, expires_at: v.expiresAt, revoked_at: null }),
);

/** Issues a fan's bearer token; only its hash is stored. */
export async function issueAccessToken(db: Db, fanId: string, now: number, ttlMs: number): Promise<string> {
  const token = newToken();
  await insertTokenQuery(db, { tokenHash: hashToken(token), fanId, now, expiresAt: now + ttlMs });
  return token;
}

/**
 * Token hash → fan and the token's expiry, read on every fan call (issue 16). A revocation or any
 * change of a fan empties it (on every node); a new token or fan cannot change a cached entry.
 * The expiry is checked against `now` on every use, so an entry never outlives its token.
 */
const tokenFans = cacheKind<string, { fan: Readonly<Fan>; expiresAt: number } | null>({
  max: 20_000,
  maxAgeMs: 60_000,
  dependsOn: [onChange('access_tokens'), onChange('fans')],
});

/** The fan a bearer token belongs to, or null when it is unknown, expired or revoked. */
export async function fanForToken(db: Db, token: string, now: number): Promise<Fan | null> {
  const hash = hashToken(token);
  const found = await cached(tokenFans, db, hash, async () => {
    const row = await db
      .selectFrom('access_tokens')
      .innerJoin('fans', 'fans.id', 'access_tokens.fan_id')
      .selectAll('fans')
      .select('access_tokens.expires_at as token_expires_at')
      .where('access_tokens.token_hash', '=', hash)
      .where('access_tokens.revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return null;
    const { token_expires_at: expiresAt, ...fan } = row;
    return { fan: Object.freeze(fan), expiresAt: Number(expiresAt) };
  });
  return found && found.expiresAt > now ? found.fan : null;
}

/** Logout: the token stops working at once. */
export async function revokeAccessToken(db: Db, token: string, now: number): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .execute();
}
