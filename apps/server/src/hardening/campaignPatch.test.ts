/** Issue 10: an editor saves the campaign exactly as GET returned it; unknown fields still fail. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { ADMIN, call, createApp, createCampaign, login, startCmsServer } from '../cms/testing.ts';

describe.each(DB_TARGETS)('issue 10 campaign patch on %s', (db) => {
  let t: TestServer;
  let admin: string;
  let campaignId: string;
  beforeAll(async () => {
    t = await startCmsServer(db);
    admin = await login(t, ADMIN.email, ADMIN.password);
    const appId = await createApp(t, admin, 'patch-app');
    campaignId = (await createCampaign(t, admin, { app_id: appId, name: 'Patch me', slug: 'patch-me' })).id;
  });
  afterAll(async () => t?.close());

  it('issue 10: POST /api/campaigns/{id}/patch accepts the campaign as GET returned it and ignores its read-only fields', async () => {
    const loaded = await call(t, 'GET', `/api/campaigns/${campaignId}`, { token: admin });
    expect(loaded.status).toBe(200);
    expect(loaded.body).toHaveProperty('lock');
    const saved = await call(t, 'POST', `/api/campaigns/${campaignId}/patch`, {
      token: admin,
      body: { ...loaded.body, name: 'Patched', id: 'other-id', url: 'https://evil.example/', created_at: '2000-01-01T00:00:00Z' },
    });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.name).toBe('Patched');
    expect(saved.body.id).toBe(campaignId);
    expect(saved.body.created_at).toBe(loaded.body.created_at);
    expect(saved.body.url).toBe(loaded.body.url);
  });

  it('issue 10: a patch with an unknown field is still refused with 422', async () => {
    const r = await call(t, 'POST', `/api/campaigns/${campaignId}/patch`, { token: admin, body: { name: 'x', not_a_field: 1 } });
    expect(r.status).toBe(422);
    expect(r.body.detail).toBeTruthy();
  });
});
