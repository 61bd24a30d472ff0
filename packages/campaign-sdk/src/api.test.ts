import type { CmsClient } from '@fanfare/client/cms';
import { describe, expect, it, vi } from 'vitest';
import type { NewsletterSignupBody } from '@fanfare/protocol';
import { APPLE_DEFAULT_STOREFRONT, CampaignApi, appleLookupTarget } from './api.ts';
import { readCampaignConfig } from './config.ts';
import { campaignFixture, fakeEnv, pageMeta } from './test/fakes.ts';

function apiWith(call: (...args: unknown[]) => unknown) {
  const client = { call: vi.fn(async (...args: unknown[]) => call(...args)) };
  const api = new CampaignApi({ baseUrl: 'https://cms.example', fetch: globalThis.fetch, loadClient: async () => client as unknown as CmsClient });
  return { api, client };
}

describe('music lookups (campaign spec §7)', () => {
  it('campaign spec §7: the Apple storefront defaults to us', () => {
    expect(APPLE_DEFAULT_STOREFRONT).toBe('us');
    expect(appleLookupTarget('1440857781')).toEqual({ storefront: 'us', id: '1440857781' });
    expect(appleLookupTarget('pl.u-abc', 'DE')).toEqual({ storefront: 'de', id: 'pl.u-abc' });
  });

  it('campaign spec §7: the storefront is taken from an Apple Music URL when present', () => {
    expect(appleLookupTarget('https://music.apple.com/de/album/paper-boats/1440857781', 'fr')).toEqual({ storefront: 'de', id: '1440857781' });
    expect(appleLookupTarget('https://music.apple.com/playlist/mix/pl.u-xyz')).toEqual({ storefront: 'us', id: 'pl.u-xyz' });
    expect(appleLookupTarget('https://music.apple.com/album/x/123', 'gb')).toEqual({ storefront: 'gb', id: '123' });
  });

  it('campaign spec §7: Apple album and playlist lookups call their routes with the storefront, without a token', async () => {
    const { api, client } = apiWith(() => ({ data: [] }));
    await api.appleAlbum('https://music.apple.com/at/album/x/42');
    await api.applePlaylist('pl.1');
    expect(client.call.mock.calls).toEqual([
      ['appleAlbum', { params: { storefront: 'at', id: '42' } }, { includeToken: false }],
      ['applePlaylist', { params: { storefront: 'us', id: 'pl.1' } }, { includeToken: false }],
    ]);
  });

  it('campaign spec §7/§9: several tracks are looked up in batches of 50, order kept, unknown ids dropped', async () => {
    const ids = Array.from({ length: 51 }, (_, i) => `t${i}`);
    const { api, client } = apiWith((_name, input) => {
      const asked = ((input as { query: { ids: string } }).query.ids).split(',');
      return { tracks: asked.map((id) => (id === 't3' ? null : { id })) };
    });
    const tracks = await api.spotifyTracks(ids);
    expect(client.call.mock.calls.map((c) => ((c[1] as { query: { ids: string } }).query.ids.split(',').length))).toEqual([50, 1]);
    expect(tracks.map((t) => t.id)).toEqual(ids.filter((id) => id !== 't3'));
  });
});

describe("the editor's preview of a draft (a page opened through a preview link)", () => {
  it('reads the preview token from the page address, and none from an ordinary visit', () => {
    const c = campaignFixture();
    const preview = fakeEnv({ href: 'https://cms.fanfare.example/c/fan-pages/demo?preview=signed.token', meta: pageMeta(c) });
    expect(readCampaignConfig(preview.env).previewToken).toBe('signed.token');
    expect(readCampaignConfig(fakeEnv({ meta: pageMeta(c) }).env).previewToken).toBeNull();
  });

  it("passes the preview token on to the page's own public calls, so they answer for the draft", async () => {
    const client = { call: vi.fn(async (..._args: unknown[]) => ({})), url: vi.fn((..._args: unknown[]) => 'https://cms.example/login') };
    const api = new CampaignApi({ baseUrl: 'https://cms.example', fetch: globalThis.fetch, previewToken: () => 'signed.token', loadClient: async () => client as unknown as CmsClient });
    await api.campaignTranslations('c1');
    await api.newsletterSignup('c1', { email: 'fan@example.com' } as NewsletterSignupBody);
    await api.checkTokenGate('c1', 'CODE');
    await api.verifyTokenGate('c1', 'key');
    await api.appleLogin('c1', 'mut');
    await api.loginUrl('c1', 'spotify', { redirect_uri: 'https://p/x', state: 's' });
    const queries = client.call.mock.calls.map((c) => [c[0], (c[1] as { query?: unknown }).query]);
    expect(queries).toEqual([
      ['getCampaignTranslations', { preview: 'signed.token' }],
      ['newsletterSignup', { preview: 'signed.token' }],
      ['tokenGateCheck', { preview: 'signed.token' }],
      ['tokenGateVerify', { preview: 'signed.token' }],
      ['accountAppleLogin', { preview: 'signed.token' }],
    ]);
    expect(client.url).toHaveBeenCalledWith('accountLogin', { params: { id: 'c1', service: 'spotify' }, query: { redirect_uri: 'https://p/x', state: 's', hash_output: 'false', preview: 'signed.token' } });
  });

  it('sends no preview query on an ordinary visit', async () => {
    const { api, client } = apiWith(() => ({}));
    await api.campaignTranslations('c1');
    await api.checkTokenGate('c1', 'CODE');
    expect(client.call.mock.calls.map((c) => (c[1] as { query?: unknown }).query)).toEqual([undefined, undefined]);
  });
});
