import { describe, expect, it } from 'vitest';
import { localized } from './localized.ts';

describe('a module text in the visitor\'s locale, with the fallback the editor announces', () => {
  it('takes the locale, then its language, then the default locale', () => {
    expect(localized({ de: 'Hallo', en: 'Hello' }, 'de-AT', 'en')).toBe('Hallo');
    expect(localized({ en: 'Hello' }, 'de', 'en')).toBe('Hello');
  });

  it('an emptied German field falls back to the English text, as the editor\'s hint says', () => {
    expect(localized({ de: '', en: 'Hello' }, 'de', 'en')).toBe('Hello');
    expect(localized({ de: '', en: '' }, 'de', 'en')).toBe('');
  });
});
