import { describe, expect, it } from 'vitest';
import { headerMode, isMobileWidth, showsFooter, showsLanguageSwitch } from './layout.ts';

describe('mobile rule: 900 px and below (spec 2 and 9)', () => {
  it('draws the line at 900', () => {
    expect(isMobileWidth(900)).toBe(true);
    expect(isMobileWidth(901)).toBe(false);
  });
});

describe('header rule: logo on Player, elsewhere on mobile or without logo (spec 2)', () => {
  it('decides per page', () => {
    expect(headerMode('player', false, true)).toBe('logo');
    expect(headerMode('waiting', true, true)).toBe('full');
    expect(headerMode('waiting', false, false)).toBe('full');
    expect(headerMode('waiting', false, true)).toBe('hidden');
  });
});

describe('footer rules: everywhere but Player, language switch only with several locales (spec 2)', () => {
  it('hides the footer on Player', () => {
    expect(showsFooter('player')).toBe(false);
    expect(showsFooter('waiting')).toBe(true);
  });
  it('shows the switch only with more than one locale', () => {
    expect(showsLanguageSwitch(['de'])).toBe(false);
    expect(showsLanguageSwitch(['de', 'en'])).toBe(true);
  });
});
