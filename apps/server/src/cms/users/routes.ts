import {
  CmsIdParam,
  CmsLoginBody,
  CmsLoginResponse,
  CmsPasswordBody,
  CmsPasswordResetBody,
  CmsUser,
  CmsUserRolesBody,
  CmsUserStateBody,
  CmsUsersResponse,
  CreateCmsUserBody,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { escapeHtml } from '../../platform/html.ts';
import { cmsTokenOf, requireCmsUser } from './guards.ts';
import { listUsers, toCmsUser } from './queries.ts';
import { createCmsUser, loginCmsUser, requestPasswordReset, resetPassword, setCmsUserRoles, setCmsUserState } from './service.ts';
import { revokeCmsSession } from './sessions.ts';

const tags = ['cms users'];

export async function registerCmsUserRoutes(app: App, ctx: ServerContext): Promise<void> {
  // Guessing passwords or flooding reset e-mails is slowed per client address.
  const limited = { rateLimit: { max: ctx.config.cms.loginRateLimit, timeWindow: 60_000 } };

  app.post(
    '/api/users/login',
    { config: limited, schema: { tags, summary: 'Back-office login', body: CmsLoginBody, response: { 200: CmsLoginResponse } } },
    async (req) => loginCmsUser(ctx, req.body.email, req.body.password),
  );

  app.delete('/api/users/session', { schema: { tags, summary: 'Logout: revokes the token' } }, async (req, reply) => {
    const token = cmsTokenOf(req);
    if (!token) throw unauthorized('Missing bearer token');
    await revokeCmsSession(ctx.db, token, ctx.now());
    return reply.status(204).send();
  });

  app.get('/api/users/me', { schema: { tags, response: { 200: CmsUser } } }, async (req) => toCmsUser(await requireCmsUser(ctx, req)));

  app.get('/api/users', { schema: { tags, response: { 200: CmsUsersResponse } } }, async (req) => {
    await requireCmsUser(ctx, req, 'users.manage');
    return { items: (await listUsers(ctx.db)).map(toCmsUser) };
  });

  app.post(
    '/api/users',
    { config: limited, schema: { tags, summary: 'Create a user (admin) or register (no token: pending)', body: CreateCmsUserBody, response: { 201: CmsUser } } },
    async (req, reply) => {
      // A token, when sent, must be valid: an expired admin session must not turn into a self-registration.
      const token = cmsTokenOf(req);
      const caller = token ? await requireCmsUser(ctx, req) : null;
      return reply.status(201).send(await createCmsUser(ctx, caller, req.body));
    },
  );

  app.post(
    '/api/users/:id/roles',
    { schema: { tags, params: CmsIdParam, body: CmsUserRolesBody, response: { 200: CmsUser } } },
    async (req) => {
      await requireCmsUser(ctx, req, 'users.manage');
      return setCmsUserRoles(ctx, req.params.id, req.body.roles);
    },
  );

  app.post(
    '/api/users/:id/state',
    { schema: { tags, params: CmsIdParam, body: CmsUserStateBody, response: { 200: CmsUser } } },
    async (req) => {
      await requireCmsUser(ctx, req, 'users.manage');
      return setCmsUserState(ctx, req.params.id, req.body.state);
    },
  );

  app.put(
    '/api/users/password',
    { config: limited, schema: { tags, summary: 'Set a new password with a reset token', body: CmsPasswordBody } },
    async (req, reply) => {
      await resetPassword(ctx, req.body.token, req.body.new_password);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/users/password_reset',
    { config: limited, schema: { tags, summary: 'E-mails a password reset link (same answer for unknown addresses)', body: CmsPasswordResetBody } },
    async (req, reply) => {
      await requestPasswordReset(ctx, req.body.email, req.body.cms ?? false);
      return reply.status(204).send();
    },
  );

  // The page a non-back-office reset link opens: a form that calls PUT /api/users/password.
  app.get('/password/reset', { schema: { hide: true } }, async (req, reply) => {
    const token = String((req.query as { token?: string }).token ?? '');
    return reply.type('text/html; charset=utf-8').header('referrer-policy', 'no-referrer').send(resetPage(token));
  });

}

function resetPage(token: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Set your password</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head><body style="font-family:sans-serif;max-width:28rem;margin:3rem auto">
<h1>Set your password</h1><form id="f"><input type="hidden" name="token" value="${escapeHtml(token)}">
<label>New password (at least 12 characters)<br><input type="password" name="new_password" minlength="12" required autocomplete="new-password"></label>
<p><button>Save</button></p><p id="m" role="status"></p></form>
<script>document.getElementById('f').addEventListener('submit',async(e)=>{e.preventDefault();const d=new FormData(e.target);
const r=await fetch('/api/users/password',{method:'PUT',headers:{'content-type':'application/json'},body:JSON.stringify({token:d.get('token'),new_password:d.get('new_password')})});
document.getElementById('m').textContent=r.ok?'Password saved. You can log in now.':'This link is invalid or expired.';});</script></body></html>`;
}
