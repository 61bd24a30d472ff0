/**
 * The demo catalog that ships with the server (apps/server/catalog): fictional label artists,
 * albums, a playlist and synthesised tracks served as HLS. The Spotify and Apple Music emulators
 * and the `umg_hls` stream read it through this loader.
 *
 * catalog.json is a file format internal to the server (not a wire payload), so its schema lives
 * here. It is hand-written except `duration_ms`, which apps/server/scripts/generate-demo-catalog.sh
 * measures from the generated audio.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Absolute path of apps/server/catalog. */
export const DEMO_CATALOG_DIR = fileURLToPath(new URL('../../../catalog', import.meta.url));

const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected a lowercase slug like neon-harbour');
const spotifyId = z.string().regex(/^[0-9A-Za-z]{22}$/, 'expected a 22-character base62 Spotify id');
const appleId = z.string().regex(/^[1-9][0-9]*$/, 'expected a numeric Apple id');
const applePlaylistId = z.string().regex(/^pl\.[0-9a-f]{32}$/, 'expected pl. followed by 32 hex digits');
const imagePath = z
  .string()
  .regex(/^(?:[a-z0-9_-]+\/)*[a-z0-9_-]+\.png$/, 'expected a relative .png path like covers/x.png');
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD')
  .refine((s) => new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'not a calendar date');
const name = z.string().trim().min(1);

const artistSchema = z.strictObject({
  key: slug,
  name,
  spotify_id: spotifyId,
  apple_id: appleId,
  image: imagePath,
});

const albumSchema = z.strictObject({
  key: slug,
  name,
  artist_keys: z.array(slug).min(1),
  release_date: isoDate,
  spotify_id: spotifyId,
  apple_id: appleId,
  image: imagePath,
  track_keys: z.array(slug).min(1),
});

const playlistSchema = z.strictObject({
  key: slug,
  name,
  owner: name,
  description: z.string(),
  spotify_id: spotifyId,
  apple_id: applePlaylistId,
  image: imagePath,
  track_keys: z.array(slug).min(1),
});

const trackSchema = z.strictObject({
  key: slug,
  name,
  artist_keys: z.array(slug).min(1),
  album_key: slug,
  duration_ms: z.number().int().min(60_000).max(150_000),
  spotify_id: spotifyId,
  apple_id: appleId,
  isrc: z.string().regex(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/, 'expected a 12-character ISRC'),
  audio: slug,
});

const catalogSchema = z
  .strictObject({
    artists: z.array(artistSchema).min(1),
    albums: z.array(albumSchema).min(1),
    playlists: z.array(playlistSchema),
    tracks: z.array(trackSchema).min(1),
  })
  .superRefine((catalog, ctx) => {
    const issue = (path: (string | number)[], message: string): void => {
      ctx.addIssue({ code: 'custom', path, message });
    };
    const unique = <T>(list: 'artists' | 'albums' | 'playlists' | 'tracks', items: T[], field: keyof T & string): void => {
      const seen = new Set<unknown>();
      items.forEach((item, i) => {
        const value = item[field];
        if (seen.has(value)) issue([list, i, field], `duplicate ${field} ${String(value)}`);
        seen.add(value);
      });
    };
    for (const field of ['key', 'spotify_id', 'apple_id'] as const) {
      unique('artists', catalog.artists, field);
      unique('albums', catalog.albums, field);
      unique('playlists', catalog.playlists, field);
      unique('tracks', catalog.tracks, field);
    }
    unique('tracks', catalog.tracks, 'isrc');
    unique('tracks', catalog.tracks, 'audio');

    const artistKeys = new Set(catalog.artists.map((a) => a.key));
    const albums = new Map(catalog.albums.map((a) => [a.key, a]));
    const trackKeys = new Set(catalog.tracks.map((t) => t.key));
    catalog.albums.forEach((album, i) => {
      album.artist_keys.forEach((k, j) => {
        if (!artistKeys.has(k)) issue(['albums', i, 'artist_keys', j], `unknown artist ${k}`);
      });
      album.track_keys.forEach((k, j) => {
        const track = catalog.tracks.find((t) => t.key === k);
        if (!track) issue(['albums', i, 'track_keys', j], `unknown track ${k}`);
        else if (track.album_key !== album.key) {
          issue(['albums', i, 'track_keys', j], `track ${k} belongs to album ${track.album_key}`);
        }
      });
    });
    catalog.playlists.forEach((playlist, i) => {
      playlist.track_keys.forEach((k, j) => {
        if (!trackKeys.has(k)) issue(['playlists', i, 'track_keys', j], `unknown track ${k}`);
      });
    });
    catalog.tracks.forEach((track, i) => {
      track.artist_keys.forEach((k, j) => {
        if (!artistKeys.has(k)) issue(['tracks', i, 'artist_keys', j], `unknown artist ${k}`);
      });
      const album = albums.get(track.album_key);
      if (!album) issue(['tracks', i, 'album_key'], `unknown album ${track.album_key}`);
      else if (!album.track_keys.includes(track.key)) {
        issue(['tracks', i, 'album_key'], `album ${album.key} does not list track ${track.key}`);
      }
    });
  });

