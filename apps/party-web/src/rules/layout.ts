import { MOBILE_BREAKPOINT_PX } from '@fanfare/protocol';

/** Mobile means a window width of 900 px or less (spec 2 and 9). */
export function isMobileWidth(widthPx: number): boolean {
  return widthPx <= MOBILE_BREAKPOINT_PX;
}

/** What the header shows (spec 2). */
export type HeaderMode = 'logo' | 'full' | 'hidden';

/**
 * Header rule (spec 2): on Player the header shows a logo; on other screens the header is shown
 * on mobile, or when no logo is shown (on desktop with a logo, the logo stands beside the content).
 */
export function headerMode(page: string, isMobile: boolean, hasLogo: boolean): HeaderMode {
  if (page === 'player') return 'logo';
  if (isMobile || !hasLogo) return 'full';
  return 'hidden';
}

/** The footer is on every page except Player (spec 2). */
export function showsFooter(page: string): boolean {
  return page !== 'player';
}

/** The language switch shows only when more than one locale exists (spec 2). */
export function showsLanguageSwitch(locales: readonly string[]): boolean {
  return locales.length > 1;
}
