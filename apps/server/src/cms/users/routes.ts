import { CMS_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { unauthorized } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { escapeHtml } from '../../platform/html.ts';
import { consumeAllowance } from '../../platform/limits/counters.ts';
import { pageHeaders } from '../../platform/securityHeaders.ts';
import { cmsRoute } from '../route.ts';
import { cmsTokenOf } from './guards.ts';
import { listUsers, toCmsUser } from './queries.ts';
import { completeAccountSetup, createCmsUser, loginCmsUser, refreshCmsSession, requestPasswordReset, resetPassword, setCmsUserRoles, setCmsUserState } from './service.ts';
import { revokeCmsSession } from './sessions.ts';

export async function registerCmsUserRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  // Guessing passwords or flooding reset e-mails is slowed per client address.
  const limited = { config: { rateLimit: { max: ctx.config.cms.loginRateLimit, timeWindow: 60_000 } } };

  // Also per account, in the database: guesses spread over many addresses or nodes still share
  // one allowance per e-mail. Every attempt counts, before the password is checked, so parallel
  // guesses cannot all pass; a 429 says nothing about whether the account exists.
  const perAccount = (what: string, email: string) =>
    consumeAllowance(ctx.db, `${what}:${email.trim().toLowerCase()}`, { max: ctx.config.cms.loginRateLimit, windowMs: 60_000, what: `${what} attempts a minute for this account` }, ctx.now());

  route(app, CMS_ROUTES.login, async (req) => {
    await perAccount('cms-login', req.body.email);
    return loginCmsUser(ctx, req.body.email, req.body.password);
  }, limited);

  route(app, CMS_ROUTES.logout, async (req) => {
    const token = cmsTokenOf(req);
    if (!token) throw unauthorized('Missing bearer token');
    await revokeCmsSession(ctx.db, token, ctx.now());
  });

  route(app, CMS_ROUTES.getMe, async (_req, _reply, user) => toCmsUser(user));

  route(app, CMS_ROUTES.completeAccountSetup, async (req, _reply, user) => completeAccountSetup(ctx, user, cmsTokenOf(req)!, req.body), limited);

  route(app, CMS_ROUTES.refreshSession, async (req, _reply, user) => refreshCmsSession(ctx, user, cmsTokenOf(req)!));

  route(app, CMS_ROUTES.listUsers, async () => ({ items: (await listUsers(ctx.db)).map(toCmsUser) }));

  route(app, CMS_ROUTES.createUser, async (req, _reply, caller) => createCmsUser(ctx, caller, req.body), limited);

  route(app, CMS_ROUTES.setUserRoles, async (req) => setCmsUserRoles(ctx, req.params.id, req.body.roles));

  route(app, CMS_ROUTES.setUserState, async (req) => setCmsUserState(ctx, req.params.id, req.body.state));

  route(app, CMS_ROUTES.setPassword, async (req) => {
    await resetPassword(ctx, req.body.token, req.body.new_password);
  }, limited);

  route(app, CMS_ROUTES.requestPasswordReset, async (req) => {
    await perAccount('password-reset', req.body.email);
    await requestPasswordReset(ctx, req.body.email, req.body.cms ?? false);
  }, limited);

  // The page a non-back-office reset link opens (a web-app page, not an API call): a form that
  // calls PUT /api/users/password.
  // Its URL holds the reset token: no referrer, and no frame (clickjacking of the form).
  app.get('/password/reset', { schema: { hide: true }, helmet: pageHeaders('nobody', 'no-referrer') }, async (req, reply) => {
    const token = String((req.query as { token?: string }).token ?? '');
    return reply.type('text/html; charset=utf-8').send(resetPage(token));
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
