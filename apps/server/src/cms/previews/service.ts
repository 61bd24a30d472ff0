/**
 * HLS preview streams of the campaign pages (spec 7 "HLS preview"): a track of the demo catalog,
 * cut to its first PREVIEW_MAX_SECONDS, served from the committed HLS folders.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PREVIEW_MAX_SECONDS } from '@fanfare/protocol';
import type { CatalogTrack, DemoCatalog } from '../../providers/catalog/catalog.ts';

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
