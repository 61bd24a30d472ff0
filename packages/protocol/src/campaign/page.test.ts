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

  it('a page with every module field set parses to itself', () => {
    const page = {
      look: { font: 'mono', primary_color: '#A1B2C3', background_color: '#000000', text_color: '#ffffff', background_image: '/uploads/bg.jpg' },
      modules: [
        { id: 'hero', type: 'hero', title: { de: 'Neu', 'pt-BR': 'Novo', en_GB: 'New' }, subtitle: { en: 'Out now' }, cover_image: 'https://img.example.com/c.jpg' },
        { id: 'cd', type: 'countdown', ended_text: { en: 'Out now' } },
        { id: 'news', type: 'newsletter', text: { en: 'Sign up' } },
        { id: 'play', type: 'player', spotify_track_ids: ['t1', 't2'] },
        { id: 'pre', type: 'presave', text: { en: 'Pre-save' } },
        { id: 'txt', type: 'text', body: { en: 'Hello' } },
        { id: 'card', type: 'card', text: { en: 'Tour' }, button_label: { en: 'Tickets' }, url: '/tour', image: null },
        { id: 'links', type: 'links', ticket_url: 'https://tickets.example.com', ticket_label: { en: 'Tickets' }, socials: [{ network: 'instagram', url: 'https://instagram.com/band' }] },
      ],
      legal: { imprint_url: '/imprint', privacy_url: null },
    };
    expect(CampaignPage.parse(page)).toEqual(page);
  });

  it('a bare page gets the default look, no modules and no legal links', () => {
    expect(CampaignPage.parse({})).toEqual({ look: { font: 'poppins', primary_color: '#ff5a36', background_color: '#14142b' }, modules: [], legal: {} });
    expect(CampaignPage.parse({ look: {} }).look).toEqual({ font: 'poppins', primary_color: '#ff5a36', background_color: '#14142b' });
    expect(CampaignPage.safeParse({ look: { accent: '#ffffff' } }).success).toBe(false);
  });

  it('colours are #rrggbb; texts are keyed by locale codes', () => {
    const look = (primary_color: string) => CampaignPage.safeParse({ look: { primary_color } });
    for (const bad of ['#abc', '#abcdeff', 'x#abcdef', '#abcdefx', '#ghijkl', 'abcdef']) expect(look(bad).success, bad).toBe(false);
    expect(look('#abc').error?.issues[0]?.message).toMatch(/#rrggbb/);
    const hero = (title: Record<string, string>) => PageModule.safeParse({ type: 'hero', id: 'h', title }).success;
    for (const bad of ['DE', 'd', 'de-', 'de-x', 'de+AT', 'de-ABCDEFGHI', 'de1', '1de', 'de-AT!']) expect(hero({ [bad]: 'x' }), bad).toBe(false);
    expect(hero({ de: 'x'.repeat(5000) })).toBe(true);
    expect(hero({ de: 'x'.repeat(5001) })).toBe(false);
  });

  it('page URLs: the refusal names both forms; addresses are bounded', () => {
    const refused = PageModule.safeParse({ type: 'card', id: 'c', url: 'media/x.png' });
    expect(refused.error?.issues[0]?.message).toMatch(/http\(s\) URL or a path/);
    expect(PageModule.safeParse({ type: 'card', id: 'c', url: `/${'x'.repeat(2000)}` }).success).toBe(false);
  });

  it('a player holds 1 to 50 track ids of 1 to 100 characters', () => {
    const player = (ids: string[]) => PageModule.safeParse({ type: 'player', id: 'p', spotify_track_ids: ids }).success;
    expect(player(Array.from({ length: 50 }, (_, i) => `track${i}`))).toBe(true);
    expect(player(Array.from({ length: 51 }, (_, i) => `track${i}`))).toBe(false);
    expect(player([])).toBe(false);
    expect(player([''])).toBe(false);
    expect(player(['x'.repeat(100)])).toBe(true);
    expect(player(['x'.repeat(101)])).toBe(false);
  });

  it('links: up to 10 socials of the known networks, none by default', () => {
    const social = { network: 'tiktok', url: 'https://tiktok.com/@band' };
    expect(PageModule.parse({ type: 'links', id: 'l' })).toEqual({ type: 'links', id: 'l', socials: [] });
    expect(PageModule.safeParse({ type: 'links', id: 'l', socials: Array.from({ length: 10 }, () => social) }).success).toBe(true);
    expect(PageModule.safeParse({ type: 'links', id: 'l', socials: Array.from({ length: 11 }, () => social) }).success).toBe(false);
    expect(PageModule.safeParse({ type: 'links', id: 'l', socials: [{ network: 'myspace', url: '/x' }] }).success).toBe(false);
    expect(PageModule.safeParse({ type: 'links', id: 'l', socials: [{ network: 'x', url: '/x', extra: 1 }] }).success).toBe(false);
    expect(PageModule.safeParse({ type: 'links', id: 'l', socials: [{ network: 'x' }] }).success).toBe(false);
  });
});
