import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_GATE_ACCESS_KEY_HEADER, type Campaign } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { postFrom } from '../../test/fromAddress.ts';
import { TOKEN_GATE_GUESSES_PER_MINUTE } from './service.ts';
import { ADMIN, cmsApi, createApp, createCampaign, detailOf, failure, issuesOf, login, startCmsServer, userWithRoles } from '../testing.ts';

describe.each(DB_TARGETS)('token gate (%s)', (db) => {
  let ts: TestServer;
  let admin: string;
  let appId: string;
  let gate: Campaign;
  let gated: Campaign;

  const check = (campaignId: string, code: string) => cmsApi(ts).call('tokenGateCheck', { params: { id: campaignId }, body: { credentials: { code } } });
  const verify = (campaignId: string, key?: string | null) =>
    cmsApi(ts).call('tokenGateVerify', { params: { id: campaignId } }, { headers: key ? { [TOKEN_GATE_ACCESS_KEY_HEADER]: key } : {} });
  const upload = (product: string, csv: string, token = admin) => cmsApi(ts, token).call('uploadAccessCodes', { params: { product_id: product }, body: csv });
  const keysOf = (campaignId: string) => cmsApi(ts, admin).call('listAccessKeys', { params: { id: campaignId } });
  /** The access key a successful check issued. */
  const keyOf = async (campaignId: string, code: string) => {
    const key = (await check(campaignId, code)).access_key;
    if (!key) throw new Error('no access key issued');
    return key;
  };

  beforeAll(async () => {
    ts = await startCmsServer(db);
    admin = await login(ts, ADMIN.email, ADMIN.password);
    appId = await createApp(ts, admin, 'gates');
    const tokenGate = { enabled: true, product_id: 'vinyl-2030' };
    gate = await createCampaign(ts, admin, { app_id: appId, name: 'Gate', slug: 'gate', is_token_gate: true, token_gate: tokenGate, ends_at: '2099-01-01T00:00:00Z' });
    gated = await createCampaign(ts, admin, { app_id: appId, name: 'Gated', slug: 'gated', token_gate: tokenGate });
    const up = await upload('vinyl-2030', 'code,max_uses\nAB-12 CD,2\nSINGLE1\n\nmany,5\n');
    expect(up).toEqual({ product_id: 'vinyl-2030', added: 3, updated: 0 });
  });
  afterAll(() => ts?.close());

  it('access codes are uploaded by an admin only (CSV); bad lines refuse the whole upload', async () => {
    const editor = await userWithRoles(ts, admin, 'ed@example.com', ['editor']);
    expect((await failure(upload('vinyl-2030', 'X1\n', editor.token))).status).toBe(403);
    const bad = await failure(upload('vinyl-2030', 'GOOD1\nBAD,zero\n'));
    expect(bad.status).toBe(422);
    expect(issuesOf(bad)[0]!.loc).toEqual(['body', 'line', 2]);
    expect((await failure(check(gate.id, 'GOOD1'))).status).toBe(403);
    const again = await upload('vinyl-2030', 'many,6\n');
    expect(again).toEqual({ product_id: 'vinyl-2030', added: 0, updated: 1 });
  });

  it('a valid code gives an access key (stored hashed) that opens the gated campaign of the same product', async () => {
    const r = await check(gate.id, 'ab-12cd');
    expect(r.has_access).toBe(true);
    const key = r.access_key!;
    expect(key.length).toBeGreaterThanOrEqual(40);
    const stored = await ts.server.ctx.db.selectFrom('cms_token_gate_keys').select('key_hash').execute();
    expect(stored.some((s) => s.key_hash === key)).toBe(false);
    expect(await verify(gated.id, key)).toEqual({ has_access: true, access_key: key });
    expect((await verify(gate.id, key)).has_access).toBe(true);
    expect(await verify(gated.id)).toEqual({ has_access: false, access_key: null });
    expect((await verify(gated.id, 'made-up-key')).has_access).toBe(false);
  });

  it('each code is usable a bounded number of times, then refused as used up', async () => {
    expect((await check(gate.id, 'SINGLE1')).has_access).toBe(true);
    const used = await failure(check(gate.id, 'SINGLE1'));
    expect(used.status).toBe(403);
    expect(detailOf(used)).toMatchObject({ type: 'TokenGateDenied', message: 'Access code already used up' });
    const wrong = await failure(check(gate.id, 'NOPE'));
    expect(wrong.status).toBe(403);
    expect(wrong.message).toBe('Access code not valid');
  });

  it('keys expire no later than the campaign end', async () => {
    const key = await keyOf(gate.id, 'MANY');
    const latest = (await keysOf(gate.id)).items.at(-1)!;
    expect(Date.parse(latest.expires_at)).toBeLessThanOrEqual(Date.parse('2099-01-01T00:00:00Z'));
    // Default TTL: 30 days.
    const realNow = ts.server.ctx.now;
    const t0 = realNow();
    ts.server.ctx.now = () => t0 + 31 * 86_400_000;
    try {
      expect((await verify(gated.id, key)).has_access).toBe(false);
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
    const k2 = await keyOf(short.id, 'MANY');
    const list = await keysOf(short.id);
    expect(Date.parse(list.items[0]!.expires_at)).toBe(Date.parse(short.ends_at!));
    ts.server.ctx.now = () => t0 + 2 * 3600_000;
    try {
      expect((await verify(gated.id, k2)).has_access).toBe(false);
      expect((await failure(check(short.id, 'MANY'))).message).toBe('The campaign has ended');
    } finally {
      ts.server.ctx.now = realNow;
    }
  });

  it('a revoked key no longer opens the gate', async () => {
    const key = await keyOf(gate.id, 'MANY');
    expect((await verify(gated.id, key)).has_access).toBe(true);
    const id = (await keysOf(gate.id)).items.at(-1)!.id;
    await cmsApi(ts, admin).call('revokeAccessKey', { params: { id: gate.id, key_id: id } });
    expect((await verify(gated.id, key)).has_access).toBe(false);
    expect((await failure(cmsApi(ts, admin).call('revokeAccessKey', { params: { id: gate.id, key_id: 'missing' } }))).status).toBe(404);
  });

  it('has_access is true when the gate is disabled or has no product; keys of another product do not open it', async () => {
    const open = await createCampaign(ts, admin, { app_id: appId, name: 'Open', slug: 'open' });
    expect(await verify(open.id)).toEqual({ has_access: true, access_key: null });
    const noProduct = await createCampaign(ts, admin, { app_id: appId, name: 'NP', slug: 'np', token_gate: { enabled: true, product_id: null } });
    expect((await verify(noProduct.id)).has_access).toBe(true);
    expect(await check(noProduct.id, 'anything')).toEqual({ has_access: true, access_key: null });
    await upload('other-product', 'OTHER1\n');
    const other = await createCampaign(ts, admin, { app_id: appId, name: 'Other', slug: 'other', token_gate: { enabled: true, product_id: 'other-product' } });
    const key = await keyOf(other.id, 'OTHER1');
    expect((await verify(gated.id, key)).has_access).toBe(false);
    expect((await failure(check(gate.id, ''))).status).toBe(422);
  });
  it('access code guesses count per product and address across campaigns: two campaigns of one product share TOKEN_GATE_GUESSES_PER_MINUTE, in parallel', async () => {
    const tokenGate = { enabled: true, product_id: 'shared-product' };
    const one = await createCampaign(ts, admin, { app_id: appId, name: 'Shared one', slug: 'shared-one', is_token_gate: true, token_gate: tokenGate });
    const two = await createCampaign(ts, admin, { app_id: appId, name: 'Shared two', slug: 'shared-two', is_token_gate: true, token_gate: tokenGate });
    // The limit counts in fixed minutes: hold the server's clock so the burst stays in one.
    const realNow = ts.server.ctx.now;
    const held = realNow();
    ts.server.ctx.now = () => held;
    const n = TOKEN_GATE_GUESSES_PER_MINUTE + 4;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => postFrom('127.0.0.60', `${ts.cmsUrl}/api/campaigns/${(i % 2 ? one : two).id}/token_gate/provider_check`, { credentials: { code: `GUESS-${i}` } })),
    ).finally(() => {
      ts.server.ctx.now = realNow;
    });
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([...Array.from({ length: TOKEN_GATE_GUESSES_PER_MINUTE }, () => 403), ...Array.from({ length: 4 }, () => 429)]);
    // Another address guessing the same product keeps its own allowance.
    expect((await postFrom('127.0.0.61', `${ts.cmsUrl}/api/campaigns/${one.id}/token_gate/provider_check`, { credentials: { code: 'GUESS-X' } })).status).toBe(403);
  });
});
