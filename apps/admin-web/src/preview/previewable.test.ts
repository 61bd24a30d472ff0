import { describe, expect, it } from 'vitest';
import type { Campaign } from '@fanfare/protocol';
import { previewable } from './previewable.ts';

const base = {
  id: 'c1',
  app_id: 'a1',
  name: 'Draft',
  slug: 'draft',
  url: 'https://cms.example/c/app/draft',
  meta_tags: {},
  tag_manager: {},
  test: false,
  wp_url: null,
  newsletters: [],
  enabled_services: ['spotify'],
  starts_at: null,
  ends_at: null,
  token_gate: { enabled: false, product_id: null },
  token_gated_campaign_url: null,
  token_gate_url: null,
  is_token_gate: false,
  data: {},
} as unknown as Campaign;

describe('a preview that never freezes silently', () => {
  it('leaves out a player with no tracks and a newsletter with no ids, keeps the rest, and names each missing field by its path', () => {
    const draft = {
      ...base,
      newsletters: [
        { id: 'news', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: '', form_id: '' } } },
        { id: 'ok', enabled: true, signup_mode: 'optional', locales: { de: { addressbook_id: 'ab', form_id: 'f' } } },
      ],
      data: { page: { modules: [{ id: 'h', type: 'hero', title: { de: 'Hallo' } }, { id: 'p', type: 'player', spotify_track_ids: [] }] } },
    } as unknown as Campaign;
    const { campaign, problems } = previewable(draft);
    const modules = (campaign.data as { page: { modules: { id: string }[] } }).page.modules;
    expect(modules.map((m) => m.id)).toEqual(['h']);
    expect(campaign.newsletters.map((n) => n.id)).toEqual(['ok']);
    const paths = problems.map((p) => p.path);
    expect(paths).toContain('data.page.modules.1.spotify_track_ids');
    expect(paths).toContain('newsletters.0.locales.de.addressbook_id');
    expect(paths).toContain('newsletters.0.locales.de.form_id');
  });

  it('complete modules and newsletters go as they are, with no problems named for them', () => {
    const draft = { ...base, data: { page: { modules: [{ id: 'p', type: 'player', spotify_track_ids: ['abc'] }] } } } as unknown as Campaign;
    const { campaign, problems } = previewable(draft);
    expect((campaign.data as { page: { modules: unknown[] } }).page.modules).toHaveLength(1);
    expect(problems.filter((p) => p.path.startsWith('data.') || p.path.startsWith('newsletters'))).toEqual([]);
  });
});
