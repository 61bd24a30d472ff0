import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACK_LOOKUP_BATCH, type ValidationIssue } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { cmsApi, failure, startCmsServer, withResponse } from '../testing.ts';

describe.each(DB_TARGETS)('CMS music lookups without a token (%s)', (db) => {
  let ts: TestServer;
  const api = () => cmsApi(ts);

  beforeAll(async () => {
    ts = await startCmsServer(db);
  });
  afterAll(() => ts?.close());

  it('spotify album, playlist, artist and track in the Web API shape the mock player reads', async () => {
    const { catalog } = ts.server.ctx;
    const album = catalog.albums[0]!;
    const a = await withResponse((o) => api().call('spotifyAlbum', { params: { id: album.spotify_id } }, o));
    expect(a.data).toMatchObject({ id: album.spotify_id, name: album.name });
    expect(a.data.images[0]!.url).toMatch(/^http/);
    expect(a.data.tracks.items.length).toBe(catalog.albumTracks(album).length);
    expect(a.headers.get('cache-control')).toContain('max-age');

    const playlist = catalog.playlists[0]!;
    const p = await api().call('spotifyPlaylist', { params: { id: playlist.spotify_id } });
    const item = p.tracks.items[0]!.track!;
    expect(item).toMatchObject({ name: expect.any(String), duration_ms: expect.any(Number) });
    expect(item.artists[0]!.name).toBeTruthy();
    expect(item.album!.name).toBeTruthy();
    expect(item.album!.images.length).toBeGreaterThan(0);

    const artist = catalog.artists[0]!;
    expect((await api().call('spotifyArtist', { params: { id: artist.spotify_id } })).name).toBe(artist.name);
    const track = catalog.tracks[0]!;
    expect((await api().call('spotifyTrack', { params: { id: track.spotify_id } })).name).toBe(track.name);
    expect((await failure(api().call('spotifyAlbum', { params: { id: 'doesNotExist123' } }))).status).toBe(404);
  });

  it('several tracks: ?ids= answers `tracks` in order (null for unknown ids), at most 50 per call', async () => {
    const ids = ts.server.ctx.catalog.tracks.map((t) => t.spotify_id);
    const fifty = Array.from({ length: TRACK_LOOKUP_BATCH }, (_, i) => (i < ids.length ? ids[i]! : `unknown${i}`));
    const r = await api().call('spotifyTracks', { query: { ids: fifty.join(',') } });
    expect(r.tracks).toHaveLength(50);
    expect(r.tracks[0]!.id).toBe(ids[0]);
    expect(r.tracks[49]).toBeNull();
    const tooMany = await failure(api().call('spotifyTracks', { query: { ids: [...fifty, ids[0]].join(',') } }));
    expect(tooMany.status).toBe(422);
    expect((tooMany.body as { detail: ValidationIssue[] }).detail[0]!.loc[0]).toBe('query');
    expect((await failure(api().call('spotifyTracks', { query: { ids: '' } }))).status).toBe(422);
  });

  it('apple album and playlist by storefront', async () => {
    const { catalog } = ts.server.ctx;
    const album = catalog.albums[0]!;
    const a = await api().call('appleAlbum', { params: { storefront: 'us', id: album.apple_id } });
    expect(a.data[0]).toMatchObject({ id: album.apple_id, type: 'albums' });
    const pl = catalog.playlists[0]!;
    const p = await api().call('applePlaylist', { params: { storefront: 'de', id: pl.apple_id } });
    expect(p.data[0]!.id).toBe(pl.apple_id);
    expect((await failure(api().call('appleAlbum', { params: { storefront: 'usa', id: album.apple_id } }))).status).toBe(422);
  });
});
