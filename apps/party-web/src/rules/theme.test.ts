import { describe, expect, it } from 'vitest';
import { FONTS } from '@fanfare/protocol';
import { FONT_STACKS, TEXT_ON_DARK, TEXT_ON_LIGHT, allowedStickers, contrastRatio, luminance, textColor, textOn, themeVariables } from './theme.ts';

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

describe('visual settings rule: every property, its default and the colour maths', () => {
  it('without settings: a dark party in the default colours, poppins, no images', () => {
    expect(themeVariables(undefined)).toEqual({
      '--ff-primary': '#ff5a36',
      '--ff-on-primary': textOn('#ff5a36'),
      '--ff-bg': '#14142b',
      '--ff-text': TEXT_ON_DARK,
      '--ff-text-muted': 'rgba(255,255,255,0.78)',
      '--ff-surface': 'rgba(255,255,255,0.08)',
      '--ff-border': 'rgba(255,255,255,0.22)',
      '--ff-font': FONT_STACKS.poppins,
      '--ff-artist-header-bg': 'var(--ff-primary)',
      '--ff-on-artist-header': textOn('#ff5a36'),
      '--ff-artist-profile-bg': 'var(--ff-primary)',
      '--ff-support-header-bg': '#3a86ff',
      '--ff-support-profile-bg': '#3a86ff',
      '--ff-user-header-bg': 'var(--ff-surface)',
      '--ff-user-profile-bg': 'var(--ff-surface)',
      '--ff-own-header-bg': 'var(--ff-surface)',
      '--ff-own-profile-bg': 'var(--ff-primary)',
      '--ff-sticker-bg': 'var(--ff-surface)',
      '--ff-music-image': 'none',
      '--ff-header-image': 'none',
      '--ff-radio-image': 'none',
      '--ff-phone-image': 'none',
      '--ff-logo-image': 'none',
    });
  });

  it('a light party: light background, navy text and light-theme surfaces', () => {
    const vars = themeVariables({ dark: false });
    expect(vars['--ff-bg']).toBe('#f6f5fb');
    expect(vars['--ff-text-muted']).toBe('rgba(20,33,61,0.78)');
    expect(vars['--ff-surface']).toBe('rgba(20,33,61,0.06)');
    expect(vars['--ff-border']).toBe('rgba(20,33,61,0.22)');
  });

  it('every background and image setting reaches its property; quotes and backslashes leave an image URL', () => {
    const vars = themeVariables({
      artistHeaderBackground: '#ffffff',
      artistProfileBackground: '#a1',
      supportHeaderBackground: '#a2',
      supportProfileBackground: '#a3',
      userHeaderBackground: '#a4',
      userProfileBackground: '#a5',
      ownHeaderBackground: '#a6',
      ownProfileBackground: '#a7',
      stickerBackground: '#a8',
      musicImage: '/m.png',
      headerImage: '/h.png',
      radioImage: '/r.png',
      phoneImage: '/p"x\\y\n.png',
    });
    expect(vars['--ff-artist-header-bg']).toBe('#ffffff');
    expect(vars['--ff-on-artist-header']).toBe(TEXT_ON_LIGHT);
    expect([vars['--ff-artist-profile-bg'], vars['--ff-support-header-bg'], vars['--ff-support-profile-bg'], vars['--ff-user-header-bg'], vars['--ff-user-profile-bg'], vars['--ff-own-header-bg'], vars['--ff-own-profile-bg'], vars['--ff-sticker-bg']]).toEqual(['#a1', '#a2', '#a3', '#a4', '#a5', '#a6', '#a7', '#a8']);
    expect([vars['--ff-music-image'], vars['--ff-header-image'], vars['--ff-radio-image'], vars['--ff-phone-image']]).toEqual(['url("/m.png")', 'url("/h.png")', 'url("/r.png")', 'url("/pxy.png")']);
  });

  it('luminance of #rgb, #rgba and #rrggbb colours (WCAG 2, with the 0.03928 linear segment)', () => {
    expect(luminance('#fff')).toBeCloseTo(1, 5);
    expect(luminance('#ffff')).toBeCloseTo(1, 5);
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ff0000')).toBeCloseTo(0.2126, 5);
    expect(luminance('#00ff00')).toBeCloseTo(0.7152, 5);
    expect(luminance('#0000ff')).toBeCloseTo(0.0722, 5);
    // 0x0a / 255 = 0.0392 lies on the linear segment: c / 12.92.
    expect(luminance('#0a0a0a')).toBeCloseTo(10 / 255 / 12.92, 6);
    expect(luminance('#808080')).toBeCloseTo(((128 / 255 + 0.055) / 1.055) ** 2.4, 6);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
  });

  it('text on a colour: white when both read equally, else the better one', () => {
    expect(textOn('#000000')).toBe(TEXT_ON_DARK);
    expect(textOn('#ffffff')).toBe(TEXT_ON_LIGHT);
  });
});

describe('party fonts: each stack starts with the family served from our own origin', () => {
  it('the first family of every stack is one fonts.css bundles from @fontsource, followed by fallbacks', async () => {
    const { readFile } = await import('node:fs/promises');
    const css = await readFile(new URL('../../../../packages/ui/src/fonts.css', import.meta.url), 'utf8');
    const bundled = new Set([...css.matchAll(/@fontsource\/([a-z-]+)\//g)].map((m) => m[1]));
    for (const [font, stack] of Object.entries(FONT_STACKS)) {
      const families = stack.split(',').map((f) => f.trim().replace(/^'|'$/g, ''));
      expect(bundled.has(families[0]!.toLowerCase().replace(/ /g, '-')), font).toBe(true);
      expect(families.length, font).toBeGreaterThan(2);
    }
  });

  it('short colours are doubled digit by digit; no settings allow no stickers', () => {
    expect(luminance('#f00')).toBeCloseTo(0.2126, 5);
    expect(luminance('#0f0a')).toBeCloseTo(0.7152, 5);
    expect(allowedStickers(undefined)).toEqual([]);
  });
});
