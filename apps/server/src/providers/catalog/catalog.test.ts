import { existsSync, mkdtempSync, openSync, readFileSync, readSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CATALOG_DIR, DemoCatalogError, loadDemoCatalog } from './catalog.ts';

const catalog = loadDemoCatalog();

function head(file: string, bytes: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const read = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** The #EXTINF durations (seconds) and segment URIs of an HLS media playlist. */
function parseM3u8(text: string): { durations: number[]; segments: string[]; ended: boolean } {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const durations = lines
    .filter((l) => l.startsWith('#EXTINF:'))
    .map((l) => Number(l.slice('#EXTINF:'.length).split(',')[0]));
  const segments = lines.filter((l) => !l.startsWith('#'));
  return { durations, segments, ended: lines.includes('#EXT-X-ENDLIST') };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('demo catalog', () => {
  it('loads from apps/server/catalog', () => {
    expect(catalog.dir).toBe(DEMO_CATALOG_DIR);
    expect(existsSync(join(DEMO_CATALOG_DIR, 'catalog.json'))).toBe(true);
    expect(catalog.tracks.length).toBeGreaterThan(0);
  });

  it('has at least 2 albums by at least 2 different artists and a playlist', () => {
    const fullAlbums = catalog.albums.filter((a) => a.track_keys.length >= 4);
    expect(fullAlbums.length).toBeGreaterThanOrEqual(2);
    expect(new Set(fullAlbums.flatMap((a) => a.artist_keys)).size).toBeGreaterThanOrEqual(2);
    expect(catalog.artists.length).toBeGreaterThanOrEqual(3);
    expect(catalog.playlists.length).toBeGreaterThanOrEqual(1);
    const playlist = catalog.playlists[0]!;
    const albumsInPlaylist = new Set(catalog.playlistTracks(playlist).map((t) => t.album_key));
    expect(albumsInPlaylist.size).toBeGreaterThanOrEqual(2);
  });

  it('has unique ids per service and unique keys', () => {
    const all = [...catalog.artists, ...catalog.albums, ...catalog.playlists, ...catalog.tracks];
    const spotify = all.map((e) => e.spotify_id);
    const apple = all.map((e) => e.apple_id);
    expect(new Set(spotify).size).toBe(spotify.length);
    expect(new Set(apple).size).toBe(apple.length);
    for (const list of [catalog.artists, catalog.albums, catalog.playlists, catalog.tracks]) {
      const keys = list.map((e) => e.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
    for (const id of spotify) expect(id).toMatch(/^[0-9A-Za-z]{22}$/);
    for (const p of catalog.playlists) expect(p.apple_id).toMatch(/^pl\.[0-9a-f]{32}$/);
  });

  it('finds every entry by its Spotify id, Apple id and key', () => {
    for (const a of catalog.artists) {
      expect(catalog.artistBySpotifyId(a.spotify_id)).toBe(a);
      expect(catalog.artistByAppleId(a.apple_id)).toBe(a);
      expect(catalog.artistByKey(a.key)).toBe(a);
      expect(catalog.artistAlbums(a).every((al) => al.artist_keys.includes(a.key))).toBe(true);
    }
    for (const al of catalog.albums) {
      expect(catalog.albumBySpotifyId(al.spotify_id)).toBe(al);
      expect(catalog.albumByAppleId(al.apple_id)).toBe(al);
      expect(catalog.albumByKey(al.key)).toBe(al);
      expect(catalog.albumTracks(al).map((t) => t.key)).toEqual(al.track_keys);
      for (const k of al.artist_keys) expect(catalog.artistAlbums(catalog.artistByKey(k))).toContain(al);
    }
    for (const p of catalog.playlists) {
      expect(catalog.playlistBySpotifyId(p.spotify_id)).toBe(p);
      expect(catalog.playlistByAppleId(p.apple_id)).toBe(p);
      expect(catalog.playlistTracks(p).map((t) => t.key)).toEqual(p.track_keys);
    }
    for (const t of catalog.tracks) {
      expect(catalog.trackBySpotifyId(t.spotify_id)).toBe(t);
      expect(catalog.trackByAppleId(t.apple_id)).toBe(t);
      expect(catalog.trackByKey(t.key)).toBe(t);
    }
    expect(catalog.trackBySpotifyId('0000000000000000000000')).toBeUndefined();
    expect(catalog.albumByAppleId('1')).toBeUndefined();
    expect(catalog.trackByKey('no-such-track')).toBeUndefined();
    expect(() => catalog.artistByKey('no-such-artist')).toThrow(DemoCatalogError);
  });

  it.each(catalog.tracks.map((t) => [t.key, t] as const))(
    'track %s: HLS playlist matches duration_ms and its segments are MPEG-TS',
    (_key, track) => {
      expect(track.duration_ms).toBeGreaterThanOrEqual(60_000);
      expect(track.duration_ms).toBeLessThanOrEqual(150_000);
      const dir = catalog.audioDir(track);
      expect(dir).toBe(join(DEMO_CATALOG_DIR, 'audio', track.audio));
      const manifest = join(dir, 'index.m3u8');
      expect(existsSync(manifest)).toBe(true);
      const { durations, segments, ended } = parseM3u8(readFileSync(manifest, 'utf8'));
      expect(ended).toBe(true);
      expect(segments.length).toBeGreaterThan(0);
      expect(durations).toHaveLength(segments.length);
      const totalMs = durations.reduce((sum, d) => sum + d, 0) * 1000;
      expect(Math.abs(totalMs - track.duration_ms)).toBeLessThanOrEqual(100);
      for (const segment of segments) {
        const file = join(dir, segment);
        expect(dirname(file), `segment ${segment} stays in its folder`).toBe(dir);
        expect(existsSync(file), `${track.audio}/${segment} exists`).toBe(true);
        expect(head(file, 1)[0], `${track.audio}/${segment} starts with 0x47`).toBe(0x47);
      }
    },
  );

  it('has every image as a PNG file', () => {
    const images = [...catalog.artists, ...catalog.albums, ...catalog.playlists].map((e) => e.image);
    for (const image of images) {
      const file = catalog.imagePath(image);
      expect(existsSync(file), `${image} exists`).toBe(true);
      expect(head(file, 8).equals(PNG_SIGNATURE), `${image} is a PNG`).toBe(true);
    }
  });

  it('keeps resolved paths inside the catalog folder', () => {
    expect(catalog.imagePath('covers/x.png')).toBe(join(DEMO_CATALOG_DIR, 'covers', 'x.png'));
    expect(() => catalog.imagePath('../package.json')).toThrow(DemoCatalogError);
    expect(() => catalog.imagePath('/etc/passwd')).toThrow(DemoCatalogError);
  });
});

describe('loadDemoCatalog validation', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const withCatalog = (mutate: (data: Record<string, unknown[]>) => void): string => {
    const data = JSON.parse(readFileSync(join(DEMO_CATALOG_DIR, 'catalog.json'), 'utf8')) as Record<string, unknown[]>;
    mutate(data);
    const dir = mkdtempSync(join(tmpdir(), 'demo-catalog-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(data));
    return dir;
  };

  it('rejects a track whose album is unknown', () => {
    const dir = withCatalog((d) => {
      (d.tracks![0] as { album_key: string }).album_key = 'missing-album';
    });
    expect(() => loadDemoCatalog(dir)).toThrow(/unknown album missing-album/);
  });

  it('rejects duplicate Spotify ids', () => {
    const dir = withCatalog((d) => {
      (d.tracks![1] as { spotify_id: string }).spotify_id = (d.tracks![0] as { spotify_id: string }).spotify_id;
    });
    expect(() => loadDemoCatalog(dir)).toThrow(/duplicate spotify_id/);
  });

  it('rejects a missing file with a DemoCatalogError', () => {
    expect(() => loadDemoCatalog(join(tmpdir(), 'no-such-demo-catalog'))).toThrow(DemoCatalogError);
  });
});
