import type {
  CmsAccountSetupBody,
  CmsLoginResponse,
  CmsRole,
  CmsUser,
  CmsUserState,
  CreateCmsUserBody,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { conflict, forbidden, notFound, unauthorized, unprocessable } from '../../platform/errors.ts';
import { hashToken, newId, newToken } from '../../platform/tokens.ts';
import { iso, isUniqueViolation } from '../shared.ts';
import { can } from './permissions.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { countOtherActiveAdmins, findUserByEmail, findUserById, rolesOf, toCmsUser, type CmsUserRow } from './queries.ts';
import { extendCmsSession, issueCmsSession, revokeAllCmsSessions, revokeOtherCmsSessions } from './sessions.ts';

const RESET_TTL_MS = 60 * 60_000;
const INVITE_TTL_MS = 72 * 60 * 60_000;

/** Checks e-mail and password and opens a session. The state is told only after a right password. */
export async function loginCmsUser(ctx: ServerContext, email: string, password: string): Promise<CmsLoginResponse> {
  const user = await findUserByEmail(ctx.db, email);
  const ok = await verifyPassword(password, user?.password_hash ?? null);
  if (!user || !ok) throw unauthorized('Invalid e-mail or password');
  if (user.state === 'disabled') throw forbidden('User is disabled');
  if (user.state !== 'active') throw forbidden('User awaits activation by an admin');
  const { token, expiresAt } = await issueCmsSession(ctx.db, user.id, ctx.now(), ctx.config.cms.sessionTtlMs);
  return { access_token: token, token_type: 'bearer', expires_at: iso(expiresAt), user: toCmsUser(user) };
}

/**
 * `PUT /api/users/me/setup`: a user who must set up their account (the first admin with a generated
 * password) gives their name, e-mail and a password of their own (not the initial one). The flag
 * is cleared, so every other call opens; their other sessions end (the initial password may have
 * been seen in a log).
 */
export async function completeAccountSetup(ctx: ServerContext, user: CmsUserRow, token: string, body: CmsAccountSetupBody): Promise<CmsUser> {
  if (user.must_change_password !== 1) throw conflict('Your account is already set up');
  if (await verifyPassword(body.new_password, user.password_hash)) {
    throw unprocessable(['body', 'new_password'], 'Choose a new password, not the initial one');
  }
  const now = ctx.now();
  const changes = { name: body.name, email: body.email.toLowerCase(), password_hash: await hashPassword(body.new_password), must_change_password: 0, updated_at: now };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.updateTable('cms_users').set(changes).where('id', '=', user.id).execute();
      await revokeOtherCmsSessions(trx, user.id, token, now);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict({ message: 'A user with this e-mail exists', type: 'DuplicateUserError', fields: ['email'] });
    throw e;
  }
  return toCmsUser({ ...user, ...changes });
}

/** `POST /api/users/session/refresh` ("stay signed in"): the same token, valid for another full lifetime. */
export async function refreshCmsSession(ctx: ServerContext, user: CmsUserRow, token: string): Promise<CmsLoginResponse> {
  const expiresAt = await extendCmsSession(ctx.db, token, ctx.now(), ctx.config.cms.sessionTtlMs);
  if (expiresAt === null) throw unauthorized('Invalid or expired token');
  return { access_token: token, token_type: 'bearer', expires_at: iso(expiresAt), user: toCmsUser(user) };
}

/** Inserts a user; 409 when the e-mail is taken. */
export async function insertCmsUser(
  ctx: ServerContext,
  input: { email: string; name: string; password: string | null; roles: CmsRole[]; state: CmsUserState; mustChangePassword?: boolean },
): Promise<CmsUserRow> {
  const now = ctx.now();
  const row: CmsUserRow = {
    id: newId(),
    email: input.email.toLowerCase(),
    name: input.name,
    password_hash: input.password ? await hashPassword(input.password) : null,
    roles: JSON.stringify([...new Set(input.roles)]),
    state: input.state,
    created_at: now,
    updated_at: now,
    must_change_password: input.mustChangePassword ? 1 : 0,
  };
  try {
    await ctx.db.insertInto('cms_users').values(row).execute();
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict({ message: 'A user with this e-mail exists', type: 'DuplicateUserError', fields: ['email'] });
    throw e;
  }
  return row;
}

/**
 * `POST /api/users`. An admin creates a user as asked (without a password the user is invited by
 * e-mail to set one). Anyone else registers themselves: password required, state `pending`, no
 * roles, until an admin activates them.
 */
