import type { FastifyRequest } from 'fastify';
import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { can, type Permission } from './permissions.ts';
import { rolesOf, type CmsUserRow } from './queries.ts';
import { userForCmsToken } from './sessions.ts';

/** The back-office token of a request: `Authorization: Bearer ...` or `X-Cms-Token`. */
export function cmsTokenOf(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  const bearer = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
  if (bearer) return bearer;
  const cms = req.headers['x-cms-token'];
  return typeof cms === 'string' && cms !== '' ? cms : null;
}

/** The calls a user who must still set up their account may make: who am I, the set-up, sign out. */
const SETUP_CALLS = new Set(
  [CMS_ROUTES.getMe, CMS_ROUTES.completeAccountSetup, CMS_ROUTES.logout].map((r) => `${r.method} ${r.path}`),
);

/**
 * Guards every back-office call: a valid session token (401 otherwise), an active user (a disabled
 * or pending user is refused everywhere, 403), an account set up (403 `AccountSetupRequired` until
 * the first admin has chosen their own password), and a role that grants `permission` (403).
 */
export async function requireCmsUser(ctx: ServerContext, req: FastifyRequest, permission?: Permission): Promise<CmsUserRow> {
  const token = cmsTokenOf(req);
  if (!token) throw unauthorized('Missing bearer token');
  const user = await userForCmsToken(ctx.db, token, ctx.now());
  if (!user) throw unauthorized('Invalid or expired token');
  if (user.state === 'disabled') throw forbidden('User is disabled');
  if (user.state !== 'active') throw forbidden('User awaits activation by an admin');
  if (user.must_change_password === 1 && !SETUP_CALLS.has(`${req.method} ${req.routeOptions.url ?? ''}`)) {
    throw forbidden({ message: 'Set up your account first: choose your own password', type: 'AccountSetupRequired' });
  }
  if (permission && !can(rolesOf(user), permission)) throw forbidden(`Your roles do not allow ${permission}`);
  return user;
}
