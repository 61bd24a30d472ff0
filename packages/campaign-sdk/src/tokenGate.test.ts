import { describe, expect, it, vi } from 'vitest';
import { storageKeys } from './storage.ts';
import { campaignFixture, fakeApi, fakeEnv } from './test/fakes.ts';
import { TokenGate } from './tokenGate.ts';
import { ApiError } from './api.ts';

const keys = storageKeys('c1');
const PAGE = 'https://cms.fanfare.example/c/fan-pages/gated';
const gated = { token_gate: { enabled: true, product_id: 'vinyl-1' }, token_gate_url: 'https://cms.fanfare.example/c/fan-pages/gate' };

function setup(o: { href?: string; stored?: string; valid?: string[]; campaign?: Parameters<typeof campaignFixture>[0] } = {}) {
  const f = fakeEnv({ href: o.href ?? PAGE });
  if (o.stored) f.local.setItem(keys.tokenGateAccess, JSON.stringify(o.stored));
  const verify = vi.fn(async (_id: string, key: string) => ({ has_access: (o.valid ?? []).includes(key), access_key: null }));
  const gate = new TokenGate(f.env, fakeApi({ verifyTokenGate: verify }), campaignFixture(o.campaign ?? gated), keys);
  return { ...f, gate, verify };
}