export async function createCmsUser(ctx: ServerContext, caller: CmsUserRow | null, body: CreateCmsUserBody): Promise<CmsUser> {
  const isAdmin = caller !== null && caller.state === 'active' && can(rolesOf(caller), 'users.manage');
  if (!isAdmin) {
    // Self-registration must not choose its own roles or state.
    if (body.roles?.length || body.state) throw forbidden('Only an admin may set roles or state');
    if (!body.password) throw unprocessable(['body', 'password'], 'A password is required');
    const row = await insertCmsUser(ctx, { email: body.email, name: body.name ?? '', password: body.password, roles: [], state: 'pending' });
    return toCmsUser(row);
  }
  const row = await insertCmsUser(ctx, {
    email: body.email,
    name: body.name ?? '',
    password: body.password ?? null,
    roles: body.roles ?? ['editor'],
    state: body.state ?? 'active',
  });
  if (!body.password) await sendPasswordLink(ctx, row, true, INVITE_TTL_MS);
  return toCmsUser(row);
}

export async function setCmsUserRoles(ctx: ServerContext, id: string, roles: CmsRole[]): Promise<CmsUser> {
  const user = await findUserById(ctx.db, id);
  if (!user) throw notFound('User not found');
  if (rolesOf(user).includes('admin') && !roles.includes('admin')) await keepOneAdmin(ctx, user.id);
  const now = ctx.now();
  await ctx.db.updateTable('cms_users').set({ roles: JSON.stringify([...new Set(roles)]), updated_at: now }).where('id', '=', id).execute();
  return toCmsUser({ ...user, roles: JSON.stringify([...new Set(roles)]), updated_at: now });
}

export async function setCmsUserState(ctx: ServerContext, id: string, state: CmsUserState): Promise<CmsUser> {
  const user = await findUserById(ctx.db, id);
  if (!user) throw notFound('User not found');
  if (state !== 'active' && rolesOf(user).includes('admin')) await keepOneAdmin(ctx, user.id);
  const now = ctx.now();
  await ctx.db.updateTable('cms_users').set({ state, updated_at: now }).where('id', '=', id).execute();
  return toCmsUser({ ...user, state, updated_at: now });
}

// Guards against locking everyone out: some other active admin must remain.
async function keepOneAdmin(ctx: ServerContext, userId: string): Promise<void> {
  if ((await countOtherActiveAdmins(ctx.db, userId)) === 0) throw conflict('The last active admin cannot lose the admin role or be deactivated');
}

/**
 * Sends a password link when the e-mail belongs to a user; silent otherwise, so the answer never
 * tells whether an address has an account. `cms`: the link opens the back office.
 */
export async function requestPasswordReset(ctx: ServerContext, email: string, cms: boolean): Promise<void> {
  const user = await findUserByEmail(ctx.db, email);
  if (!user || user.state === 'disabled') return;
  await sendPasswordLink(ctx, user, cms, RESET_TTL_MS);
}

async function sendPasswordLink(ctx: ServerContext, user: CmsUserRow, cms: boolean, ttlMs: number): Promise<void> {
  const token = newToken();
  const now = ctx.now();
  await ctx.db
    .insertInto('cms_password_resets')
    .values({ token_hash: hashToken(token), user_id: user.id, created_at: now, expires_at: now + ttlMs, used_at: null })
    .execute();
  const base = ctx.config.cmsPublicUrl;
  const link = cms ? `${base}/admin/#/reset-password?token=${token}` : `${base}/password/reset?token=${token}`;
  await ctx.mailer.send({
    to: user.email,
    subject: 'Set your Fanfare password',
    text: `Hello${user.name ? ` ${user.name}` : ''},\n\nopen this link to set your Fanfare back-office password:\n${link}\n\nThe link works once and expires in ${Math.round(ttlMs / 3_600_000)} hour(s). If you did not ask for it, ignore this e-mail.\n`,
  });
}

/** Sets a new password with a reset token (single use); every session of the user ends. */
export async function resetPassword(ctx: ServerContext, token: string, newPassword: string): Promise<void> {
  const now = ctx.now();
  const reset = await ctx.db
    .selectFrom('cms_password_resets')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!reset || reset.used_at !== null || reset.expires_at <= now) throw unprocessable(['body', 'token'], 'Invalid or expired reset token');
  const hash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    // Marks the token used first, so two concurrent uses cannot both succeed.
    const used = await trx
      .updateTable('cms_password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', reset.token_hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw unprocessable(['body', 'token'], 'Invalid or expired reset token');
    await trx.updateTable('cms_users').set({ password_hash: hash, updated_at: now }).where('id', '=', reset.user_id).execute();
    await revokeAllCmsSessions(trx, reset.user_id, now);
  });
}
