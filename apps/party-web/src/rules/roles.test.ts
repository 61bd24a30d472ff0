import { describe, expect, it } from 'vitest';
import { canStart, isHostOrAdmin } from './roles.ts';

describe('start permission rule: follows startAllowed host, admin or both (spec 4 and 6)', () => {
  it('host only by default', () => {
    expect(canStart('host', undefined)).toBe(true);
    expect(canStart('admin', undefined)).toBe(false);
  });
  it('admin, both', () => {
    expect(canStart('admin', 'admin')).toBe(true);
    expect(canStart('host', 'admin')).toBe(false);
    expect(canStart('host', 'both')).toBe(true);
    expect(canStart('admin', 'both')).toBe(true);
  });
  it('never a listener', () => {
    expect(canStart('listener', 'both')).toBe(false);
    expect(isHostOrAdmin('listener')).toBe(false);
    expect(isHostOrAdmin('host')).toBe(true);
  });
});
