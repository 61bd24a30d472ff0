import { describe, expect, it } from 'vitest';
import { FONTS } from '@fanfare/protocol';
import { FONT_STACKS, TEXT_ON_DARK, TEXT_ON_LIGHT, allowedStickers, textColor, themeVariables } from './theme.ts';

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
