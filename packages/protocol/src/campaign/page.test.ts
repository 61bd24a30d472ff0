import { describe, expect, it } from 'vitest';
import { Campaign, CampaignData, CampaignPage, PAGE_MODULE_TYPES, PageModule } from '../index.ts';

describe('campaign page data (data.page)', () => {
  it('an unknown module type is refused, so the CMS refuses it rather than the page ignoring it', () => {
    expect(PageModule.safeParse({ type: 'marquee', id: 'm1' }).success).toBe(false);
    expect(CampaignData.safeParse({ page: { modules: [{ type: 'marquee', id: 'm1' }] } }).success).toBe(false);
  });

  it('every module type parses with its minimal content', () => {
    const minimal: Record<(typeof PAGE_MODULE_TYPES)[number], unknown> = {
      hero: { type: 'hero', id: 'a' },
      countdown: { type: 'countdown', id: 'b' },
      newsletter: { type: 'newsletter', id: 'c' },
      player: { type: 'player', id: 'd', spotify_track_ids: ['x'] },
      text: { type: 'text', id: 'e', body: { de: 'Hallo' } },
      card: { type: 'card', id: 'f' },
      links: { type: 'links', id: 'g' },
      presave: { type: 'presave', id: 'h' },
    };
    for (const type of PAGE_MODULE_TYPES) expect(PageModule.safeParse(minimal[type]).success, type).toBe(true);
  });

  it('campaign spec §2 font choices: the look takes only the five fonts; defaults fill a bare page', () => {
    expect(CampaignPage.safeParse({ look: { font: 'comic-sans' } }).success).toBe(false);
    const page = CampaignPage.parse({});
    expect(page.look.font).toBe('poppins');
    expect(page.modules).toEqual([]);
  });

  it('image and link addresses are http(s) or a path: a javascript: URL is refused', () => {
    expect(PageModule.safeParse({ type: 'card', id: 'x', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(PageModule.safeParse({ type: 'card', id: 'x', url: '//evil.example/x' }).success).toBe(false);
    expect(PageModule.safeParse({ type: 'card', id: 'x', url: '/uploads/a.png', image: 'https://cdn.example/a.png' }).success).toBe(true);
  });

  it('a campaign without data.page still parses (older campaigns)', () => {
    expect(Campaign.shape.data.safeParse({ participating_countries: ['DE'] }).success).toBe(true);
  });

  it('page URLs are absolute http(s) or site-relative paths, without spaces', () => {
    const card = (url: string) => PageModule.safeParse({ type: 'card', id: 'card-1', url }).success;
    for (const ok of ['http://label.example/a', 'https://label.example/a?b=1', 'HTTPS://LABEL.EXAMPLE/x', '/media/cover.png']) expect(card(ok), ok).toBe(true);
    for (const bad of ['ftp://label.example/a', 'xhttps://label.example', 'https://label.example/a b', '/media/a b.png', '//evil.example/x', 'media/x.png', 'javascript:alert(1)']) {
      expect(card(bad), bad).toBe(false);
    }
  });

  it('module ids hold up to 100 characters; the legal links are page URLs', () => {
    expect(PageModule.safeParse({ type: 'hero', id: 'h'.repeat(100) }).success).toBe(true);
    expect(PageModule.safeParse({ type: 'hero', id: 'h'.repeat(101) }).success).toBe(false);
    expect(PageModule.safeParse({ type: 'hero', id: '' }).success).toBe(false);
    const legal = (l: unknown) => CampaignPage.safeParse({ modules: [], legal: l });
    expect(legal({ imprint_url: '/imprint', privacy_url: 'https://label.example/privacy' }).success).toBe(true);
    expect(legal({ imprint_url: 'not a url' }).success).toBe(false);
  });
});