export type DemoCatalogData = z.infer<typeof catalogSchema>;
export type DemoArtist = z.infer<typeof artistSchema>;
export type DemoAlbum = z.infer<typeof albumSchema>;
export type DemoPlaylist = z.infer<typeof playlistSchema>;
export type DemoTrack = z.infer<typeof trackSchema>;
/** Aliases used by the emulators and the party code. */
export type CatalogArtist = DemoArtist;
export type CatalogAlbum = DemoAlbum;
export type CatalogPlaylist = DemoPlaylist;
export type CatalogTrack = DemoTrack;

export interface DemoCatalog {
  /** Absolute path of the catalog folder. */
  readonly dir: string;
  readonly artists: readonly DemoArtist[];
  readonly albums: readonly DemoAlbum[];
  readonly playlists: readonly DemoPlaylist[];
  readonly tracks: readonly DemoTrack[];

  artistBySpotifyId(id: string): DemoArtist | undefined;
  albumBySpotifyId(id: string): DemoAlbum | undefined;
  playlistBySpotifyId(id: string): DemoPlaylist | undefined;
  trackBySpotifyId(id: string): DemoTrack | undefined;
  artistByAppleId(id: string): DemoArtist | undefined;
  albumByAppleId(id: string): DemoAlbum | undefined;
  playlistByAppleId(id: string): DemoPlaylist | undefined;
  trackByAppleId(id: string): DemoTrack | undefined;
  trackByKey(key: string): DemoTrack | undefined;
  /**
   * The artist / album of a key referenced inside the catalog (`artist_keys`, `album_key`): the
   * schema guarantees those resolve, so an unknown key throws a DemoCatalogError.
   */
  artistByKey(key: string): DemoArtist;
  albumByKey(key: string): DemoAlbum;

  /** Tracks of the album, in album order. */
  albumTracks(album: DemoAlbum): DemoTrack[];
  /** Tracks of the playlist, in playlist order. */
  playlistTracks(playlist: DemoPlaylist): DemoTrack[];
  /** Albums on which the artist is one of the album artists, in catalog order. */
  artistAlbums(artist: DemoArtist): DemoAlbum[];
  /** Absolute path of the track's HLS folder (holds index.m3u8 and seg*.ts). */
  audioDir(track: DemoTrack): string;
  /** Absolute path of an image given relative to the catalog folder (e.g. covers/x.png). */
  imagePath(relativePath: string): string;
}

export class DemoCatalogError extends Error {
  override readonly name = 'DemoCatalogError';
}

function index<T>(items: readonly T[], by: (item: T) => string): (id: string) => T | undefined {
  const map = new Map(items.map((item) => [by(item), item]));
  return (id) => map.get(id);
}

/** Reads and validates `<dir>/catalog.json` (default: the shipped demo catalog). */
export function loadDemoCatalog(dir: string = DEMO_CATALOG_DIR): DemoCatalog {
  const root = resolve(dir);
  const file = join(root, 'catalog.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DemoCatalogError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    throw new DemoCatalogError(`invalid ${file}:\n${z.prettifyError(parsed.error)}`);
  }
  const data = parsed.data;

  const trackByKey = index(data.tracks, (t) => t.key);
  const required = <T>(kind: string, lookup: (key: string) => T | undefined) => (key: string): T => {
    const found = lookup(key);
    if (found === undefined) throw new DemoCatalogError(`no ${kind} ${key} in the demo catalog`);
    return found;
  };
  const tracksOf = (keys: readonly string[]): DemoTrack[] =>
    // the schema guarantees that every key resolves
    keys.map((k) => trackByKey(k)).filter((t): t is DemoTrack => t !== undefined);

  const inside = (relativePath: string): string => {
    const absolute = resolve(root, relativePath);
    const rel = relative(root, absolute);
    if (isAbsolute(relativePath) || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      throw new DemoCatalogError(`path escapes the catalog folder: ${relativePath}`);
    }
    return absolute;
  };

  return {
    dir: root,
    artists: data.artists,
    albums: data.albums,
    playlists: data.playlists,
    tracks: data.tracks,
    artistBySpotifyId: index(data.artists, (a) => a.spotify_id),
    albumBySpotifyId: index(data.albums, (a) => a.spotify_id),
    playlistBySpotifyId: index(data.playlists, (p) => p.spotify_id),
    trackBySpotifyId: index(data.tracks, (t) => t.spotify_id),
    artistByAppleId: index(data.artists, (a) => a.apple_id),
    albumByAppleId: index(data.albums, (a) => a.apple_id),
    playlistByAppleId: index(data.playlists, (p) => p.apple_id),
    trackByAppleId: index(data.tracks, (t) => t.apple_id),
    trackByKey,
    artistByKey: required('artist', index(data.artists, (a) => a.key)),
    albumByKey: required('album', index(data.albums, (a) => a.key)),
    albumTracks: (album) => tracksOf(album.track_keys),
    playlistTracks: (playlist) => tracksOf(playlist.track_keys),
    artistAlbums: (artist) => data.albums.filter((a) => a.artist_keys.includes(artist.key)),
    audioDir: (track) => inside(join('audio', track.audio)),
    imagePath: (relativePath) => inside(relativePath),
  };
}
