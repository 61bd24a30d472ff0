import { describe, expect, it } from 'vitest';
import { shownInsteadOf } from './localeFallback.ts';

describe('the editor names the text an empty locale falls back to, as the page picks it', () => {
  it('a German field left empty shows the English text: the hint names en', () => {
    expect(shownInsteadOf({ en: 'New album' }, 'de', 'de')).toBe('en');
    expect(shownInsteadOf({ de: '', en: 'New album' }, 'de', 'de')).toBe('en');
  });
  it('a filled field, or a field empty in every locale, has no hint', () => {
    expect(shownInsteadOf({ de: 'Neues Album', en: 'New album' }, 'de', 'de')).toBeNull();
    expect(shownInsteadOf({ de: '', en: '' }, 'de', 'en')).toBeNull();
  });
  it('the default locale comes before other locales, and a regional locale first takes its language', () => {
    expect(shownInsteadOf({ fr: 'Nouvel album', en: 'New album' }, 'de', 'en')).toBe('en');
    expect(shownInsteadOf({ en: 'New album', de: 'Neues Album' }, 'de-AT', 'en')).toBe('de');
  });
});
