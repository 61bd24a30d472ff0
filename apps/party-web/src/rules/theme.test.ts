import { describe, expect, it } from 'vitest';
import { FONTS } from '@fanfare/protocol';
import { FONT_STACKS, TEXT_ON_DARK, TEXT_ON_LIGHT, allowedStickers, contrastRatio, textColor, textOn, themeVariables } from './theme.ts';

describe('text colour rule: white when dark, else dark navy (spec 3)', () => {
  it('follows the dark flag', () => {
    expect(textColor(true)).toBe(TEXT_ON_DARK);
    expect(textColor(false)).toBe(TEXT_ON_LIGHT);
    expect(themeVariables({ dark: false })['--ff-text']).toBe(TEXT_ON_LIGHT);
  });
});

describe('visual settings rule: per-party CSS custom properties (spec 3)', () => {
  it('maps colours, font and images', () => {
    const vars = themeVariables({ dark: true, primaryColor: '#123456', backgroundColor: '#000000', font: 'rubik', logoImage: '/uploads/logo.png' });
    expect(vars['--ff-primary']).toBe('#123456');
    expect(vars['--ff-bg']).toBe('#000000');
    expect(vars['--ff-font']).toBe(FONT_STACKS.rubik);
    expect(vars['--ff-logo-image']).toBe('url("/uploads/logo.png")');
    expect(vars['--ff-header-image']).toBe('none');
  });
  it('has a stack for each of the five fonts', () => {
    expect(Object.keys(FONT_STACKS).sort()).toEqual([...FONTS].sort());
  });
  it('allows stickers only with a non-empty list', () => {
    expect(allowedStickers({})).toEqual([]);
    expect(allowedStickers({ stickers: ['fire'] })).toEqual(['fire']);
  });
});

describe('contrast rule: text on the party colour picks white or navy, whichever reads better', () => {
  it('reaches at least 4.5:1 on typical party colours', () => {
    for (const c of ['#ff5a36', '#1db954', '#3a86ff', '#ffd60a', '#6a00f4', '#000', '#fff']) {
      expect(contrastRatio(c, textOn(c))).toBeGreaterThanOrEqual(4.5);
    }
  });
  it('computes WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 0);
    expect(themeVariables({ primaryColor: '#ffd60a' })['--ff-on-primary']).toBe(TEXT_ON_LIGHT);
  });
});
