import { storageKeys } from '@fanfare/campaign-sdk';
import { describe, expect, it, vi } from 'vitest';
import { parseStoredKey, readPartyTokenGate, tokenGateAccessStorageKey, tokenGateRedirect, type PartyTokenGate } from './tokenGate.ts';

const GATE: PartyTokenGate = { campaignId: 'c1', enabled: true, productId: 'vinyl-1', gateUrl: 'https://cms.example/c/fan-pages/gate' };

function access(keys: Record<string, string>, valid: string[]) {
  return { storedKey: (id: string) => keys[id] ?? null, verify: vi.fn(async (_id: string, key: string) => valid.includes(key)) };
}

describe('party token gate', () => {
  it('listening-party §2: a non-admin without access goes to the gate URL', async () => {
    await expect(tokenGateRedirect(GATE, false, access({}, []))).resolves.toBe(GATE.gateUrl);
    const bad = access({ c1: 'old' }, []);
    await expect(tokenGateRedirect(GATE, false, bad)).resolves.toBe(GATE.gateUrl);
    expect(bad.verify).toHaveBeenCalledWith('c1', 'old');
  });

  it('listening-party §2: a fan whose stored key the CMS accepts stays', async () => {
    await expect(tokenGateRedirect(GATE, false, access({ c1: 'good' }, ['good']))).resolves.toBeNull();
  });

  it('listening-party §2: admins skip the token-gate redirect (no verification asked)', async () => {
    const a = access({}, []);
    await expect(tokenGateRedirect(GATE, true, a)).resolves.toBeNull();
    expect(a.verify).not.toHaveBeenCalled();
  });

  it('campaign spec §4: no redirect when the gate is off, has no product, no gate URL, or there is no campaign', async () => {
    const a = access({}, []);
    await expect(tokenGateRedirect({ ...GATE, enabled: false }, false, a)).resolves.toBeNull();
    await expect(tokenGateRedirect({ ...GATE, productId: null }, false, a)).resolves.toBeNull();
    await expect(tokenGateRedirect({ ...GATE, gateUrl: null }, false, a)).resolves.toBeNull();
    await expect(tokenGateRedirect(null, false, a)).resolves.toBeNull();
  });

  it('a failed verification counts as no access', async () => {
    const failing = { storedKey: () => 'k', verify: vi.fn(async () => Promise.reject(new Error('Network Error'))) };
    await expect(tokenGateRedirect(GATE, false, failing)).resolves.toBe(GATE.gateUrl);
  });

  it('reads the gate from the campaign configuration; the storage key is the campaign pages\' own', () => {
    expect(readPartyTokenGate({ id: 'c1', token_gate: { enabled: true, product_id: 'vinyl-1' }, token_gate_url: GATE.gateUrl })).toEqual(GATE);
    expect(readPartyTokenGate({ id: 'c1', token_gate: { enabled: false, product_id: '' }, token_gate_url: '' })).toEqual({ campaignId: 'c1', enabled: false, productId: null, gateUrl: null });
    expect(readPartyTokenGate({ token_gate: { enabled: true } })).toBeNull();
    expect(readPartyTokenGate({ id: 'c1' })).toBeNull();
    expect(readPartyTokenGate(null)).toBeNull();
    expect(tokenGateAccessStorageKey('c1')).toBe(storageKeys('c1').tokenGateAccess);
    expect(parseStoredKey('"abc"')).toBe('abc');
    expect(parseStoredKey('abc')).toBeNull();
    expect(parseStoredKey('""')).toBeNull();
    expect(parseStoredKey(null)).toBeNull();
    expect(parseStoredKey(JSON.stringify('x'.repeat(501)))).toBeNull();
  });
});

describe('party token gate: the configuration and the stored key, value by value', () => {
  it('only a true enabled flag, a non-empty product and gate URL count; an empty id or a missing gate is no gate', () => {
    expect(readPartyTokenGate({ id: 'c1', token_gate: { enabled: 'yes', product_id: 7 }, token_gate_url: 5 })).toEqual({ campaignId: 'c1', enabled: false, productId: null, gateUrl: null });
    expect(readPartyTokenGate({ id: '', token_gate: { enabled: true, product_id: 'p' } })).toBeNull();
    expect(readPartyTokenGate({ id: 'c1', token_gate: null })).toBeNull();
    expect(readPartyTokenGate({ id: 'c1', token_gate: 'on' })).toBeNull();
    expect(readPartyTokenGate({ id: 5, token_gate: { enabled: true } })).toBeNull();
    expect(readPartyTokenGate('c1')).toBeNull();
  });

  it('a stored key is a JSON string of 1 to 500 characters', () => {
    expect(parseStoredKey(JSON.stringify('k'.repeat(500)))).toBe('k'.repeat(500));
    expect(parseStoredKey(JSON.stringify('k'))).toBe('k');
    expect(parseStoredKey('123')).toBeNull();
    expect(parseStoredKey('')).toBeNull();
  });

  it('without a stored key nothing is verified; a refused key sends the fan to the gate', async () => {
    const none = access({}, []);
    await expect(tokenGateRedirect(GATE, false, none)).resolves.toBe(GATE.gateUrl);
    expect(none.verify).not.toHaveBeenCalled();
  });
});
