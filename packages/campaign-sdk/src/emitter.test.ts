import { describe, expect, it } from 'vitest';
import { Emitter } from './emitter.ts';

describe('instance event emitter', () => {
  it('delivers each event to the listeners of its type only, in the order they subscribed', () => {
    const e = new Emitter<{ a: number; b: string }>();
    const seen: string[] = [];
    e.on('a', (n) => seen.push(`first ${n}`));
    e.on('a', (n) => seen.push(`second ${n}`));
    e.on('b', (s) => seen.push(`b ${s}`));
    e.emit('a', 1);
    e.emit('b', 'x');
    expect(seen).toEqual(['first 1', 'second 1', 'b x']);
  });

  it('an unsubscribed listener hears nothing more; the others still do', () => {
    const e = new Emitter<{ a: number }>();
    const seen: number[] = [];
    const off = e.on('a', (n) => seen.push(n));
    e.on('a', (n) => seen.push(n * 10));
    e.emit('a', 1);
    off();
    e.emit('a', 2);
    expect(seen).toEqual([1, 10, 20]);
  });

  it('a listener that unsubscribes while an event is delivered does not stop the others of that event', () => {
    const e = new Emitter<{ a: number }>();
    const seen: string[] = [];
    const off = e.on('a', () => {
      seen.push('one');
      off();
    });
    e.on('a', () => seen.push('two'));
    e.emit('a', 1);
    e.emit('a', 2);
    expect(seen).toEqual(['one', 'two', 'two']);
  });

  it('clear removes every listener; emitting with none is harmless', () => {
    const e = new Emitter<{ a: number }>();
    const seen: number[] = [];
    e.on('a', (n) => seen.push(n));
    e.clear();
    e.emit('a', 1);
    expect(seen).toEqual([]);
    expect(() => e.emit('a', 2)).not.toThrow();
  });
});
