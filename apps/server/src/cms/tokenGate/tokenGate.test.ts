import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_GATE_ACCESS_KEY_HEADER } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, call, createApp, createCampaign, login, startCmsServer, userWithRoles } from '../testing.ts';

describe.each(DB_TARGETS)('token gate (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let appId: string;
  let gate: { id: string };
  let gated: { id: string };

  const check = (campaignId: string, code: string) =>
    call(ts, 'POST', `/api/campaigns/${campaignId}/token_gate/provider_check`, { body: { credentials: { code } } });
  const verify = (campaignId: string, key?: string | null) =>
    call(ts, 'GET', `/api/campaigns/${campaignId}/token_gate/verify_access`, { headers: key ? { [TOKEN_GATE_ACCESS_KEY_HEADER]: key } : {} });
  const upload = (product: string, csv: string, token = admin, query = '') =>
    call(ts, 'POST', `/api/token_gate/products/${product}/codes${query}`, { token, raw: csv, headers: { 'content-type': 'text/csv' } });

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    appId = await createApp(ts, admin, 'gates');
    const tokenGate = { enabled: true, product_id: 'vinyl-2030' };
    gate = await createCampaign(ts, admin, { app_id: appId, name: 'Gate', slug: 'gate', is_token_gate: true, token_gate: tokenGate, ends_at: '2099-01-01T00:00:00Z' });
    gated = await createCampaign(ts, admin, { app_id: appId, name: 'Gated', slug: 'gated', token_gate: tokenGate });
    const up = await upload('vinyl-2030', 'code,max_uses\nAB-12 CD,2\nSINGLE1\n\nmany,5\n');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ product_id: 'vinyl-2030', added: 3, updated: 0 });
  });
  afterAll(() => ts?.close());

  it('access codes are uploaded by an admin only (CSV); bad lines refuse the whole upload', async () => {
    const editor = await userWithRoles(ts, admin, 'ed@example.com', ['editor']);
    expect((await upload('vinyl-2030', 'X1\n', editor.token)).status).toBe(403);
    const bad = await upload('vinyl-2030', 'GOOD1\nBAD,zero\n');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'line', 2]);
    expect((await check(gate.id, 'GOOD1')).status).toBe(403);
    const again = await upload('vinyl-2030', 'many,6\n');
    expect(again.body).toEqual({ product_id: 'vinyl-2030', added: 0, updated: 1 });
  });

  it('a valid code gives an access key (stored hashed) that opens the gated campaign of the same product', async () => {
    const r = await check(gate.id, 'ab-12cd');
    expect(r.status).toBe(200);
    expect(r.body.has_access).toBe(true);
    const key = r.body.access_key as string;
    expect(key.length).toBeGreaterThanOrEqual(40);
    const stored = await ts.server.ctx.db.selectFrom('cms_token_gate_keys').select('key_hash').execute();
    expect(stored.some((s) => s.key_hash === key)).toBe(false);
    expect((await verify(gated.id, key)).body).toEqual({ has_access: true, access_key: key });
    expect((await verify(gate.id, key)).body.has_access).toBe(true);
    expect((await verify(gated.id)).body).toEqual({ has_access: false, access_key: null });
    expect((await verify(gated.id, 'made-up-key')).body.has_access).toBe(false);
  });

  it('each code is usable a bounded number of times, then refused as used up', async () => {
    expect((await check(gate.id, 'SINGLE1')).status).toBe(200);
    const used = await check(gate.id, 'SINGLE1');
    expect(used.status).toBe(403);
    expect(used.body.detail).toMatchObject({ type: 'TokenGateDenied', message: 'Access code already used up' });
    const wrong = await check(gate.id, 'NOPE');
    expect(wrong.status).toBe(403);
    expect(wrong.body.detail.message).toBe('Access code not valid');
  });

  it('keys expire no later than the campaign end', async () => {
    const r = await check(gate.id, 'MANY');
    const key = r.body.access_key as string;
    const keys = await call(ts, 'GET', `/api/campaigns/${gate.id}/token_gate/keys`, { token: admin });
    const latest = keys.body.items.at(-1);
    expect(Date.parse(latest.expires_at)).toBeLessThanOrEqual(Date.parse('2099-01-01T00:00:00Z'));
    // Default TTL: 30 days.
    const realNow = ts.server.ctx.now;
    const t0 = realNow();
    ts.server.ctx.now = () => t0 + 31 * 86_400_000;
    try {
      expect((await verify(gated.id, key)).body.has_access).toBe(false);
    } finally {
      ts.server.ctx.now = realNow;
    }
    // A campaign ending soon caps the key at its end.
    const short = await createCampaign(ts, admin, {
      app_id: appId,
      name: 'Short',
      slug: 'short',
      token_gate: { enabled: true, product_id: 'vinyl-2030' },
      ends_at: new Date(t0 + 3600_000).toISOString(),
    });
    const k2 = (await check(short.id, 'MANY')).body.access_key as string;
    const list = await call(ts, 'GET', `/api/campaigns/${short.id}/token_gate/keys`, { token: admin });
    expect(Date.parse(list.body.items[0].expires_at)).toBe(Date.parse(short.ends_at));
    ts.server.ctx.now = () => t0 + 2 * 3600_000;
    try {
      expect((await verify(gated.id, k2)).body.has_access).toBe(false);
      expect((await check(short.id, 'MANY')).body.detail.message).toBe('The campaign has ended');
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it('a revoked key no longer opens the gate', async () => {
    const key = (await check(gate.id, 'MANY')).body.access_key as string;
    expect((await verify(gated.id, key)).body.has_access).toBe(true);
    const keys = await call(ts, 'GET', `/api/campaigns/${gate.id}/token_gate/keys`, { token: admin });
    const id = keys.body.items.at(-1).id;
    expect((await call(ts, 'DELETE', `/api/campaigns/${gate.id}/token_gate/keys/${id}`, { token: admin })).status).toBe(204);
    expect((await verify(gated.id, key)).body.has_access).toBe(false);
    expect((await call(ts, 'DELETE', `/api/campaigns/${gate.id}/token_gate/keys/missing`, { token: admin })).status).toBe(404);
  });

  it('has_access is true when the gate is disabled or has no product; keys of another product do not open it', async () => {
    const open = await createCampaign(ts, admin, { app_id: appId, name: 'Open', slug: 'open' });
    expect((await verify(open.id)).body).toEqual({ has_access: true, access_key: null });
    const noProduct = await createCampaign(ts, admin, { app_id: appId, name: 'NP', slug: 'np', token_gate: { enabled: true, product_id: null } });
    expect((await verify(noProduct.id)).body.has_access).toBe(true);
    expect((await check(noProduct.id, 'anything')).body).toEqual({ has_access: true, access_key: null });
    await upload('other-product', 'OTHER1\n');
    const other = await createCampaign(ts, admin, { app_id: appId, name: 'Other', slug: 'other', token_gate: { enabled: true, product_id: 'other-product' } });
    const key = (await check(other.id, 'OTHER1')).body.access_key as string;
    expect((await verify(gated.id, key)).body.has_access).toBe(false);
    expect((await check(gate.id, '')).status).toBe(422);
  });
});
