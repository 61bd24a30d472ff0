/**
 * Finding an album or playlist: the demo catalog the provider emulators serve (apps/server/catalog,
 * bundled at build time so a fresh install offers its music by name) and ids or links pasted from
 * Spotify or Apple Music.
 */
import type { LoginService, MusicType, PlayerService } from '@fanfare/protocol';
import catalog from '../../../../server/catalog/catalog.json' with { type: 'json' };

export interface CatalogPick {
  type: MusicType;
  name: string;
  /** Artist names (albums) or the owner (playlists). */
  by: string;
  ids: Record<LoginService, string>;
}

const artistName = new Map(catalog.artists.map((a) => [a.key, a.name]));

/** Every album and playlist of the demo catalog. */
export const DEMO_CATALOG: CatalogPick[] = [
  ...catalog.albums.map((a) => ({ type: 'album' as const, name: a.name, by: a.artist_keys.map((k) => artistName.get(k) ?? k).join(', '), ids: { spotify: a.spotify_id, apple: a.apple_id } })),
  ...catalog.playlists.map((p) => ({ type: 'playlist' as const, name: p.name, by: p.owner, ids: { spotify: p.spotify_id, apple: p.apple_id } })),
];

/** The demo artists, for the follow editor. */
export const DEMO_ARTISTS = catalog.artists.map((a) => ({ name: a.name, ids: { spotify: a.spotify_id, apple: a.apple_id } as Record<LoginService, string> }));

/** The id a pick has on `service`: the internal stream uses the Spotify ids of the catalog. */
export function pickId(pick: CatalogPick, service: PlayerService): string {
  return service === 'apple' ? pick.ids.apple : pick.ids.spotify;
}

/** Demo entries whose name or artist contains `text` (case-insensitive); all for an empty text. */
export function searchDemo(text: string, type: MusicType | null = null): CatalogPick[] {
  const t = text.trim().toLowerCase();
  return DEMO_CATALOG.filter((p) => (type === null || p.type === type) && (t === '' || p.name.toLowerCase().includes(t) || p.by.toLowerCase().includes(t)));
}

/**
 * Reads a pasted Spotify or Apple Music link (or a plain id): type, id and, for Apple, the
 * storefront country. Null when the text is neither.
 */
export function parseCatalogRef(text: string): { type?: MusicType; id: string; service?: 'spotify' | 'apple'; country?: string } | null {
  const t = text.trim();
  if (t === '') return null;
  const spotifyUri = /^spotify:(album|playlist):([0-9A-Za-z]{22})$/.exec(t);
  if (spotifyUri) return { type: spotifyUri[1] as MusicType, id: spotifyUri[2]!, service: 'spotify' };
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return /^[\w.-]{1,200}$/.test(t) ? { id: t } : null;
  }
  if (url.hostname === 'open.spotify.com') {
    const m = /\/(album|playlist)\/([0-9A-Za-z]{22})/.exec(url.pathname);
    return m ? { type: m[1] as MusicType, id: m[2]!, service: 'spotify' } : null;
  }
  if (url.hostname === 'music.apple.com') {
    const m = /^\/([a-z]{2})\/(album|playlist)\/(?:[^/]+\/)?([\w.]+)$/.exec(url.pathname);
    return m ? { type: m[2] as MusicType, id: m[3]!, service: 'apple', country: m[1] } : null;
  }
  return null;
}

/** A catalog entry the campaign player module can take: a track, or an album or playlist as its tracks. */
export interface PlayerPick {
  value: string;
  label: string;
  /** Spotify track ids, in order (the player module plays Spotify track ids). */
  trackIds: string[];
}

const trackByKey = new Map(catalog.tracks.map((t) => [t.key, t]));
const idsOf = (keys: string[]) => keys.flatMap((k) => (trackByKey.get(k) ? [trackByKey.get(k)!.spotify_id] : []));

/** Every track, album and playlist of the catalog, as the player module's picker offers them. */
export const PLAYER_PICKS: PlayerPick[] = [
  ...catalog.tracks.map((t) => ({ value: `track:${t.key}`, label: `Track · ${t.name} — ${t.artist_keys.map((k) => artistName.get(k) ?? k).join(', ')}`, trackIds: [t.spotify_id] })),
  ...catalog.albums.map((a) => ({ value: `album:${a.key}`, label: `Album · ${a.name} — ${a.artist_keys.map((k) => artistName.get(k) ?? k).join(', ')} (${a.track_keys.length} tracks)`, trackIds: idsOf(a.track_keys) })),
  ...catalog.playlists.map((p) => ({ value: `playlist:${p.key}`, label: `Playlist · ${p.name} — ${p.owner} (${p.track_keys.length} tracks)`, trackIds: idsOf(p.track_keys) })),
];

/** The catalog name of a Spotify track id, or null for an id the catalog does not know. */
export function trackName(spotifyId: string): string | null {
  const t = catalog.tracks.find((x) => x.spotify_id === spotifyId);
  return t ? t.name : null;
}

/** The player's track ids with a pick's tracks added at the end (no duplicates, at most `max`). */
export function addPickedTracks(current: string[], pick: PlayerPick, max = 50): string[] {
  return [...new Set([...current, ...pick.trackIds])].slice(0, max);
}
