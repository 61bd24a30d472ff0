import { describe, expect, it } from 'vitest';
import { localTimeIn, territoryReason } from './territoryStatus.ts';

const NOW = Date.parse('2030-03-01T12:00:00Z');
const when = (iso: string) => iso;
const row = (over: Partial<Parameters<typeof territoryReason>[0]>) => ({ country: 'GB', state: 'pending' as const, services: ['spotify' as const, 'apple' as const], release_at: '2030-03-02T00:00:00Z', checked_at: null, ...over });

describe('the Release tab’s reason per territory', () => {
  it('a territory before its time waits; after it, before the check, it is being checked', () => {
    expect(territoryReason(row({}), ['spotify', 'apple'], NOW, when)).toBe('Waiting for the release time.');
    expect(territoryReason(row({ release_at: '2030-03-01T00:00:00Z' }), ['spotify'], NOW, when)).toMatch(/being checked/);
  });

  it('an unavailable territory names the storefront that lacks the release, when it was looked at, and that the page stays in pre-release', () => {
    const text = territoryReason(row({ state: 'unavailable', services: ['apple'], release_at: '2030-03-01T00:00:00Z', checked_at: '2030-03-01T00:01:00Z' }), ['spotify', 'apple'], NOW, when);
    expect(text).toContain('Spotify lacks the release in GB');
    expect(text).toContain('2030-03-01T00:01:00Z');
    expect(text).toContain('stays in pre-release');
    expect(text).toContain('every 15 minutes');
  });

  it('a released territory names the services it is on and those hidden there', () => {
    expect(territoryReason(row({ state: 'released', services: ['spotify', 'apple'] }), ['spotify', 'apple'], NOW, when)).toBe('Out, found on Spotify and Apple Music.');
    expect(territoryReason(row({ state: 'released', services: ['spotify'] }), ['spotify', 'apple'], NOW, when)).toBe('Out, found on Spotify. Apple Music lacks it in GB: hidden on the page there.');
  });

  it('shows an instant as the wall-clock time of the territory’s zone', () => {
    expect(localTimeIn('2030-02-28T23:00:00Z', 'Europe/Berlin', 'en-GB')).toBe('1 Mar 2030, 00:00 (Europe/Berlin)');
    expect(localTimeIn('2030-03-01T00:00:00Z', null, 'en-GB')).toBe('1 Mar 2030, 00:00 (UTC)');
  });
});
