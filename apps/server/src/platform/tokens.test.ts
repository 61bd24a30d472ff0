import { describe, expect, it } from 'vitest';
import { newId } from './tokens.ts';

describe('ids', () => {
  it('ids drawn from the pooled random bytes are 16 URL-safe characters and never repeat, across pool refills', () => {
    const ids = Array.from({ length: 2_000 }, () => newId());
    expect(ids.every((id) => /^[A-Za-z0-9_-]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
