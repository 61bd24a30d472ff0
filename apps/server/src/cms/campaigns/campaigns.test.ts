import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_LOCKED_ERROR, JSON_LIMITS, type CloneCampaignBody, type CreateCampaignBody, type PatchCampaignBody } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, detailOf, failure, login, rawCall, startCmsServer, statusOf, userWithRoles } from '../testing.ts';

describe.each(DB_TARGETS)('CMS apps and campaigns (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let editorA: string;
  let editorB: string;
  let appId: string;
  const api = (token: string | null) => cmsApi(ts, token);
  const get = (token: string, id: string) => api(token).call('getCampaign', { params: { id } });
  const patch = (token: string, id: string, body: PatchCampaignBody) => api(token).call('patchCampaign', { params: { id }, body });
  const lock = (token: string, id: string) => api(token).call('lockCampaign', { params: { id } });
  const unlock = (token: string, id: string) => api(token).call('unlockCampaign', { params: { id } });
  const exists = (token: string, app: string, slug: string) => api(token).call('slugExists', { params: { app, slug } });
  const create = (token: string, body: CreateCampaignBody) => api(token).call('createCampaign', { body });

  beforeAll(async () => {
    ts = await startCmsServer(db, { CMS_LOCK_TTL_SECONDS: '60' });
    admin = await login(ts, ADMIN.email, ADMIN.password);
    editorA = (await userWithRoles(ts, admin, 'anna@example.com', ['editor'])).token;
    editorB = (await userWithRoles(ts, admin, 'ben@example.com', ['editor'])).token;
    appId = await createApp(ts, admin, 'fan-pages');
  });
  afterAll(() => ts?.close());

  it('apps: list, create (admin only), duplicate name 409, unauthenticated 401', async () => {
    expect((await failure(api(editorA).call('createApp', { body: { name: 'nope' } }))).status).toBe(403);
    expect((await failure(api(admin).call('createApp', { body: { name: 'fan-pages' } }))).status).toBe(409);
    expect((await failure(api(null).call('listApps'))).status).toBe(401);
    const list = await api(editorA).call('listApps');
    expect(list.items.map((a) => a.name)).toContain('fan-pages');
  });

  it('apps: config reload reads DATA_DIR/apps/<name>.json and refuses an invalid file', async () => {
    const dir = path.join(ts.dataDir, 'apps');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'fan-pages.json'), JSON.stringify({ theme: 'dark', i18n: { translations: [{ locale: 'en', messages: { hello: 'Hello' } }] } }));
    const r = await api(editorA).call('reloadAppConfig', { params: { id: appId } });
    expect(r.config.theme).toBe('dark');
    expect(r.config_reloaded_at).not.toBeNull();
    fs.writeFileSync(path.join(dir, 'fan-pages.json'), JSON.stringify({ i18n: { locales: [{ code: 'en', pluralForm: 'rm -rf' }] } }));
    expect((await failure(api(admin).call('reloadAppConfig', { params: { id: appId } }))).status).toBe(422);
    const after = await api(admin).call('listApps');
    expect(after.items.find((a) => a.id === appId)!.config.theme).toBe('dark');
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
    expect((await get(editorB, c.id)).name).toBe('Summer Album');
    const list = await api(admin).call('listCampaigns', { query: { app_id: appId } });
    expect(list.items.some((x) => x.id === c.id)).toBe(true);
    expect((await failure(get(admin, 'nope'))).status).toBe(404);
  });

  it('campaigns: bad input is refused (422) and never stored; a taken slug is 409', async () => {
    expect((await failure(create(editorA, { app_id: appId, name: 'X', slug: 'Not A Slug' }))).status).toBe(422);
    const times = await failure(create(editorA, { app_id: appId, name: 'X', slug: 'bad-times', starts_at: '2030-02-01T00:00:00Z', ends_at: '2030-01-01T00:00:00Z' }));
    expect(times.status).toBe(422);
    expect((await failure(create(editorA, { app_id: 'missing', name: 'X', slug: 'no-app' }))).status).toBe(422);
    expect(await exists(editorA, 'fan-pages', 'bad-times')).toEqual({ exists: false });
    await createCampaign(ts, editorA, { app_id: appId, name: 'Taken', slug: 'taken' });
    const dup = await failure(create(editorA, { app_id: appId, name: 'Again', slug: 'taken' }));
    expect(dup.status).toBe(409);
    expect(detailOf(dup).fields).toEqual(['slug']);
  });

  it('free-form JSON is bounded: data, i18n, tag_manager and meta_tags past JSON_LIMITS or with a 1 MB key answer 422 and store nothing', async () => {
    const c = await createCampaign(ts, admin, { app_id: appId, name: 'Bounded', slug: 'bounded' });
    const huge = 'k'.repeat(1024 * 1024);
    // Raw: the typed client would refuse these bodies before sending them.
    const patchRaw = (body: unknown) => rawCall(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: admin, body });
    const refused = [
      { data: { [huge]: 1 } },
      { data: { notes: 'x'.repeat(JSON_LIMITS.campaignData) } },
      { i18n: { locales: [{ code: `en-${'abcdefgh-'.repeat(100_000)}x1`, pluralForm: 'nplurals=2; plural=(n != 1);' }], translations: [] } },
      { i18n: { translations: [{ locale: 'en', messages: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`key.${i}`, 'x'.repeat(9_000)])) }] } },
      { tag_manager: { artist: 'a', [huge]: 'b' } },
      { meta_tags: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`tag${i}`, 'x'.repeat(2_000)])) },
    ];
    for (const body of refused) {
      const res = await rawCall(ts, 'POST', `/api/campaigns/${c.id}/patch`, { token: admin, body });
      // tag_manager keeps only its known keys: an unknown key is dropped, never stored.
      if ('tag_manager' in body && res.status === 200) continue;
      expect(res.status, Object.keys(body).join()).toBe(422);
    }
    const stored = await get(admin, c.id);
    expect(JSON.stringify(stored).length).toBeLessThan(64 * 1024);
    // Within the bounds, the same fields are stored.
    expect((await patchRaw({ data: { notes: 'x'.repeat(JSON_LIMITS.campaignData - 1024) } })).status).toBe(200);
  });

  it('slug exists per app, by app name or id', async () => {
    await createCampaign(ts, editorA, { app_id: appId, name: 'Exists', slug: 'exists-check' });
    expect(await exists(editorA, 'fan-pages', 'exists-check')).toEqual({ exists: true });
    expect(await exists(editorA, appId, 'exists-check')).toEqual({ exists: true });
    expect(await exists(editorA, 'fan-pages', 'other-slug')).toEqual({ exists: false });
    const otherApp = await createApp(ts, admin, 'other-app');
    expect(await exists(editorA, otherApp, 'exists-check')).toEqual({ exists: false });
  });

  it('patch changes only the given fields', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Patch Me', slug: 'patch-me', wp_url: 'https://label.example/p' });
    const r = await patch(editorB, c.id, { name: 'Patched', test: true });
    expect(r).toMatchObject({ name: 'Patched', test: true, slug: 'patch-me', wp_url: 'https://label.example/p' });
    // An unknown service (deliberately outside the type) is refused.
    expect((await failure(patch(editorB, c.id, { enabled_services: ['napster'] } as unknown as PatchCampaignBody))).status).toBe(422);
    expect((await get(editorB, c.id)).enabled_services).toEqual(['spotify', 'apple']);
  });

  it('clone copies the fields under a free slug with parent_id set', async () => {
    const c = await createCampaign(ts, editorA, {
      app_id: appId,
      name: 'Original',
      slug: 'original',
      newsletters: [{ id: 'nl-1', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab1', form_id: 'f1' } } }],
    });
    const clone = (body?: CloneCampaignBody) => api(editorA).call('cloneCampaign', { params: { id: c.id }, body });
    let status = 0;
    const a = await api(editorA).call('cloneCampaign', { params: { id: c.id } }, { onResponse: (res) => void (status = res.status) });
    expect(status).toBe(201);
    expect(a).toMatchObject({ name: 'Original (copy)', slug: 'original-copy', parent_id: c.id, newsletters: c.newsletters });
    expect(a.id).not.toBe(c.id);
    expect((await clone({ name: 'Second' })).slug).toBe('original-copy-2');
    expect((await failure(clone({ slug: 'original' }))).status).toBe(409);
  });

  it('locks: the holder is named; writes by anyone else are refused with CampaignLockedError; release frees it', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Locked', slug: 'locked' });
    const held = await lock(editorA, c.id);
    expect(held.user_email).toBe('anna@example.com');
    expect(Date.parse(held.expires_at) - Date.parse(held.locked_at)).toBe(60_000);
    expect((await get(editorB, c.id)).lock!.user_email).toBe('anna@example.com');

    const steal = await failure(lock(editorB, c.id));
    expect(steal.status).toBe(409);
    expect(detailOf(steal)).toMatchObject({ type: CAMPAIGN_LOCKED_ERROR, holder: { email: 'anna@example.com' } });
    const write = await failure(patch(editorB, c.id, { name: 'Sneaky' }));
    expect(write.status).toBe(409);
    expect(write.message).toContain('anna@example.com');
    expect((await failure(api(admin).call('deleteCampaign', { params: { id: c.id } }))).status).toBe(409);
    expect((await failure(unlock(editorB, c.id))).status).toBe(409);

    // The holder writes and renews.
    expect((await patch(editorA, c.id, { name: 'Mine' })).name).toBe('Mine');
    expect((await lock(editorA, c.id)).user_email).toBe('anna@example.com');
    expect(await statusOf((o) => api(editorA).call('unlockCampaign', { params: { id: c.id } }, o))).toBe(204);
    expect((await patch(editorB, c.id, { name: 'Now B' })).name).toBe('Now B');
  });

  it('locks expire: after the TTL another user may take the lock and write', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Expiring', slug: 'expiring' });
    await lock(editorA, c.id);
    expect((await failure(patch(editorB, c.id, { name: 'B' }))).status).toBe(409);
    const realNow = ts.server.ctx.now;
    const start = realNow();
    ts.server.ctx.now = () => start + 61_000;
    try {
      expect((await get(editorB, c.id)).lock).toBeNull();
      expect((await patch(editorB, c.id, { name: 'B' })).name).toBe('B');
      expect((await lock(editorB, c.id)).user_email).toBe('ben@example.com');
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it('an admin may break a lock; only an admin may delete a campaign', async () => {
    const c = await createCampaign(ts, editorA, { app_id: appId, name: 'Delete me', slug: 'delete-me' });
    await lock(editorA, c.id);
    expect(await statusOf((o) => api(admin).call('unlockCampaign', { params: { id: c.id } }, o))).toBe(204);
    expect((await failure(api(editorA).call('deleteCampaign', { params: { id: c.id } }))).status).toBe(403);
    expect(await statusOf((o) => api(admin).call('deleteCampaign', { params: { id: c.id } }, o))).toBe(204);
    expect((await failure(get(admin, c.id))).status).toBe(404);
  });
});
