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

/**
 * Guards party admin calls: header `X-Cms-Token` must be CMS_ADMIN_TOKEN or the token of an active
 * back-office user (resolvers added by the CMS domain to `ctx.cmsTokenResolvers`).
 */
export async function requireCms(ctx: ServerContext, req: FastifyRequest): Promise<{ id: string; name: string }> {
  const token = req.headers['x-cms-token'];
  if (typeof token !== 'string' || token === '') throw unauthorized('Missing X-Cms-Token header');
  const configured = ctx.config.cmsAdminToken;
  if (configured && safeEqual(token, configured)) return { id: 'cms-admin-token', name: 'CMS admin token' };
  for (const resolve of ctx.cmsTokenResolvers) {
    const who = await resolve(token);
    if (who) return who;
  }
  throw forbidden('CMS token not accepted');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
