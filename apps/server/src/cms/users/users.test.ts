import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateCmsUserBody } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { readOutbox } from '../../platform/mail.ts';
import { postFrom } from '../../test/fromAddress.ts';
import path from 'node:path';
import { PartyClient } from '@fanfare/client/party';
import { ADMIN, EDITOR_PASSWORD, cmsApi, failure, issuesOf, login, startCmsServer, statusOf, userWithRoles } from '../testing.ts';

describe.each(DB_TARGETS)('CMS users and roles (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  const api = (token: string | null = null) => cmsApi(ts, token);
  const logIn = (email: string, password: string) => api().call('login', { body: { email, password } });

  beforeAll(async () => {
    ts = await startCmsServer(db, { CMS_LOGIN_RATE_LIMIT: '30' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
  });
  afterAll(() => ts?.close());

  it('first admin comes from ADMIN_EMAIL/ADMIN_PASSWORD; login returns access_token; GET /api/users/me', async () => {
    const me = await api(admin).call('getMe');
    expect(me).toMatchObject({ email: ADMIN.email, roles: ['admin'], state: 'active' });
    expect(me).not.toHaveProperty('password_hash');
  });

  it('wrong password and unknown e-mail both answer 401 with detail', async () => {
    const wrong = await failure(logIn(ADMIN.email, 'not-the-password'));
    const unknown = await failure(logIn('nobody@example.com', 'whatever-password'));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.message).toBe(unknown.message);
  });

  it('passwords are stored as scrypt hashes, never in clear', async () => {
    const row = await ts.server.ctx.db.selectFrom('cms_users').select('password_hash').where('email', '=', ADMIN.email).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$\d+\$8\$1\$/);
    expect(row.password_hash).not.toContain(ADMIN.password);
  });

  it('permissions per role: an editor may not list or manage users; an admin may', async () => {
    const editor = await userWithRoles(ts, admin, 'editor1@example.com', ['editor']);
    expect((await failure(api(editor.token).call('listUsers'))).status).toBe(403);
    expect((await failure(api(editor.token).call('setUserRoles', { params: { id: editor.id }, body: { roles: ['admin'] } }))).status).toBe(403);
    const list = await api(admin).call('listUsers');
    expect(list.items.map((u) => u.email)).toContain('editor1@example.com');
    const promoted = await api(admin).call('setUserRoles', { params: { id: editor.id }, body: { roles: ['editor', 'admin'] } });
    expect(promoted.roles).toEqual(['editor', 'admin']);
    expect(await statusOf((o) => api(editor.token).call('listUsers', {}, o))).toBe(200);
  });

  it('a disabled user is refused everywhere: existing token, login, party X-Cms-Token', async () => {
    const u = await userWithRoles(ts, admin, 'editor2@example.com', ['editor']);
    expect(await statusOf((o) => api(u.token).call('listCampaigns', {}, o))).toBe(200);
    const disabled = await api(admin).call('setUserState', { params: { id: u.id }, body: { state: 'disabled' } });
    expect(disabled.state).toBe('disabled');
    expect((await failure(api(u.token).call('getMe'))).status).toBe(403);
    expect((await failure(api(u.token).call('listCampaigns'))).status).toBe(403);
    expect((await failure(logIn('editor2@example.com', EDITOR_PASSWORD))).status).toBe(403);
    const resolved = await Promise.all(ts.server.ctx.cmsTokenResolvers.map((r) => r(u.token)));
    expect(resolved.every((x) => x === null)).toBe(true);
  });

  it('the party API accepts an active CMS user token as X-Cms-Token', async () => {
    const resolved = await Promise.all(ts.server.ctx.cmsTokenResolvers.map((r) => r(admin)));
    expect(resolved.some((x) => x !== null)).toBe(true);
    // Over HTTP on the party listener: granting requires X-Cms-Token.
    const noToken = await failure(new PartyClient({ baseUrl: ts.partyUrl }).call('listGrants', { params: { id: 'demo' } }));
    expect([401, 403]).toContain(noToken.status);
    expect((await new PartyClient({ baseUrl: ts.partyUrl, cmsToken: admin }).call('listGrants', { params: { id: 'demo' } })).items).toBeInstanceOf(Array);
  });

  it('POST /api/users without a token registers a pending user without roles, who cannot log in until activated', async () => {
    const register = (body: CreateCmsUserBody) => api().call('createUser', { body }, { includeToken: false });
    let regStatus = 0;
    const reg = await api().call('createUser', { body: { email: 'Self@Example.com', password: 'self-password-0123' } }, { onResponse: (r) => void (regStatus = r.status) });
    expect(regStatus).toBe(201);
    expect(reg).toMatchObject({ email: 'self@example.com', state: 'pending', roles: [] });
    expect((await failure(register({ email: 'sneaky@example.com', password: 'self-password-0123', roles: ['admin'] }))).status).toBe(403);
    expect((await failure(logIn('self@example.com', 'self-password-0123'))).status).toBe(403);
    await api(admin).call('setUserState', { params: { id: reg.id }, body: { state: 'active' } });
    expect(await login(ts, 'self@example.com', 'self-password-0123')).toBeTruthy();
    expect((await failure(register({ email: 'self@example.com', password: 'self-password-0123' }))).status).toBe(409);
  });

  it('bad input is refused with 422 detail and nothing is stored', async () => {
    const r = await failure(api(admin).call('createUser', { body: { email: 'short@example.com', password: 'short' } }));
    expect(r.status).toBe(422);
    expect(issuesOf(r)[0]!.loc).toEqual(['body', 'password']);
    const row = await ts.server.ctx.db.selectFrom('cms_users').select('id').where('email', '=', 'short@example.com').executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('the last active admin cannot be demoted or disabled', async () => {
    const fresh = await startCmsServer(db);
    try {
      const t = await login(fresh, ADMIN.email, ADMIN.password);
      const self = cmsApi(fresh, t);
      const me = await self.call('getMe');
      expect((await failure(self.call('setUserRoles', { params: { id: me.id }, body: { roles: ['editor'] } }))).status).toBe(409);
      expect((await failure(self.call('setUserState', { params: { id: me.id }, body: { state: 'disabled' } }))).status).toBe(409);
    } finally {
      await fresh.close();
    }
  });

  it('password reset: POST /api/users/password_reset e-mails a link; PUT /api/users/password sets the password once and ends sessions', async () => {
    const u = await userWithRoles(ts, admin, 'forgetful@example.com', ['editor']);
    const before = (await readOutbox(path.join(ts.dataDir, 'outbox'))).length;
    expect(await statusOf((o) => api().call('requestPasswordReset', { body: { email: 'forgetful@example.com', cms: true } }, o))).toBe(204);
    // Unknown addresses get the same answer and no mail.
    expect(await statusOf((o) => api().call('requestPasswordReset', { body: { email: 'ghost@example.com' } }, o))).toBe(204);
    const mails = await readOutbox(path.join(ts.dataDir, 'outbox'));
    expect(mails.length).toBe(before + 1);
    const mail = mails.at(-1)!;
    expect(mail.to).toBe('forgetful@example.com');
    const token = /token=([\w-]+)/.exec(mail.text)![1]!;
    expect(mail.text).toContain('/admin/#/reset-password?token=');
    expect(await statusOf((o) => api().call('setPassword', { body: { token, new_password: 'brand-new-password-1' } }, o))).toBe(204);
    expect((await failure(api(u.token).call('getMe'))).status).toBe(401);
    expect(await login(ts, 'forgetful@example.com', 'brand-new-password-1')).toBeTruthy();
    expect((await failure(api().call('setPassword', { body: { token, new_password: 'another-password-22' } }))).status).toBe(422);
  });

  it('logout revokes the token', async () => {
    const t = await login(ts, ADMIN.email, ADMIN.password);
    expect(await statusOf((o) => api(t).call('logout', {}, o))).toBe(204);
    expect((await failure(api(t).call('getMe'))).status).toBe(401);
  });
});

describe('CMS login rate limit and first-admin bootstrap', () => {
  it('login attempts are rate-limited per client (429 with detail)', async () => {
    const ts = await startCmsServer('sqlite', { CMS_LOGIN_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push(await statusOf((o) => cmsApi(ts).call('login', { body: { email: ADMIN.email, password: 'wrong-password-x' } }, o)));
      }
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses[4]).toBe(429);
      const r = await failure(cmsApi(ts).call('login', { body: { email: ADMIN.email, password: ADMIN.password } }));
      expect(r.status).toBe(429);
      expect(typeof (r.body as { detail: unknown }).detail).toBe('string');
    } finally {
      await ts.close();
    }
  });

  it.each(DB_TARGETS)('login attempts are limited per account as well: parallel guesses from many addresses share one allowance (%s)', async (db) => {
    const ts = await startCmsServer(db, { CMS_LOGIN_RATE_LIMIT: '3' });
    // The limit counts in fixed minutes: hold the server's clock so the burst stays in one.
    const held = Date.now();
    ts.server.ctx.now = () => held;
    try {
      // Eight addresses, one guess each: the per-address limit alone would let all eight through.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => postFrom(`127.0.0.${20 + i}`, `${ts.cmsUrl}/api/users/login`, { email: ADMIN.email.toUpperCase(), password: `wrong-password-${i}` })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
      expect(answers.filter((a) => a.status === 429).every((a) => typeof (a.body as { detail?: unknown }).detail === 'object')).toBe(true);
      // Another account keeps its own allowance.
      expect((await postFrom('127.0.0.40', `${ts.cmsUrl}/api/users/login`, { email: 'someone-else@example.com', password: 'wrong-password-x' })).status).toBe(401);
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
      // The printed password is for the first sign-in only: the admin must then choose their own.
      expect(rows[0]!.must_change_password).toBe(1);
      for (const guess of ['admin', 'password', 'admin@fanfare.local', 'changeme1234']) {
        expect((await failure(cmsApi(ts).call('login', { body: { email: 'admin@fanfare.local', password: guess } }))).status).toBe(401);
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
      const grants = (cmsToken: string) => new PartyClient({ baseUrl: config.publicUrl, cmsToken }).call('listGrants', { params: { id: 'demo' } });
      expect((await grants(token)).items).toBeInstanceOf(Array);
      expect((await failure(grants('not-a-token'))).status).toBe(403);
    } finally {
      await partyOnly.close();
      await full.close();
    }
  });
});
