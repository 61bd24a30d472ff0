import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACK_LOOKUP_BATCH } from '@fanfare/protocol';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { call, startCmsServer } from '../testing.ts';

describe.each(DB_TARGETS)('CMS music lookups without a token (%s)', (db) => {
  let ts: TestServer;

  beforeAll(async () => {
    ts = await startCmsServer(db);
  });
  afterAll(() => ts?.close());

  it('spotify album, playlist, artist and track in the Web API shape the mock player reads', async () => {
    const { catalog } = ts.server.ctx;
    const album = catalog.albums[0]!;
    const a = await call(ts, 'GET', `/api/spotify/albums/${album.spotify_id}`);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ id: album.spotify_id, name: album.name });
    expect(a.body.images[0].url).toMatch(/^http/);
    expect(a.body.tracks.items.length).toBe(catalog.albumTracks(album).length);
    expect(a.headers.get('cache-control')).toContain('max-age');

    const playlist = catalog.playlists[0]!;
    const p = await call(ts, 'GET', `/api/spotify/playlists/${playlist.spotify_id}`);
    const item = p.body.tracks.items[0].track;
    expect(item).toMatchObject({ name: expect.any(String), duration_ms: expect.any(Number) });
    expect(item.artists[0].name).toBeTruthy();
    expect(item.album.name).toBeTruthy();
    expect(item.album.images.length).toBeGreaterThan(0);

    const artist = catalog.artists[0]!;
    expect((await call(ts, 'GET', `/api/spotify/artists/${artist.spotify_id}`)).body.name).toBe(artist.name);
    const track = catalog.tracks[0]!;
    expect((await call(ts, 'GET', `/api/spotify/tracks/${track.spotify_id}`)).body.name).toBe(track.name);
    expect((await call(ts, 'GET', '/api/spotify/albums/doesNotExist123')).status).toBe(404);
  });

  it('several tracks: ?ids= answers `tracks` in order (null for unknown ids), at most 50 per call', async () => {
    const ids = ts.server.ctx.catalog.tracks.map((t) => t.spotify_id);
    const fifty = Array.from({ length: TRACK_LOOKUP_BATCH }, (_, i) => (i < ids.length ? ids[i]! : `unknown${i}`));
    const r = await call(ts, 'GET', `/api/spotify/tracks?ids=${fifty.join(',')}`);
    expect(r.status).toBe(200);
    expect(r.body.tracks).toHaveLength(50);
    expect(r.body.tracks[0].id).toBe(ids[0]);
    expect(r.body.tracks[49]).toBeNull();
    const tooMany = await call(ts, 'GET', `/api/spotify/tracks?ids=${[...fifty, ids[0]].join(',')}`);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc[0]).toBe('query');
    expect((await call(ts, 'GET', '/api/spotify/tracks?ids=')).status).toBe(422);
  });

  it('apple album and playlist by storefront', async () => {
    const { catalog } = ts.server.ctx;
    const album = catalog.albums[0]!;
    const a = await call(ts, 'GET', `/api/apple/albums/us/${album.apple_id}`);
    expect(a.status).toBe(200);
    expect(a.body.data[0]).toMatchObject({ id: album.apple_id, type: 'albums' });
    const pl = catalog.playlists[0]!;
    const p = await call(ts, 'GET', `/api/apple/playlists/de/${pl.apple_id}`);
    expect(p.body.data[0].id).toBe(pl.apple_id);
    expect((await call(ts, 'GET', `/api/apple/albums/usa/${album.apple_id}`)).status).toBe(422);
  });
});
