import { describe, expect, it } from 'vitest';
import { missingKeys } from './missingKeys.ts';

describe('missing keys per locale (spec 8: a missing translation shows its key)', () => {
  it('lists every key and, per locale, the keys it lacks, including a locale with no messages', () => {
    const r = missingKeys({
      locales: [
        { code: 'de', pluralForm: 'nplurals=2; plural=(n != 1);' },
        { code: 'en', pluralForm: 'nplurals=2; plural=(n != 1);' },
        { code: 'fr', pluralForm: 'nplurals=2; plural=(n > 1);' },
      ],
      items: [
        { locale: 'de', messages: { hello: 'Hallo', bye: 'Tschüss' } },
        { locale: 'en', messages: { hello: 'Hello' } },
      ],
    });
    expect(r.keys).toEqual(['bye', 'hello']);
    expect(r.missing).toEqual({ de: [], en: ['bye'], fr: ['bye', 'hello'] });
  });
});
