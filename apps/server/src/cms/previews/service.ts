/**
 * HLS preview streams of the campaign pages (spec 7 "HLS preview"): a track's first
 * PREVIEW_MAX_SECONDS, from the provider's preview file (transcoded, cache.ts) or the demo
 * catalog's committed HLS folders.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PREVIEW_MAX_SECONDS } from '@fanfare/protocol';
import type { CatalogTrack, DemoCatalog } from '../../providers/catalog/catalog.ts';
import type { Providers } from '../../providers/providers.ts';
import { previewCacheKey } from './cache.ts';

/** The catalog track a preview id names: Spotify id, Apple id or ISRC. */
export function previewTrack(catalog: DemoCatalog, id: string): CatalogTrack | undefined {
  return catalog.trackBySpotifyId(id) ?? catalog.trackByAppleId(id) ?? catalog.tracks.find((t) => t.isrc === id);
}

/**
 * The preview manifest: the track's own VOD playlist up to PREVIEW_MAX_SECONDS, its segment
 * lines rewritten to `segmentUrl(file)`, closed with ENDLIST so players know it is complete.
 */
export function previewManifest(source: string, segmentUrl: (file: string) => string, maxSeconds = PREVIEW_MAX_SECONDS): string {
  const out: string[] = [];
  let seconds = 0;
  let pending: string | null = null;
  for (const line of source.split(/\r?\n/)) {
    if (line === '' || line === '#EXT-X-ENDLIST') continue;
    if (line.startsWith('#EXTINF:')) {
      if (seconds >= maxSeconds) break;
      pending = line;
      seconds += Number.parseFloat(line.slice('#EXTINF:'.length));
      continue;
    }
    if (!line.startsWith('#')) {
      if (pending) out.push(pending, segmentUrl(line));
      pending = null;
      continue;
    }
    out.push(line);
  }
  out.push('#EXT-X-ENDLIST', '');
  return out.join('\n');
}

export async function readTrackPlaylist(catalog: DemoCatalog, track: CatalogTrack): Promise<string> {
  return readFile(join(catalog.audioDir(track), 'index.m3u8'), 'utf8');
}

/** Spotify ids are 22 base62 characters; Apple ids are digits; ISRCs are 12 characters (CC-XXX-YY-NNNNN). */
const SPOTIFY_ID = /^[0-9A-Za-z]{22}$/;
const APPLE_ID = /^[1-9][0-9]{0,19}$/;
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;
/** The storefront preview lookups ask when the page names none (Apple's default, as the lookups'). */
export const PREVIEW_STOREFRONT = 'us';

export interface RemotePreviewSource {
  /** Cache key of the track (a hash of service and id). */
  key: string;
  /** The provider's preview file URL, null when it offers none; a ProviderError when it fails. */
  previewUrl: () => Promise<string | null>;
}

/** Which provider an id names, by its form, and how to ask it for the preview file; null for no provider's form. */
export function remotePreviewSource(providers: Providers, id: string): RemotePreviewSource | null {
  if (SPOTIFY_ID.test(id)) return { key: previewCacheKey('spotify', id), previewUrl: () => providers.spotify.previewUrl(id) };
  if (APPLE_ID.test(id)) return { key: previewCacheKey('apple', id), previewUrl: () => providers.apple.songPreviewUrl(PREVIEW_STOREFRONT, { id }) };
  if (ISRC.test(id)) return { key: previewCacheKey('isrc', id), previewUrl: () => providers.apple.songPreviewUrl(PREVIEW_STOREFRONT, { isrc: id }) };
  return null;
}
