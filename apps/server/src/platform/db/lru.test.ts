/** The read caches' and statement caches' LRU (the per-request lookups, cached where correct). */
import { describe, expect, it } from 'vitest';
import { Lru } from './statements.ts';

describe('Lru', () => {
  it('evicts the least recently used entry, a hit counting as a use', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now newer than b
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c')]).toEqual([1, 3]);
  });

  it('a hit on the newest key keeps the order, and a deleted or cleared newest key is forgotten', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('b')).toBe(2);
    expect(lru.get('b')).toBe(2);
    lru.set('c', 3); // a is the oldest
    expect(lru.get('a')).toBeUndefined();
    lru.delete('c');
    lru.set('a', 1);
    expect(lru.get('b')).toBe(2); // b was moved although it had been the newest before c
    lru.set('d', 4); // a is the oldest now
    expect(lru.get('a')).toBeUndefined();
    lru.clear();
    expect(lru.size).toBe(0);
    lru.set('x', 1);
    lru.set('y', 2);
    expect(lru.get('x')).toBe(1);
    lru.set('z', 3);
    expect([lru.get('x'), lru.get('y'), lru.get('z')]).toEqual([1, undefined, 3]);
  });
});
