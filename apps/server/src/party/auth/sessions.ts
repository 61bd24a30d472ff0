import type { Db } from '../../platform/db/database.ts';
import type { FanTable } from '../../platform/db/schema.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';

export type Fan = FanTable;

/** Issues a fan's bearer token; only its hash is stored. */
export async function issueAccessToken(db: Db, fanId: string, now: number, ttlMs: number): Promise<string> {
  const token = newToken();
  await db
    .insertInto('access_tokens')
    .values({ token_hash: hashToken(token), fan_id: fanId, created_at: now, expires_at: now + ttlMs, revoked_at: null })
    .execute();
  return token;
}

/** The fan a bearer token belongs to, or null when it is unknown, expired or revoked. */
export async function fanForToken(db: Db, token: string, now: number): Promise<Fan | null> {
  const row = await db
    .selectFrom('access_tokens')
    .innerJoin('fans', 'fans.id', 'access_tokens.fan_id')
    .selectAll('fans')
    .where('access_tokens.token_hash', '=', hashToken(token))
    .where('access_tokens.revoked_at', 'is', null)
    .where('access_tokens.expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
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
