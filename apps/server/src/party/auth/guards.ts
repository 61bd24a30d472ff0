import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { forbidden, unauthorized } from '../../platform/errors.ts';
import { fanForToken, type Fan } from './sessions.ts';

/** The bearer token of a request (`Authorization: Bearer ...`), if any. */
export function bearerToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/** Guards every fan call: a valid, unexpired, unrevoked bearer token, else 401. */
export async function requireFan(ctx: ServerContext, req: FastifyRequest): Promise<Fan> {
  const token = bearerToken(req);
  if (!token) throw unauthorized('Missing bearer token');
  const fan = await fanForToken(ctx.db, token, ctx.now());
  if (!fan) throw unauthorized('Invalid or expired access token');
  return fan;
}

/** The back-office identity a token names: CMS_ADMIN_TOKEN or an active CMS user's token; else null. */
export async function cmsIdentity(ctx: ServerContext, token: string): Promise<{ id: string; name: string } | null> {
  const configured = ctx.config.cmsAdminToken;
  if (configured && safeEqual(token, configured)) return { id: 'cms-admin-token', name: 'CMS admin token' };
  for (const resolve of ctx.cmsTokenResolvers) {
    const who = await resolve(token);
    if (who) return who;
  }
  return null;
}

/**
 * Guards party admin calls: the admin tool's header `X-Cms-Token`, or (issue 15) the back-office
 * user's own `Authorization: Bearer` token, must be CMS_ADMIN_TOKEN or the token of an active
 * back-office user (resolvers added by the CMS domain to `ctx.cmsTokenResolvers`). A wrong
 * `X-Cms-Token` is 403; a bearer that is no CMS token (e.g. a fan's) is 401.
 */
export async function requireCms(ctx: ServerContext, req: FastifyRequest): Promise<{ id: string; name: string }> {
  const header = req.headers['x-cms-token'];
  if (typeof header === 'string' && header !== '') {
    const who = await cmsIdentity(ctx, header);
    if (!who) throw forbidden('CMS token not accepted');
    return who;
  }
  const bearer = bearerToken(req);
  if (!bearer) throw unauthorized('Missing X-Cms-Token header or CMS bearer token');
  const who = await cmsIdentity(ctx, bearer);
  if (!who) throw unauthorized('The bearer token is not a CMS token');
  return who;
}

/**
 * Calls open to the admin tool and to fans (stop, end, start): an `X-Cms-Token` (checked, a wrong
 * one refused), else a bearer that is a fan's access token or a back-office user's token.
 */
export async function requireCmsOrFan(ctx: ServerContext, req: FastifyRequest): Promise<{ cms: { id: string; name: string }; fan: null } | { cms: null; fan: Fan }> {
  if (req.headers['x-cms-token'] !== undefined) return { cms: await requireCms(ctx, req), fan: null };
  const token = bearerToken(req);
  if (!token) throw unauthorized('Missing bearer token');
  const fan = await fanForToken(ctx.db, token, ctx.now());
  if (fan) return { cms: null, fan };
  const cms = await cmsIdentity(ctx, token);
  if (cms) return { cms, fan: null };
  throw unauthorized('Invalid or expired access token');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
