import { FONTS, type Font } from '@fanfare/protocol';

/** The font choices of spec 2 (`mono`, `poppins`, `rubik`, `playfair`, `merriweather`). */
export const FONT_CHOICES = FONTS;
export type FontChoice = Font;

/**
 * CSS font stacks of the five fonts. The first family is the one `fonts.css` loads from our own
 * origin; the rest are system fallbacks shown while it loads (`font-display: swap`).
 */
export const FONT_STACKS: Record<FontChoice, string> = {
  mono: "'Roboto Mono', ui-monospace, Menlo, Consolas, monospace",
  poppins: "Poppins, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
  playfair: "'Playfair Display', Georgia, 'Times New Roman', serif",
  merriweather: "Merriweather, Georgia, Cambria, 'Times New Roman', serif",
  rubik: "Rubik, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
};

/** The stack of a font choice; unknown or missing choices fall back to poppins. */
export function fontStack(font: string | null | undefined): string {
  return (FONT_CHOICES as readonly string[]).includes(font ?? '') ? FONT_STACKS[font as FontChoice] : FONT_STACKS.poppins;
}
