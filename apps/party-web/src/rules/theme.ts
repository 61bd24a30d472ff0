import type { Font, VisualSettings } from '@fanfare/protocol';

/** Text colour rule (spec 3): white when dark is set, otherwise a dark navy. */
export const TEXT_ON_DARK = '#ffffff';
export const TEXT_ON_LIGHT = '#14213d';

export function textColor(dark: boolean | undefined): string {
  return dark ? TEXT_ON_DARK : TEXT_ON_LIGHT;
}

/**
 * CSS font stacks of the five party fonts (spec 3 and 9). The first family of each is served from
 * our own origin by `@fanfare/ui/fonts.css` (issue 15); the rest are fallbacks while it loads.
 */
export const FONT_STACKS: Record<Font, string> = {
  mono: "'Roboto Mono', ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace",
  poppins: "Poppins, 'Segoe UI', system-ui, -apple-system, Roboto, Helvetica, Arial, sans-serif",
  playfair: "'Playfair Display', Georgia, 'Times New Roman', serif",
  merriweather: "Merriweather, Georgia, Cambria, 'Times New Roman', serif",
  rubik: "Rubik, 'Trebuchet MS', system-ui, -apple-system, Roboto, sans-serif",
};

/** Relative luminance of a #rgb / #rrggbb colour (WCAG 2). */
export function luminance(hex: string): number {
  let h = hex.replace('#', '');
  if (h.length === 3 || h.length === 4) h = h.slice(0, 3).split('').map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** Text on a coloured surface (buttons in the party colour): white or navy, whichever reads better. */
export function textOn(background: string): string {
  return contrastRatio(background, TEXT_ON_DARK) >= contrastRatio(background, TEXT_ON_LIGHT) ? TEXT_ON_DARK : TEXT_ON_LIGHT;
}

const DEFAULTS = {
  primaryColor: '#ff5a36',
  darkBackground: '#14142b',
  lightBackground: '#f6f5fb',
};

const cssUrl = (u: string) => `url("${u.replace(/["\\\n]/g, '')}")`;

/**
 * The party's visual settings as CSS custom properties (spec 3): colours, the text colour rule,
 * font, images, message backgrounds and sticker background.
 */
export function themeVariables(v: VisualSettings | undefined): Record<string, string> {
  const visual = v ?? {};
  const dark = visual.dark ?? true;
  const text = textColor(dark);
  const primary = visual.primaryColor ?? DEFAULTS.primaryColor;
  const vars: Record<string, string> = {
    '--ff-primary': primary,
    '--ff-on-primary': textOn(primary),
    '--ff-bg': visual.backgroundColor ?? (dark ? DEFAULTS.darkBackground : DEFAULTS.lightBackground),
    '--ff-text': text,
    '--ff-text-muted': dark ? 'rgba(255,255,255,0.78)' : 'rgba(20,33,61,0.78)',
    '--ff-surface': dark ? 'rgba(255,255,255,0.08)' : 'rgba(20,33,61,0.06)',
    '--ff-border': dark ? 'rgba(255,255,255,0.22)' : 'rgba(20,33,61,0.22)',
    '--ff-font': FONT_STACKS[visual.font ?? 'poppins'],
    '--ff-artist-header-bg': visual.artistHeaderBackground ?? 'var(--ff-primary)',
    '--ff-on-artist-header': textOn(visual.artistHeaderBackground ?? primary),
    '--ff-artist-profile-bg': visual.artistProfileBackground ?? 'var(--ff-primary)',
    '--ff-support-header-bg': visual.supportHeaderBackground ?? '#3a86ff',
    '--ff-support-profile-bg': visual.supportProfileBackground ?? '#3a86ff',
    '--ff-user-header-bg': visual.userHeaderBackground ?? 'var(--ff-surface)',
    '--ff-user-profile-bg': visual.userProfileBackground ?? 'var(--ff-surface)',
    '--ff-own-header-bg': visual.ownHeaderBackground ?? 'var(--ff-surface)',
    '--ff-own-profile-bg': visual.ownProfileBackground ?? 'var(--ff-primary)',
    '--ff-sticker-bg': visual.stickerBackground ?? 'var(--ff-surface)',
  };
  const images: [keyof VisualSettings, string][] = [
    ['musicImage', '--ff-music-image'],
    ['headerImage', '--ff-header-image'],
    ['radioImage', '--ff-radio-image'],
    ['phoneImage', '--ff-phone-image'],
    ['logoImage', '--ff-logo-image'],
  ];
  for (const [key, name] of images) {
    const url = visual[key];
    vars[name] = typeof url === 'string' ? cssUrl(url) : 'none';
  }
  return vars;
}

/** Stickers are allowed only if the party's list is non-empty (spec 3). */
export function allowedStickers(v: VisualSettings | undefined): string[] {
  return v?.stickers ?? [];
}
