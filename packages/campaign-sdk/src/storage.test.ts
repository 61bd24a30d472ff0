import { describe, expect, it } from 'vitest';
import type { StorageLike } from './env.ts';
import { NEWSLETTER_BANNER_SHOWN_KEY, readJson, removeKey, storageKeys, writeJson } from './storage.ts';
import { blockedStorage as blocked } from './test/fakes.ts';

const isNumber = (v: unknown): v is number => typeof v === 'number';

function memory(): StorageLike & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

describe('campaign storage', () => {
  it('campaign spec §9: local storage keys per campaign (account token, locale, token gate access, tracking params)', () => {
    expect(storageKeys('c7')).toEqual({
      accountToken: 'fanfare:c7:account-token',
      locale: 'fanfare:c7:locale',
      tokenGateAccess: 'fanfare:c7:token-gate-access',
      trackingParams: 'fanfare:c7:tracking-params',
    });
    expect(NEWSLETTER_BANNER_SHOWN_KEY).toBe('fanfare:newsletter-banner-shown');
  });

  it('values are JSON; missing, unparsable or rejected values read as absent', () => {
    const s = memory();
    writeJson(s, 'k', 42);
    expect(s.data.get('k')).toBe('42');
    expect(readJson(s, 'k', isNumber)).toBe(42);
    expect(readJson(s, 'missing', isNumber)).toBeNull();
    s.setItem('k', '"text"');
    expect(readJson(s, 'k', isNumber)).toBeNull();
    s.setItem('k', '{broken');
    expect(readJson(s, 'k', isNumber)).toBeNull();
    // A stored JSON null is a value the check refuses, not an error.
    s.setItem('k', 'null');
    expect(readJson(s, 'k', (v): v is null => v === null)).toBeNull();
    s.setItem('k', '0');
    expect(readJson(s, 'k', isNumber)).toBe(0);
    removeKey(s, 'k');
    expect(s.data.has('k')).toBe(false);
  });

  it('blocked storage never throws: reads are absent, writes and removals do nothing', () => {
    expect(readJson(blocked, 'k', isNumber)).toBeNull();
    expect(() => writeJson(blocked, 'k', 1)).not.toThrow();
    expect(() => removeKey(blocked, 'k')).not.toThrow();
  });
});