describe('token gate', () => {
  it('campaign spec §4: has_access is true when the gate is disabled or has no product', async () => {
    const off = setup({ campaign: { token_gate: { enabled: false, product_id: 'p' } } });
    await expect(off.gate.check()).resolves.toEqual({ has_access: true, access_key: null });
    const noProduct = setup({ campaign: { token_gate: { enabled: true, product_id: null } } });
    await expect(noProduct.gate.check()).resolves.toMatchObject({ has_access: true });
    expect(off.verify).not.toHaveBeenCalled();
  });

  it('campaign spec §4: a key from token_gate_access_key in the URL is verified and stored if valid', async () => {
    const { gate, local, verify, href } = setup({ href: `${PAGE}?token_gate_access_key=good&x=1`, valid: ['good'] });
    await expect(gate.check()).resolves.toEqual({ has_access: true, access_key: 'good' });
    expect(verify).toHaveBeenCalledWith('c1', 'good');
    expect(JSON.parse(local.getItem(keys.tokenGateAccess)!)).toBe('good');
    expect(href()).toBe(`${PAGE}?x=1`);
  });

  it('campaign spec §4: an invalid key from the URL removes the stored one', async () => {
    const { gate, local } = setup({ href: `${PAGE}?token_gate_access_key=bad`, stored: 'old', valid: ['old'] });
    await expect(gate.check()).resolves.toEqual({ has_access: false, access_key: null });
    expect(local.getItem(keys.tokenGateAccess)).toBeNull();
  });

  it('campaign spec §4: without a key in the URL the stored key is verified', async () => {
    const ok = setup({ stored: 'kept', valid: ['kept'] });
    await expect(ok.gate.check()).resolves.toEqual({ has_access: true, access_key: 'kept' });
    const none = setup();
    await expect(none.gate.check()).resolves.toEqual({ has_access: false, access_key: null });
    expect(none.verify).not.toHaveBeenCalled();
  });

  it('campaign spec §4: a state-change event is dispatched', async () => {
    const { gate, dispatched } = setup({ stored: 'kept', valid: ['kept'] });
    const changes: unknown[] = [];
    gate.events.on('change', (r) => changes.push(r));
    await gate.check();
    expect(changes).toEqual([{ has_access: true, access_key: 'kept' }]);
    expect(dispatched).toEqual([{ type: 'fanfare:token-gate-state', detail: { has_access: true, access_key: 'kept' } }]);
  });

  it('campaign spec §4: blocked on a gated page redirects to the gate URL', async () => {
    const { gate, assigned } = setup();
    await gate.check();
    expect(assigned).toEqual(['https://cms.fanfare.example/c/fan-pages/gate']);
  });

  it('campaign spec §4: access granted on the gate page redirects to the gated campaign URL (with the key)', async () => {
    const { gate, assigned } = setup({
      href: 'https://cms.fanfare.example/c/fan-pages/gate?token_gate_access_key=good',
      valid: ['good'],
      campaign: { ...gated, is_token_gate: true, token_gate_url: null, token_gated_campaign_url: 'https://cms.fanfare.example/c/fan-pages/gated' },
    });
    await gate.check();
    expect(assigned).toEqual(['https://cms.fanfare.example/c/fan-pages/gated?token_gate_access_key=good']);
  });

  it('inside the editor the preview never redirects (it must stay on the page being edited)', async () => {
    const f = fakeEnv({ href: PAGE });
    const gate = new TokenGate(f.env, fakeApi(), campaignFixture(gated), keys, () => false);
    await expect(gate.check()).resolves.toMatchObject({ has_access: false });
    expect(f.assigned).toEqual([]);
  });

  it('campaign spec §4: no redirect when blocked on the gate page itself', async () => {
    const { gate, assigned } = setup({ campaign: { ...gated, is_token_gate: true } });
    await gate.check();
    expect(assigned).toEqual([]);
  });

  it('campaign spec §7: an access code checked with provider_check stores the issued key', async () => {
    const f = fakeEnv({ href: PAGE });
    const api = fakeApi({
      checkTokenGate: vi.fn(async () => ({ has_access: true, access_key: 'issued' })),
      verifyTokenGate: vi.fn(async (_: string, key: string) => ({ has_access: key === 'issued', access_key: null })),
    });
    const gate = new TokenGate(f.env, api, campaignFixture(gated), keys);
    await expect(gate.submitCode('CODE-1')).resolves.toEqual({ has_access: true, access_key: 'issued' });
    expect(JSON.parse(f.local.getItem(keys.tokenGateAccess)!)).toBe('issued');
  });

  it('campaign spec §4/§7: a granted code is announced (state-change event) and the gate page redirects with the key', async () => {
    const f = fakeEnv({ href: 'https://cms.fanfare.example/c/fan-pages/gate' });
    const api = fakeApi({ checkTokenGate: vi.fn(async () => ({ has_access: true, access_key: 'issued' })), verifyTokenGate: vi.fn(async () => ({ has_access: false, access_key: null })) });
    // The gate page's own gate is open (no product): a re-check would lose the issued key.
    const gate = new TokenGate(f.env, api, campaignFixture({ token_gate: { enabled: false, product_id: null }, is_token_gate: true, token_gated_campaign_url: '/c/fan-pages/gated' }), keys);
    const changes: unknown[] = [];
    gate.events.on('change', (r) => changes.push(r));
    await expect(gate.submitCode('CODE-1')).resolves.toEqual({ has_access: true, access_key: 'issued' });
    expect(changes).toEqual([{ has_access: true, access_key: 'issued' }]);
    expect(f.dispatched).toContainEqual({ type: 'fanfare:token-gate-state', detail: { has_access: true, access_key: 'issued' } });
    expect(f.assigned).toEqual(['https://cms.fanfare.example/c/fan-pages/gated?token_gate_access_key=issued']);
    expect(gate.result).toEqual({ has_access: true, access_key: 'issued' });
  });

  it("campaign spec §8: a refused code rejects with the server's detail and keeps the current access", async () => {
    const f = fakeEnv({ href: PAGE });
    const refusal = new ApiError(403, { detail: { message: 'Access code already used up' } }, '/provider_check');
    const api = fakeApi({ checkTokenGate: vi.fn(async () => Promise.reject(refusal)) });
    const gate = new TokenGate(f.env, api, campaignFixture({ ...gated, is_token_gate: true }), keys);
    await expect(gate.submitCode('USED')).rejects.toThrow('Access code already used up');
    expect(gate.result).toBeNull();
    expect(f.assigned).toEqual([]);
  });

  it('campaign spec §4: a stored key must be a non-empty string of at most 500 characters to be verified', async () => {
    for (const stored of ['', 'k'.repeat(501)]) {
      const f = fakeEnv({ href: PAGE });
      f.local.setItem(keys.tokenGateAccess, JSON.stringify(stored));
      const verify = vi.fn(async () => ({ has_access: true, access_key: null }));
      const gate = new TokenGate(f.env, fakeApi({ verifyTokenGate: verify }), campaignFixture(gated), keys);
      await expect(gate.check()).resolves.toMatchObject({ has_access: false });
      expect(verify).not.toHaveBeenCalled();
    }
    for (const stored of [42, { key: 'x' }]) {
      const f = fakeEnv({ href: PAGE });
      f.local.setItem(keys.tokenGateAccess, JSON.stringify(stored));
      const verify = vi.fn(async () => ({ has_access: true, access_key: null }));
      const gate = new TokenGate(f.env, fakeApi({ verifyTokenGate: verify }), campaignFixture(gated), keys);
      await expect(gate.check()).resolves.toMatchObject({ has_access: false });
      expect(verify).not.toHaveBeenCalled();
    }
    const longest = setup({ stored: 'k'.repeat(500), valid: ['k'.repeat(500)] });
    await expect(longest.gate.check()).resolves.toMatchObject({ has_access: true });
  });

  it('campaign spec §4: a stored key the backend refuses is forgotten; one it accepts is kept', async () => {
    const refused = setup({ stored: 'old', valid: [] });
    await expect(refused.gate.check()).resolves.toEqual({ has_access: false, access_key: null });
    expect(refused.local.getItem(keys.tokenGateAccess)).toBeNull();
    const accepted = setup({ stored: 'kept', valid: ['kept'] });
    await accepted.gate.check();
    expect(JSON.parse(accepted.local.getItem(keys.tokenGateAccess)!)).toBe('kept');
  });

  it('campaign spec §4/§8: a verification that fails (network, server) counts as no access, with a warning', async () => {
    const f = fakeEnv({ href: PAGE });
    f.local.setItem(keys.tokenGateAccess, JSON.stringify('kept'));
    const failure = new Error('offline');
    const gate = new TokenGate(f.env, fakeApi({ verifyTokenGate: vi.fn(async () => Promise.reject(failure)) }), campaignFixture(gated), keys, () => false);
    await expect(gate.check()).resolves.toEqual({ has_access: false, access_key: null });
    expect(f.logs).toEqual([{ level: 'warn', args: ['Token gate verification failed', failure] }]);
  });

  it('campaign spec §7: a code answered without access, or granted without a key, stores nothing; only a grant is announced', async () => {
    const f = fakeEnv({ href: PAGE });
    const answers = [{ has_access: false, access_key: null }, { has_access: true, access_key: null }];
    const api = fakeApi({ checkTokenGate: vi.fn(async () => answers.shift()) });
    const gate = new TokenGate(f.env, api, campaignFixture({ ...gated, is_token_gate: true }), keys, () => false);
    const changes: unknown[] = [];
    gate.events.on('change', (r) => changes.push(r));
    await expect(gate.submitCode('NOPE')).resolves.toEqual({ has_access: false, access_key: null });
    expect(gate.result).toBeNull();
    expect(changes).toEqual([]);
    await expect(gate.submitCode('KEYLESS')).resolves.toEqual({ has_access: true, access_key: null });
    expect(f.local.getItem(keys.tokenGateAccess)).toBeNull();
    expect(changes).toEqual([{ has_access: true, access_key: null }]);
  });

  it('campaign spec §4: only the gate page redirects to the gated campaign, and only with access', async () => {
    const target = 'https://cms.fanfare.example/c/fan-pages/gated';
    const blockedOnGate = setup({ campaign: { ...gated, is_token_gate: true, token_gate_url: null, token_gated_campaign_url: target } });
    await blockedOnGate.gate.check();
    expect(blockedOnGate.assigned).toEqual([]);
    const openOnPage = setup({ stored: 'kept', valid: ['kept'], campaign: { ...gated, is_token_gate: false, token_gate_url: null, token_gated_campaign_url: target } });
    await openOnPage.gate.check();
    expect(openOnPage.assigned).toEqual([]);
  });

  it('teardown: destroy drops the change listeners', async () => {
    const { gate } = setup({ stored: 'kept', valid: ['kept'] });
    const changes: unknown[] = [];
    gate.events.on('change', (r) => changes.push(r));
    gate.destroy();
    await gate.check();
    expect(changes).toEqual([]);
  });
});
