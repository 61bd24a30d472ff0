import { describe, expect, it } from 'vitest';
import { de } from './de.ts';
import { en } from './en.ts';
import { pickLocale } from './setup.ts';

function keys(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`)));
}

describe('i18n rule: de (default) and en, every string translated in both', () => {
  it('has the same keys in de and en, none empty', () => {
    expect(keys(en).sort()).toEqual(keys(de).sort());
    for (const k of keys(en)) expect(k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], en)).not.toBe('');
  });
  it('defaults to de, takes a stored or browser locale we have', () => {
    expect(pickLocale(null, [])).toBe('de');
    expect(pickLocale(null, ['fr-FR'])).toBe('de');
    expect(pickLocale(null, ['en-US'])).toBe('en');
    expect(pickLocale('de', ['en-US'])).toBe('de');
  });
});
