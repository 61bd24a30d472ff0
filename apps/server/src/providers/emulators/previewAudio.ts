import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PREVIEW_MAX_SECONDS, PreviewSegmentParams } from '@fanfare/protocol';
import type { FastifyInstance } from 'fastify';
import type { CatalogTrack, DemoCatalog } from '../catalog/catalog.ts';

/** Path (under an emulator's prefix) of a catalog track's preview file. */
export const previewAudioPath = (track: CatalogTrack): string => `/previews/${track.audio}.ts`;

/** The first segments of a track's HLS folder that reach `seconds`, in order. */
export async function previewSegmentFiles(catalog: DemoCatalog, track: CatalogTrack, seconds = PREVIEW_MAX_SECONDS): Promise<string[]> {
  const dir = catalog.audioDir(track);
  const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8');
  const files: string[] = [];
  let total = 0;
  for (const line of playlist.split(/\r?\n/)) {
    if (line.startsWith('#EXTINF:')) {
      // A segment starts only while the ones before it are short of `seconds`.
      if (total >= seconds) break;
      total += Number.parseFloat(line.slice('#EXTINF:'.length));
    } else if (line !== '' && !line.startsWith('#')) files.push(join(dir, line));
  }
  return files;
}

/**
 * The provider's preview file of a catalog track, like Spotify's `preview_url` (an MP3) or Apple's
 * `previews[].url` (an AAC file): here the track's first 30 s of the emulator's own audio, one
 * MPEG-TS file (the HLS segments end to end). Public, like the providers' preview hosts.
 */
export function registerPreviewAudio(app: FastifyInstance, catalog: DemoCatalog): void {
  const byAudio = new Map(catalog.tracks.map((t) => [t.audio, t]));
  app.get('/previews/:file', { schema: { hide: true } }, async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const audio = file.endsWith('.ts') ? file.slice(0, -3) : '';
    const track = PreviewSegmentParams.shape.audio.safeParse(audio).success ? byAudio.get(audio) : undefined;
    if (!track) return reply.status(404).send({ error: { status: 404, message: 'Non existing preview' } });
    const files = await previewSegmentFiles(catalog, track);
    const body = Readable.from(
      (async function* () {
        for (const f of files) yield* createReadStream(f);
      })(),
    );
    return reply.type('video/mp2t').header('cache-control', 'public, max-age=86400').send(body);
  });
}
