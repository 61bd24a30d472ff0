import type { Campaign, CampaignPage, LocalizedText } from '@fanfare/protocol';
import { escapeHtml } from '../../platform/html.ts';

const WHITE = '#ffffff';
const NAVY = '#14213d';

/** WCAG relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

/** The page's text colour: the label's when it reads at 4.5:1 on the background, else white or navy (as the page does). */
export function skeletonTextColor(background: string, text: string | undefined): string {
  if (text && contrast(text, background) >= 4.5) return text;
  return contrast(background, WHITE) >= contrast(background, NAVY) ? WHITE : NAVY;
}

function pick(text: LocalizedText | undefined, locale: string): string {
  if (!text) return '';
  return text[locale] ?? Object.values(text)[0] ?? '';
}

/**
 * The first screen of a campaign page as static HTML, written into the page's root by the CMS: the
 * header and the hero (cover art and title) in the campaign's colours. The browser paints it before
 * any script has run; the app then renders the same markup and takes over. Only what is safe to
 * show before the runtime knows the visitor (no gate verdict, no login) is in it.
 */
export function renderSkeleton(campaign: Campaign, locale: string, altOf: Record<string, string> = {}): string {
  const page = (campaign.data.page ?? {}) as Partial<CampaignPage>;
  const look = { background_color: '#14142b', ...page.look };
  const bg = look.background_color;
  const color = skeletonTextColor(bg, look.text_color);
  const hero = campaign.token_gate.enabled && !campaign.is_token_gate ? undefined : page.modules?.find((m) => m.type === 'hero');
  const brand = escapeHtml(campaign.tag_manager.artist ?? campaign.name);
  const parts = [
    `<div class="page page--skeleton" style="--page-bg:${bg};--ffui-text:${color}">`,
    `<header class="header"><span class="header__brand">${brand}</span></header>`,
    '<main class="page__main">',
  ];
  if (hero && hero.type === 'hero') {
    // The server does not know a visitor's A/B variant: what variant B changes in the hero is left
    // out, so a B visitor never sees A's title or cover flash before the app renders B's.
    const test = campaign.data.ab_test;
    const inB = test?.enabled ? test.variant_b.find((o) => o.module_id === hero.id) : undefined;
    const title = inB?.title !== undefined ? '' : escapeHtml(pick(hero.title, locale) || campaign.name);
    const subtitle = inB?.subtitle !== undefined ? '' : escapeHtml(pick(hero.subtitle, locale));
    parts.push('<section class="module hero">');
    if (hero.cover_image && inB?.cover_image === undefined) parts.push(`<img class="hero__cover" src="${escapeHtml(hero.cover_image)}" alt="${escapeHtml(altOf[hero.cover_image] ?? '')}" width="640" height="640" fetchpriority="high">`);
    parts.push(title ? `<div class="hero__text"><h1 class="ffui-headline ffui-headline--1">${title}</h1>` : '<div class="hero__text">');
    if (subtitle) parts.push(`<p class="ffui-paragraph hero__subtitle">${subtitle}</p>`);
    parts.push('</div></section>');
  }
  parts.push('</main></div>');
  return parts.join('');
}

/** A preload hint for the hero's cover (the page's largest paint), or nothing. */
export function coverPreload(campaign: Campaign): string {
  const page = (campaign.data.page ?? {}) as Partial<CampaignPage>;
  const hero = page.modules?.find((m) => m.type === 'hero');
  return hero?.type === 'hero' && hero.cover_image ? `<link rel="preload" as="image" href="${escapeHtml(hero.cover_image)}" fetchpriority="high">` : '';
}
