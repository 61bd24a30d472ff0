import type { CmsTokenResolver, ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import { hashToken, newToken } from '../../platform/tokens.ts';
import { can } from './permissions.ts';
import { rolesOf, type CmsUserRow } from './queries.ts';

/** Issues a back-office bearer token; only its hash is stored. */
export async function issueCmsSession(db: Db, userId: string, now: number, ttlMs: number): Promise<{ token: string; expiresAt: number }> {
  const token = newToken();
  const expiresAt = now + ttlMs;
  await db
    .insertInto('cms_sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: expiresAt, revoked_at: null })
    .execute();
  return { token, expiresAt };
}

/** The user a token belongs to when the token is known, unexpired and unrevoked (any state). */
export async function userForCmsToken(db: Db, token: string, now: number): Promise<CmsUserRow | null> {
  const row = await db
    .selectFrom('cms_sessions')
    .innerJoin('cms_users', 'cms_users.id', 'cms_sessions.user_id')
    .selectAll('cms_users')
    .where('cms_sessions.token_hash', '=', hashToken(token))
    .where('cms_sessions.revoked_at', 'is', null)
    .where('cms_sessions.expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}

export async function revokeCmsSession(db: Db, token: string, now: number): Promise<void> {
  await db.updateTable('cms_sessions').set({ revoked_at: now }).where('token_hash', '=', hashToken(token)).where('revoked_at', 'is', null).execute();
}

/** Moves a live session's end to `now + ttlMs`; the new end, or null when the token is not live. */
export async function extendCmsSession(db: Db, token: string, now: number, ttlMs: number): Promise<number | null> {
  const expiresAt = now + ttlMs;
  const r = await db
    .updateTable('cms_sessions')
    .set({ expires_at: expiresAt })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? expiresAt : null;
}

/** Every session of a user but the one of `keepToken` ends (the account was set up). */
export async function revokeOtherCmsSessions(db: Db, userId: string, keepToken: string, now: number): Promise<void> {
  await db
    .updateTable('cms_sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('token_hash', '!=', hashToken(keepToken))
    .where('revoked_at', 'is', null)
    .execute();
}

/** Every session of a user ends (password changed). */
export async function revokeAllCmsSessions(db: Db, userId: string, now: number): Promise<void> {
  await db.updateTable('cms_sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}

/**
 * Lets the party API accept a back-office user's token as `X-Cms-Token`: only an active user whose
 * roles allow party administration (a disabled user's token is refused there too).
 */
export function cmsUserTokenResolver(ctx: ServerContext): CmsTokenResolver {
  return async (token) => {
    const user = await userForCmsToken(ctx.db, token, ctx.now());
    if (!user || user.state !== 'active' || user.must_change_password === 1 || !can(rolesOf(user), 'party.admin')) return null;
    return { id: user.id, name: user.name || user.email };
  };
}
