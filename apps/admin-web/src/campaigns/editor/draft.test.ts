import { describe, expect, it } from 'vitest';
import { Campaign, PatchCampaignBody } from '@fanfare/protocol';
import { previewCampaign, toDraft, toPatch } from './draft.ts';

const stored = Campaign.parse({
  id: 'c1',
  created_at: '2027-01-01T00:00:00.000Z',
  updated_at: '2027-01-01T00:00:00.000Z',
  app: 'fan-pages',
  app_id: 'a1',
  name: 'Summer',
  slug: 'summer',
  meta_tags: {},
  tag_manager: { artist: 'Tidal Lights' },
  test: false,
  wp_url: null,
  newsletter: null,
  newsletters: [],
  enabled_services: ['spotify'],
  starts_at: null,
  ends_at: null,
  i18n: null,
  url: 'http://127.0.0.1:1337/c/fan-pages/summer',
  token_gate: { enabled: false, product_id: null },
  token_gated_campaign_url: null,
  token_gate_url: null,
  is_token_gate: false,
  parent_id: null,
  data: {},
  lock: null,
  status: 'draft',
  version: 1,
  published_version: null,
  published_at: null,
  published_by: null,
  scheduled_publish_at: null,
  scheduled_unpublish_at: null,
  schedule_time_zone: null,
});

describe('campaign draft (the editor form) and the patch it saves', () => {
  it('a stored campaign round-trips to a patch the server accepts', () => {
    const patch = toPatch(toDraft(stored));
    expect(PatchCampaignBody.safeParse(patch).success).toBe(true);
    expect(patch.tag_manager).toEqual({ artist: 'Tidal Lights', genre: null, division: null, party_id: null });
  });

  it('empty optional texts are saved as "not set" (null), never as empty strings', () => {
    const draft = { ...toDraft(stored), wp_url: '  ', token_gate: { enabled: true, product_id: '' } };
    const patch = toPatch(draft);
    expect(patch.wp_url).toBeNull();
    expect(patch.token_gate).toEqual({ enabled: true, product_id: null });
  });

  it('the preview shows the unsaved draft over the stored campaign and stays a valid Campaign (campaignInfo:v2)', () => {
    const shown = previewCampaign(stored, { ...toDraft(stored), name: 'Summer (draft)' });
    expect(shown.name).toBe('Summer (draft)');
    expect(shown.id).toBe('c1');
    expect(Campaign.safeParse(shown).success).toBe(true);
  });
});
