import { describe, expect, it } from 'vitest';
import { PARTY_PREVIEW_CHANNEL, PARTY_PREVIEW_PARAM, PartyPreviewFromApp, PartyPreviewToApp } from './preview.ts';

const party = {
  id: 'p1',
  name: 'Preview party',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  started_at: null,
  starts_at: '2026-02-01T20:00:00.000Z',
  ends_at: null,
  voting_enabled: true,
  auto_start: false,
  wp_post_id: null,
  frontend: { visual: { primaryColor: '#123456', dark: false } },
  follow: [],
  login_required: true,
  status: null,
  music: null,
  is_playable: false,
};

describe('party preview bridge (listening-party §2: "the admin flag lets the editor preview")', () => {
  it('accepts a preview frame of one of the four screens with the unsaved party', () => {
    const frame = { channel: PARTY_PREVIEW_CHANNEL, type: 'preview', revision: 3, screen: 'waiting', party, tracks: [] };
    expect(PartyPreviewToApp.parse(frame).party.frontend.visual?.primaryColor).toBe('#123456');
  });

  it('refuses frames of other channels, unknown screens, invalid visual settings and extra keys', () => {
    const ok = { channel: PARTY_PREVIEW_CHANNEL, type: 'preview', revision: 1, screen: 'end', party, tracks: [] };
    expect(PartyPreviewToApp.safeParse({ ...ok, channel: 'fanfare-campaign' }).success).toBe(false);
    expect(PartyPreviewToApp.safeParse({ ...ok, screen: 'register' }).success).toBe(false);
    expect(PartyPreviewToApp.safeParse({ ...ok, party: { ...party, frontend: { visual: { primaryColor: 'red; x' } } } }).success).toBe(false);
    expect(PartyPreviewToApp.safeParse({ ...ok, script: 'alert(1)' }).success).toBe(false);
  });

  it('reads the app answers ready and rendered', () => {
    expect(PartyPreviewFromApp.parse({ channel: PARTY_PREVIEW_CHANNEL, type: 'ready' }).type).toBe('ready');
    expect(PartyPreviewFromApp.parse({ channel: PARTY_PREVIEW_CHANNEL, type: 'rendered', revision: 2, screen: 'player' })).toMatchObject({ revision: 2 });
    expect(PartyPreviewFromApp.safeParse({ channel: PARTY_PREVIEW_CHANNEL, type: 'rendered', revision: -1, screen: 'player' }).success).toBe(false);
  });

  it('frames without our channel are refused; the preview flag is a query key', () => {
    for (const channel of ['', 'other', undefined]) expect(PartyPreviewFromApp.safeParse({ channel, type: 'ready' }).success, String(channel)).toBe(false);
    expect(PARTY_PREVIEW_CHANNEL).toMatch(/^fanfare-/);
    expect(PARTY_PREVIEW_PARAM).toMatch(/^[a-z]+$/);
  });
});
