import type { Campaign, CampaignPage, CampaignTheme, PageLook } from '@fanfare/protocol';
import { fontStack } from '@fanfare/ui';

/** Text colours the page falls back to when a label's colour would not be readable. */
export const WHITE = '#ffffff';
export const NAVY = '#14213d';
/** WCAG AA for body text. */
export const MIN_CONTRAST = 4.5;

/** Relative luminance of a #rrggbb colour (WCAG 2). */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** White or navy, whichever reads better on `background`. */
export function readableOn(background: string): string {
  return contrastRatio(background, WHITE) >= contrastRatio(background, NAVY) ? WHITE : NAVY;
}

/** The look of a page that sets none: the defaults of the protocol's `PageLook` (a test keeps them equal). */
export const DEFAULT_LOOK: PageLook = { font: 'poppins', primary_color: '#ff5a36', background_color: '#14142b' };

/**
 * The page data of a campaign (`data.page`) with the protocol's defaults filled in. The CMS
 * validated it on every write (and the SDK validates the editor's campaignInfo:v2), so the page
 * reads it without zod: the validator stays out of the first chunk.
 */
export function pageOf(campaign: Pick<Campaign, 'data'>): CampaignPage {
  const raw = (campaign.data.page ?? {}) as Partial<CampaignPage>;
  return {
    look: { ...DEFAULT_LOOK, ...raw.look },
    modules: (raw.modules ?? []).map((m) => (m.type === 'links' ? { ...m, socials: m.socials ?? [] } : m)),
    legal: raw.legal ?? {},
  };
}

/**
 * The page with the look the editor previews (bridge `theme`, spec 7) laid over its own: font and
 * accent colour replace the page's; a colour scheme keeps the page's background when it already
 * fits (dark or light), else takes white or the default dark one. Missing fields keep the page's own.
 */
export function withTheme(page: CampaignPage, theme: CampaignTheme | null): CampaignPage {
  if (!theme) return page;
  const look = { ...page.look };
  if (theme.font) look.font = theme.font;
  if (theme.primary_color) look.primary_color = theme.primary_color;
  if (theme.color_scheme) {
    const isDark = luminance(look.background_color) < 0.18;
    if (theme.color_scheme === 'dark' && !isDark) look.background_color = DEFAULT_LOOK.background_color;
    if (theme.color_scheme === 'light' && isDark) look.background_color = WHITE;
  }
  return { ...page, look };
}

/**
 * The campaign's look as CSS custom properties. The label's text colour is kept only when it
 * passes 4.5:1 on the background; otherwise white or navy, whichever reads. Text on the accent
 * colour (buttons) is chosen the same way.
 */
export function lookVariables(look: PageLook): Record<string, string> {
  const text = look.text_color && contrastRatio(look.text_color, look.background_color) >= MIN_CONTRAST ? look.text_color : readableOn(look.background_color);
  return {
    '--page-bg': look.background_color,
    '--ffui-text': text,
    '--ffui-accent': look.primary_color,
    '--ffui-on-accent': readableOn(look.primary_color),
    '--ffui-font': fontStack(look.font),
    '--page-link': contrastRatio(look.primary_color, look.background_color) >= MIN_CONTRAST ? look.primary_color : text,
  };
}
