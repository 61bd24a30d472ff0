/** An editor saves the campaign exactly as GET returned it; unknown fields still fail. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, createApp, createCampaign, errorDetail, login, rawCall, startCmsServer } from '../testing.ts';

describe.each(DB_TARGETS)('campaign spec §7 campaign patch on %s', (db) => {
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

  it('campaign spec §7: POST /api/campaigns/{id}/patch accepts the campaign as GET returned it and ignores its read-only fields', async () => {
    const cms = cmsApi(t, admin);
    const params = { id: campaignId };
    const loaded = await cms.call('getCampaign', { params });
    expect(loaded).toHaveProperty('lock');
    // The whole campaign as GET returned it, read-only fields changed on top: they are ignored.
    const saved = await cms.call('patchCampaign', {
      params,
      body: { ...loaded, name: 'Patched', id: 'other-id', url: 'https://evil.example/', created_at: '2000-01-01T00:00:00Z' },
    });
    expect(saved.name).toBe('Patched');
    expect(saved.id).toBe(campaignId);
    expect(saved.created_at).toBe(loaded.created_at);
    expect(saved.url).toBe(loaded.url);
  });

  it('a patch with an unknown field is still refused with 422', async () => {
    // An unknown field does not type-check in the client, so it goes raw.
    const r = await rawCall(t, 'POST', `/api/campaigns/${campaignId}/patch`, { token: admin, body: { name: 'x', not_a_field: 1 } });
    expect(r.status).toBe(422);
    expect(JSON.stringify(errorDetail(r.body))).toContain('not_a_field');
  });
});
