import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { readOutbox } from '../../platform/mail.ts';
import path from 'node:path';
import { ADMIN, EDITOR_PASSWORD, call, login, startCmsServer, userWithRoles } from '../testing.ts';

describe.each(DB_TARGETS)('CMS users and roles (%s)', (db) => {
  let ts: TestServer;
  let admin: string;

  beforeAll(async () => {
    ts = await startCmsServer(db, { CMS_LOGIN_RATE_LIMIT: '30' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
  });
  afterAll(() => ts?.close());

  it('first admin comes from ADMIN_EMAIL/ADMIN_PASSWORD; login returns access_token; GET /api/users/me', async () => {
    const me = await call(ts, 'GET', '/api/users/me', { token: admin });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: ADMIN.email, roles: ['admin'], state: 'active' });
    expect(me.body.password_hash).toBeUndefined();
  });

  it('wrong password and unknown e-mail both answer 401 with detail', async () => {
    const wrong = await call(ts, 'POST', '/api/users/login', { body: { email: ADMIN.email, password: 'not-the-password' } });
    const unknown = await call(ts, 'POST', '/api/users/login', { body: { email: 'nobody@example.com', password: 'whatever-password' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('passwords are stored as scrypt hashes, never in clear', async () => {
    const row = await ts.server.ctx.db.selectFrom('cms_users').select('password_hash').where('email', '=', ADMIN.email).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row.password_hash).not.toContain(ADMIN.password);
  });

  it('permissions per role: an editor may not list or manage users; an admin may', async () => {
    const editor = await userWithRoles(ts, admin, 'editor1@example.com', ['editor']);
    expect((await call(ts, 'GET', '/api/users', { token: editor.token })).status).toBe(403);
    expect((await call(ts, 'POST', `/api/users/${editor.id}/roles`, { token: editor.token, body: { roles: ['admin'] } })).status).toBe(403);
    const list = await call(ts, 'GET', '/api/users', { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.items.map((u: { email: string }) => u.email)).toContain('editor1@example.com');
    const promoted = await call(ts, 'POST', `/api/users/${editor.id}/roles`, { token: admin, body: { roles: ['editor', 'admin'] } });
    expect(promoted.body.roles).toEqual(['editor', 'admin']);
    expect((await call(ts, 'GET', '/api/users', { token: editor.token })).status).toBe(200);
  });

  it('a disabled user is refused everywhere: existing token, login, party X-Cms-Token', async () => {
    const u = await userWithRoles(ts, admin, 'editor2@example.com', ['editor']);
    expect((await call(ts, 'GET', '/api/campaigns', { token: u.token })).status).toBe(200);
    const disabled = await call(ts, 'POST', `/api/users/${u.id}/state`, { token: admin, body: { state: 'disabled' } });
    expect(disabled.body.state).toBe('disabled');
    expect((await call(ts, 'GET', '/api/users/me', { token: u.token })).status).toBe(403);
    expect((await call(ts, 'GET', '/api/campaigns', { token: u.token })).status).toBe(403);
    const relogin = await call(ts, 'POST', '/api/users/login', { body: { email: 'editor2@example.com', password: EDITOR_PASSWORD } });
    expect(relogin.status).toBe(403);
    const resolved = await Promise.all(ts.server.ctx.cmsTokenResolvers.map((r) => r(u.token)));
    expect(resolved.every((x) => x === null)).toBe(true);
  });

  it('the party API accepts an active CMS user token as X-Cms-Token', async () => {
    const resolved = await Promise.all(ts.server.ctx.cmsTokenResolvers.map((r) => r(admin)));
    expect(resolved.some((x) => x !== null)).toBe(true);
    // Over HTTP on the party listener: granting requires X-Cms-Token.
    const noToken = await fetch(`${ts.partyUrl}/api/parties/demo/grants`);
    const withToken = await fetch(`${ts.partyUrl}/api/parties/demo/grants`, { headers: { 'x-cms-token': admin } });
    expect([401, 403]).toContain(noToken.status);
    expect(withToken.status).toBe(200);
  });

  it('POST /api/users without a token registers a pending user without roles, who cannot log in until activated', async () => {
    const reg = await call(ts, 'POST', '/api/users', { body: { email: 'Self@Example.com', password: 'self-password-0123' } });
    expect(reg.status).toBe(201);
    expect(reg.body).toMatchObject({ email: 'self@example.com', state: 'pending', roles: [] });
    const sneaky = await call(ts, 'POST', '/api/users', { body: { email: 'sneaky@example.com', password: 'self-password-0123', roles: ['admin'] } });
    expect(sneaky.status).toBe(403);
    expect((await call(ts, 'POST', '/api/users/login', { body: { email: 'self@example.com', password: 'self-password-0123' } })).status).toBe(403);
    await call(ts, 'POST', `/api/users/${reg.body.id}/state`, { token: admin, body: { state: 'active' } });
    expect(await login(ts, 'self@example.com', 'self-password-0123')).toBeTruthy();
    const dup = await call(ts, 'POST', '/api/users', { body: { email: 'self@example.com', password: 'self-password-0123' } });
    expect(dup.status).toBe(409);
  });

  it('bad input is refused with 422 detail and nothing is stored', async () => {
    const r = await call(ts, 'POST', '/api/users', { token: admin, body: { email: 'short@example.com', password: 'short' } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].loc).toEqual(['body', 'password']);
    const row = await ts.server.ctx.db.selectFrom('cms_users').select('id').where('email', '=', 'short@example.com').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('the last active admin cannot be demoted or disabled', async () => {
    const fresh = await startCmsServer(db);
    try {
      const t = await login(fresh, ADMIN.email, ADMIN.password);
      const me = await call(fresh, 'GET', '/api/users/me', { token: t });
      expect((await call(fresh, 'POST', `/api/users/${me.body.id}/roles`, { token: t, body: { roles: ['editor'] } })).status).toBe(409);
      expect((await call(fresh, 'POST', `/api/users/${me.body.id}/state`, { token: t, body: { state: 'disabled' } })).status).toBe(409);
    } finally {
      await fresh.close();
    }
  });

  it('password reset: POST /api/users/password_reset e-mails a link; PUT /api/users/password sets the password once and ends sessions', async () => {
    const u = await userWithRoles(ts, admin, 'forgetful@example.com', ['editor']);
    const before = (await readOutbox(path.join(ts.dataDir, 'outbox'))).length;
    expect((await call(ts, 'POST', '/api/users/password_reset', { body: { email: 'forgetful@example.com', cms: true } })).status).toBe(204);
    // Unknown addresses get the same answer and no mail.
    expect((await call(ts, 'POST', '/api/users/password_reset', { body: { email: 'ghost@example.com' } })).status).toBe(204);
    const mails = await readOutbox(path.join(ts.dataDir, 'outbox'));
    expect(mails.length).toBe(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.to).toBe('forgetful@example.com');
    const token = /token=([\w-]+)/.exec(mail.text)![1]!;
    expect(mail.text).toContain('/admin/#/reset-password?token=');
    const set = await call(ts, 'PUT', '/api/users/password', { body: { token, new_password: 'brand-new-password-1' } });
    expect(set.status).toBe(204);
    expect((await call(ts, 'GET', '/api/users/me', { token: u.token })).status).toBe(401);
    expect(await login(ts, 'forgetful@example.com', 'brand-new-password-1')).toBeTruthy();
    const again = await call(ts, 'PUT', '/api/users/password', { body: { token, new_password: 'another-password-22' } });
    expect(again.status).toBe(422);
  });

  it('logout revokes the token', async () => {
    const t = await login(ts, ADMIN.email, ADMIN.password);
    expect((await call(ts, 'DELETE', '/api/users/session', { token: t })).status).toBe(204);
    expect((await call(ts, 'GET', '/api/users/me', { token: t })).status).toBe(401);
  });
});

describe('CMS login rate limit and first-admin bootstrap', () => {
  it('login attempts are rate-limited per client (429 with detail)', async () => {
    const ts = await startCmsServer('sqlite', { CMS_LOGIN_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await call(ts, 'POST', '/api/users/login', { body: { email: ADMIN.email, password: 'wrong-password-x' } })).status);
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses[4]).toBe(429);
      const r = await call(ts, 'POST', '/api/users/login', { body: { email: ADMIN.email, password: ADMIN.password } });
      expect(r.status).toBe(429);
      expect(typeof r.body.detail).toBe('string');
    } finally {
      await ts.close();
    }
  });

  it('without ADMIN_PASSWORD a first admin is created with a random password (no default password)', async () => {
    const { startTestServer } = await import('../../test/harness.ts');
    const ts = await startTestServer({ db: 'sqlite' });
    try {
      const rows = await ts.server.ctx.db.selectFrom('cms_users').selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.email).toBe('admin@fanfare.local');
      for (const guess of ['admin', 'password', 'admin@fanfare.local', 'changeme1234']) {
        expect((await call(ts, 'POST', '/api/users/login', { body: { email: 'admin@fanfare.local', password: guess } })).status).toBe(401);
      }
    } finally {
      await ts.close();
    }
  });
});

describe('CMS tokens on a party-only node', () => {
  it('with --only party, the party API still accepts a CMS user token as X-Cms-Token', async () => {
    const { freePort } = await import('../../test/harness.ts');
    const { loadConfig } = await import('../../platform/config.ts');
    const { createLogger } = await import('../../platform/logger.ts');
    const { startServer } = await import('../../server.ts');
    const full = await startCmsServer('sqlite');
    const token = await login(full, ADMIN.email, ADMIN.password);
    const databaseUrl = full.server.ctx.config.databaseUrl;
    await full.server.close();
    const port = await freePort();
    const config = loadConfig({ PORT: String(port), CMS_PORT: '0', HOST: '127.0.0.1', DATA_DIR: full.dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
    const partyOnly = await startServer(config, { only: 'party', logger: createLogger('silent') });
    try {
      expect(partyOnly.cms).toBeNull();
      const res = await fetch(`${config.publicUrl}/api/parties/demo/grants`, { headers: { 'x-cms-token': token } });
      expect(res.status).toBe(200);
      const bad = await fetch(`${config.publicUrl}/api/parties/demo/grants`, { headers: { 'x-cms-token': 'not-a-token' } });
      expect(bad.status).toBe(403);
    } finally {
      await partyOnly.close();
      await full.close();
    }
  });
});
