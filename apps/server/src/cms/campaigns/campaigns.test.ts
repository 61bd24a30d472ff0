import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_LOCKED_ERROR } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, call, createApp, createCampaign, login, startCmsServer, userWithRoles } from '../testing.ts';

describe.each(DB_TARGETS)('CMS apps and campaigns (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let editorA: string;
  let editorB: string;
  let appId: string;

  beforeAll(async () => {
    ts = await startCmsServer(db, { CMS_LOCK_TTL_SECONDS: '60' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    editorA = (await userWithRoles(ts, admin, 'anna@example.com', ['editor'])).token;
    editorB = (await userWithRoles(ts, admin, 'ben@example.com', ['editor'])).token;
    appId = await createApp(ts, admin, 'fan-pages');
  });
  afterAll(() => ts?.close());

  it('apps: list, create (admin only), duplicate name 409, unauthenticated 401', async () => {
    expect((await call(ts, 'POST', '/api/apps', { token: editorA, body: { name: 'nope' } })).status).toBe(403);
    expect((await call(ts, 'POST', '/api/apps', { token: admin, body: { name: 'fan-pages' } })).status).toBe(409);
    expect((await call(ts, 'GET', '/api/apps')).status).toBe(401);
    const list = await call(ts, 'GET', '/api/apps', { token: editorA });
    expect(list.body.items.map((a: { name: string }) => a.name)).toContain('fan-pages');
  });

  it('apps: config reload reads DATA_DIR/apps/<name>.json and refuses an invalid file', async () => {
    const dir = path.join(ts.dataDir, 'apps');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'fan-pages.json'), JSON.stringify({ theme: 'dark', i18n: { translations: [{ locale: 'en', messages: { hello: 'Hello' } }] } }));
    const r = await call(ts, 'POST', `/api/apps/${appId}/config/reload`, { token: editorA });
    expect(r.status).toBe(200);
    expect(r.body.config.theme).toBe('dark');
    expect(r.body.config_reloaded_at).not.toBeNull();
    fs.writeFileSync(path.join(dir, 'fan-pages.json'), JSON.stringify({ i18n: { locales: [{ code: 'en', pluralForm: 'rm -rf' }] } }));
    const bad = await call(ts, 'POST', `/api/apps/${appId}/config/reload`, { token: admin });
    expect(bad.status).toBe(422);
    const after = await call(ts, 'GET', '/api/apps', { token: admin });
    expect(after.body.items.find((a: { id: string }) => a.id === appId).config.theme).toBe('dark');
    fs.rmSync(path.join(dir, 'fan-pages.json'));
  });

  it('campaigns: create, get, list, with the spec fields and defaults', async () => {
    const c = await createCampaign(ts, editorA, {
      app_id: appId,
      name: 'Summer Album',
      slug: 'summer-album',
      tag_manager: { artist: 'The Demo Band', genre: 'pop', division: 'labels', party_id: 'demo' },
      enabled_services: ['spotify'],
      starts_at: '2030-01-01T10:00:00Z',
      ends_at: '2030-02-01T10:00:00Z',
      data: { participating_countries: ['DE', 'AT'] },
    });
    expect(c).toMatchObject({
      app: 'fan-pages',
      app_id: appId,
      slug: 'summer-album',
      test: false,
      newsletters: [],
      enabled_services: ['spotify'],
      token_gate: { enabled: false, product_id: null },
      is_token_gate: false,
      parent_id: null,
      lock: null,
      data: { participating_countries: ['DE', 'AT'] },
      starts_at: '2030-01-01T10:00:00.000Z',
    });
    expect(c.url).toBe(`${ts.cmsUrl}/c/fan-pages/summer-album`);
    expect((await call(ts, 'GET', `/api/campaigns/${c.id}`, { token: editorB })).body.name).toBe('Summer Album');
    const list = await call(ts, 'GET', `/api/campaigns?app_id=${appId}`, { token: admin });
    expect(list.body.items.some((x: { id: string }) => x.id === c.id)).toBe(true);
    expect((await call(ts, 'GET', '/api/campaigns/nope', { token: admin })).status).toBe(404);
  });

  it('campaigns: bad input is refused (422) and never stored; a taken slug is 409', async () => {
    const bad = await call(ts, 'POST', '/api/campaigns', { token: editorA, body: { app_id: appId, name: 'X', slug: 'Not A Slug' } });
    expect(bad.status).toBe(422);
    const times = await call(ts, 'POST', '/api/campaigns', {
      token: editorA,
      body: { app_id: appId, name: 'X', slug: 'bad-times', starts_at: '2030-02-01T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' },
    });
    expect(times.status).toBe(422);
    const noApp = await call(ts, 'POST', '/api/campaigns', { token: editorA, body: { app_id: 'missing', name: 'X', slug: 'no-app' } });
    expect(noApp.status).toBe(422);
    const exists = await call(ts, 'GET', '/api/campaigns/fan-pages/bad-times/exists', { token: editorA });
    expect(exists.body).toEqual({ exists: false });
    await createCampaign(ts, editorA, { app_id: appId, name: 'Taken', slug: 'taken' });
    const dup = await call(ts, 'POST', '/api/campaigns', { token: editorA, body: { app_id: appId, name: 'Again', slug: 'taken' } });
    expect(dup.status).toBe(409);
    expect(dup.body.detail.fields).toEqual(['slug']);
  });

  it('slug exists per app, by app name or id', async () => {
    await createCampaign(ts, editorA, { app_id: appId, name: 'Exists', slug: 'exists-check' });
    expect((await call(ts, 'GET', '/api/campaigns/fan-pages/exists-check/exists', { token: editorA })).body).toEqual({ exists: true });
    expect((await call(ts, 'GET', `/api/campaigns/${appId}/exists-check/exists`, { token: editorA })).body).toEqual({ exists: true });
    expect((await call(ts, 'GET', '/api/campaigns/fan-pages/other-slug/exists', { token: editorA })).body).toEqual({ exists: false });
    const otherApp = await createApp(ts, admin, 'other-app');
    expect((await call(ts, 'GET', `/api/campaigns/${otherApp}/exists-check/exists`, { token: editorA })).body).toEqual({ exists: false });
  });

  it('patch changes only the given fields', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Patch Me', slug: 'patch-me', wp_url: 'https://label.example/p' });
    const r = await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorB, body: { name: 'Patched', test: true } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Patched', test: true, slug: 'patch-me', wp_url: 'https://label.example/p' });
    const bad = await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorB, body: { enabled_services: ['napster'] } });
    expect(bad.status).toBe(422);
    expect((await call(ts, 'GET', `/api/campaigns/${c.id}`, { token: editorB })).body.enabled_services).toEqual(['spotify', 'apple']);
  });

  it('clone copies the fields under a free slug with parent_id set', async () => {
    const c = await createCampaign(ts, editorA, {
      app_id: appId,
      name: 'Original',
      slug: 'original',
      newsletters: [{ id: 'nl-1', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab1', form_id: 'f1' } } }],
    });
    const a = await call(ts, 'POST', `/api/campaigns/${c.id}/clone`, { token: editorA });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'Original (copy)', slug: 'original-copy', parent_id: c.id, newsletters: c.newsletters });
    expect(a.body.id).not.toBe(c.id);
    const b = await call(ts, 'POST', `/api/campaigns/${c.id}/clone`, { token: editorA, body: { name: 'Second' } });
    expect(b.body.slug).toBe('original-copy-2');
    const named = await call(ts, 'POST', `/api/campaigns/${c.id}/clone`, { token: editorA, body: { slug: 'original' } });
    expect(named.status).toBe(409);
  });

  it('locks: the holder is named; writes by anyone else are refused with CampaignLockedError; release frees it', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Locked', slug: 'locked' });
    const lock = await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: editorA });
    expect(lock.status).toBe(200);
    expect(lock.body.user_email).toBe('anna@example.com');
    expect(Date.parse(lock.body.expires_at) - Date.parse(lock.body.locked_at)).toBe(60_000);
    expect((await call(ts, 'GET', `/api/campaigns/${c.id}`, { token: editorB })).body.lock.user_email).toBe('anna@example.com');

    const steal = await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: editorB });
    expect(steal.status).toBe(409);
    expect(steal.body.detail).toMatchObject({ type: CAMPAIGN_LOCKED_ERROR, holder: { email: 'anna@example.com' } });
    const write = await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorB, body: { name: 'Sneaky' } });
    expect(write.status).toBe(409);
    expect(write.body.detail.message).toContain('anna@example.com');
    expect((await call(ts, 'DELETE', `/api/campaigns/${c.id}`, { token: admin })).status).toBe(409);
    expect((await call(ts, 'DELETE', `/api/campaigns/${c.id}/lock`, { token: editorB })).status).toBe(409);

    // The holder writes and renews.
    expect((await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorA, body: { name: 'Mine' } })).status).toBe(200);
    expect((await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: editorA })).status).toBe(200);
    expect((await call(ts, 'DELETE', `/api/campaigns/${c.id}/lock`, { token: editorA })).status).toBe(204);
    expect((await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorB, body: { name: 'Now B' } })).status).toBe(200);
  });

  it('locks expire: after the TTL another user may take the lock and write', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Expiring', slug: 'expiring' });
    expect((await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: editorA })).status).toBe(200);
    expect((await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorB, body: { name: 'B' } })).status).toBe(409);
    const realNow = ts.server.ctx.now;
    const start = realNow();
    ts.server.ctx.now = () => start + 61_000;
    try {
      expect((await call(ts, 'GET', `/api/campaigns/${c.id}`, { token: editorB })).body.lock).toBeNull();
      expect((await call(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: editorB, body: { name: 'B' } })).status).toBe(200);
      const taken = await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: editorB });
      expect(taken.body.user_email).toBe('ben@example.com');
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it('an admin may break a lock; only an admin may delete a campaign', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Delete me', slug: 'delete-me' });
    await call(ts, 'PUT', `/api/campaigns/${c.id}/lock`, { token: editorA });
    expect((await call(ts, 'DELETE', `/api/campaigns/${c.id}/lock`, { token: admin })).status).toBe(204);
    expect((await call(ts, 'DELETE', `/api/campaigns/${c.id}`, { token: editorA })).status).toBe(403);
    expect((await call(ts, 'DELETE', `/api/campaigns/${c.id}`, { token: admin })).status).toBe(204);
    expect((await call(ts, 'GET', `/api/campaigns/${c.id}`, { token: admin })).status).toBe(404);
  });
});
