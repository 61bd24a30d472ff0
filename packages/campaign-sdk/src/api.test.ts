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

describe('the calls of the page (campaign spec §7)', () => {
  function recordingClient() {
    const calls: unknown[][] = [];
    const client = {
      call: vi.fn(async (...args: unknown[]) => {
        calls.push(['call', ...args]);
        return { tracks: [] };
      }),
      url: vi.fn((...args: unknown[]) => {
        calls.push(['url', ...args]);
        return 'https://cms.example/login';
      }),
      with: vi.fn((o: { token: () => string }) => ({
        call: async (...args: unknown[]) => {
          calls.push(['with', o.token(), ...args]);
          return {};
        },
      })),
    };
    return { client, calls };
  }

  it('loads the typed client once, however many calls are made', async () => {
    const { client } = recordingClient();
    const loadClient = vi.fn(async () => client as unknown as CmsClient);
    const api = new CampaignApi({ baseUrl: 'https://cms.example', fetch: globalThis.fetch, loadClient });
    expect(api.baseUrl).toBe('https://cms.example');
    await Promise.all([api.geo(), api.geo(), api.appTranslations('fan-pages')]);
    expect(loadClient).toHaveBeenCalledTimes(1);
    await expect(api.cms()).resolves.toBe(client);
  });

  it('the account calls carry the session token they are given; lookups and public calls carry none', async () => {
    const { client, calls } = recordingClient();
    const api = new CampaignApi({ baseUrl: 'https://cms.example', fetch: globalThis.fetch, loadClient: async () => client as unknown as CmsClient });
    await api.refreshSession('ref-1');
    await api.logout('ref-2');
    await api.me('acc-1');
    await api.geo();
    await api.appTranslations('fan-pages');
    await api.spotifyAlbum('al1');
    await api.spotifyPlaylist('pl1');
    await api.spotifyTrack('t1');
    await api.newsletterSignup('c1', { email: 'fan@example.com' } as NewsletterSignupBody);
    await api.appleLogin('c1', 'mut');
    await api.verifyTokenGate('c1', 'key-1');
    await api.checkTokenGate('c1', 'CODE');
    await api.loginUrl('c1', 'apple', { redirect_uri: 'https://p/x', state: 's', hash_output: true });
    expect(calls).toEqual([
      ['with', 'ref-1', 'refreshAccountSession'],
      ['with', 'ref-2', 'accountLogout'],
      ['with', 'acc-1', 'getAccountMe'],
      ['call', 'getGeo'],
      ['call', 'getAppTranslations', { params: { app: 'fan-pages' } }],
      ['call', 'spotifyAlbum', { params: { id: 'al1' } }, { includeToken: false }],
      ['call', 'spotifyPlaylist', { params: { id: 'pl1' } }, { includeToken: false }],
      ['call', 'spotifyTrack', { params: { id: 't1' } }, { includeToken: false }],
      ['call', 'newsletterSignup', { params: { id: 'c1' }, body: { email: 'fan@example.com' } }, { includeToken: false }],
      ['call', 'accountAppleLogin', { params: { id: 'c1' }, body: { music_user_token: 'mut' } }, { includeToken: false }],
      ['call', 'tokenGateVerify', { params: { id: 'c1' } }, { includeToken: false, headers: { 'token-gate-access-key': 'key-1' } }],
      ['call', 'tokenGateCheck', { params: { id: 'c1' }, body: { credentials: { code: 'CODE' } } }, { includeToken: false }],
      ['url', 'accountLogin', { params: { id: 'c1', service: 'apple' }, query: { redirect_uri: 'https://p/x', state: 's', hash_output: 'true' } }],
    ]);
    await api.campaignTranslations('c1');
    expect(calls.at(-1)).toStrictEqual(['call', 'getCampaignTranslations', { params: { id: 'c1' } }]);
  });

  it('an empty preview token is no preview', async () => {
    const { client } = recordingClient();
    const api = new CampaignApi({ baseUrl: 'https://cms.example', fetch: globalThis.fetch, previewToken: () => '', loadClient: async () => client as unknown as CmsClient });
    await api.campaignTranslations('c1');
    expect(client.call.mock.calls[0]).toStrictEqual(['getCampaignTranslations', { params: { id: 'c1' } }]);
  });

  it('campaign spec §7/§9: no ids, no lookup; exactly 50 ids, one lookup', async () => {
    const { api, client } = apiWith((_name, input) => ({ tracks: (input as { query: { ids: string } }).query.ids.split(',').map((id) => ({ id })) }));
    await expect(api.spotifyTracks([])).resolves.toEqual([]);
    expect(client.call).not.toHaveBeenCalled();
    const ids = Array.from({ length: 50 }, (_, i) => `t${i}`);
    await expect(api.spotifyTracks(ids)).resolves.toHaveLength(50);
    expect(client.call).toHaveBeenCalledTimes(1);
    expect(client.call.mock.calls[0]![0]).toBe('spotifyTracks');
    expect(client.call.mock.calls[0]![2]).toEqual({ includeToken: false });
  });

  it('campaign spec §7: Apple references: any letter case of the scheme, a storefront only of two letters, a URL without a path', () => {
    expect(appleLookupTarget('HTTPS://music.apple.com/DE/album/x/77')).toEqual({ storefront: 'de', id: '77' });
    expect(appleLookupTarget('http://music.apple.com/deu/album/x/78', 'fr')).toEqual({ storefront: 'fr', id: '78' });
    expect(appleLookupTarget('https://music.apple.com/x1/album/79')).toEqual({ storefront: 'us', id: '79' });
    expect(appleLookupTarget('https://music.apple.com/')).toEqual({ storefront: 'us', id: 'https://music.apple.com/' });
    expect(appleLookupTarget('https://')).toEqual({ storefront: 'us', id: 'https://' });
    expect(appleLookupTarget('music.apple.com/de/album/x/80')).toEqual({ storefront: 'us', id: 'music.apple.com/de/album/x/80' });
    expect(appleLookupTarget('xhttps://music.apple.com/de/album/x/81')).toEqual({ storefront: 'us', id: 'xhttps://music.apple.com/de/album/x/81' });
  });

  it('the default client goes to the CMS origin with the editor token, through the page fetch', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      seen.push({ url: String(url), auth: new Headers(init.headers).get('authorization') });
      return Response.json({ country: 'DE' });
    }) as unknown as typeof fetch;
    let token: string | null = 'cms-token';
    const api = new CampaignApi({ baseUrl: 'https://cms.example', fetch: fetchFn, editorToken: () => token });
    await api.campaignTranslations('c1').catch(() => undefined);
    token = null;
    await api.campaignTranslations('c1').catch(() => undefined);
    expect(seen.map((s) => s.url)).toEqual(['https://cms.example/api/campaigns/c1/translations', 'https://cms.example/api/campaigns/c1/translations']);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer cms-token', null]);
    const anonymous = new CampaignApi({ baseUrl: 'https://cms.example', fetch: fetchFn });
    await anonymous.campaignTranslations('c2').catch(() => undefined);
    expect(seen).toHaveLength(3);
    expect(seen.at(-1)).toEqual({ url: 'https://cms.example/api/campaigns/c2/translations', auth: null });
  });
});
