import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { BUTTON_FONT_SIZE_PX } from '@fanfare/protocol';
import type { FontChoice } from './fonts.ts';

/** Fonts whose wide glyphs take the smaller button size (spec 9: "16px or 18px by font"). */
const WIDE_FONTS: readonly FontChoice[] = ['mono', 'merriweather'];

/**
 * A button's font size in px (spec 9): 26 when big, else 16 for the wide fonts (mono,
 * merriweather) and 18 for the others.
 */
export function buttonFontSizePx(big: boolean, font: FontChoice | null | undefined): number {
  if (big) return BUTTON_FONT_SIZE_PX.big;
  return font && WIDE_FONTS.includes(font) ? BUTTON_FONT_SIZE_PX.small : BUTTON_FONT_SIZE_PX.regular;
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** The big variant (26 px). */
  big?: boolean;
  /** The campaign's font, which picks the regular size. */
  font?: FontChoice | null;
  /** `primary` is filled with the accent colour; `secondary` is outlined. */
  variant?: 'primary' | 'secondary';
  children: ReactNode;
};

/** The campaign button (spec 2). Colours come from `--ffui-accent` / `--ffui-on-accent`. */
export function Button({ big = false, font, variant = 'primary', className, style, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={['ffui-button', `ffui-button--${variant}`, big ? 'ffui-button--big' : '', className ?? ''].filter(Boolean).join(' ')}
      style={{ fontSize: `${buttonFontSizePx(big, font)}px`, ...style }}
      {...rest}
    />
  );
}
