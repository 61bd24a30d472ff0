import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CMS_ROUTES, PreviewSegmentParams } from '@fanfare/protocol';
import type { FastifyReply } from 'fastify';
import type { ServerContext } from '../../context.ts';
import { badGateway, notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { ProviderError } from '../../providers/http.ts';
import { cmsRoute } from '../route.ts';
import { PreviewCache } from './cache.ts';
import { previewManifest, previewTrack, readTrackPlaylist, remotePreviewSource } from './service.ts';

/** Where the segments of the demo catalog's preview streams are served (`/media/*`). */
export const PREVIEW_SEGMENT_PREFIX = '/media/previews';
/** Where the segments of transcoded previews (the disk cache under DATA_DIR/previews) are served. */
export const PREVIEW_CACHE_PREFIX = '/media/preview-cache';

/**
 * The HLS preview stream (spec 7): `GET /api/previews/manifest.m3u8?id=&callback=` on the CMS
 * listener, and the segments it lists. Public, like the music lookups; hls.js on the page (or
 * Safari natively) plays it.
 *
 * Any track the provider knows by the id (a Spotify id, an Apple id, an ISRC through Apple) plays
 * from the provider's own preview file, transcoded once by ffmpeg and cached on disk; a track of
 * the demo catalog plays from its committed HLS when the provider offers no preview, cannot be
 * reached, or ffmpeg is missing (logged once). Only a track nobody knows is a 404.
 *
 * `callback` names who plays the preview (the page sends its campaign id). The spec names the
 * parameter and nothing more (docs/decisions/0037-preview-streams.md): it is logged with the
 * play, and changes neither the manifest nor its caching.
 */
export async function registerPreviewRoutes(app: App, ctx: ServerContext): Promise<void> {
  const { catalog } = ctx;
  const audioNames = new Set(catalog.tracks.map((t) => t.audio));
  const cache = new PreviewCache({
    dir: join(ctx.config.dataDir, 'previews'),
    maxBytes: ctx.config.previews.cacheMaxBytes,
    ffmpegPath: ctx.config.previews.ffmpegPath,
    logger: ctx.logger,
  });
  // At start-up, so that a missing ffmpeg is in the log before the first fan asks.
  void cache.ffmpegAvailable();
  const send = (reply: FastifyReply, body: string) =>
    reply.type('application/vnd.apple.mpegurl').header('cache-control', 'public, max-age=300').send(body);

  /** The cached HLS folder of the provider's preview, or null (no preview, unknown, or no ffmpeg). */
  const transcoded = async (id: string, catalogKnows: boolean): Promise<string | null> => {
    const source = remotePreviewSource(ctx.providers, id);
    if (!source || !(await cache.ffmpegAvailable())) return null;
    try {
      return await cache.get(source.key, async () => {
        try {
          return await source.previewUrl();
        } catch (err) {
          // The provider does not know the id (404, or 400 for an id of a wrong form): no preview.
          if (err instanceof ProviderError && (err.status === 404 || err.status === 400)) return null;
          throw err;
        }
      });
    } catch (err) {
      ctx.logger.warn({ err, id }, 'preview from the provider failed');
      if (catalogKnows) return null;
      throw badGateway('The streaming service preview could not be prepared');
    }
  };

  cmsRoute(ctx)(app, CMS_ROUTES.previewManifest, async (req, reply) => {
    const { id } = req.query;
    const track = previewTrack(catalog, id);
    const folder = await transcoded(id, track !== undefined);
    req.log.info({ id, track: track?.key ?? null, source: folder ? 'provider' : 'catalog', callback: req.query.callback ?? null }, 'preview played');
    if (folder) {
      const base = `${ctx.config.cmsPublicUrl}${PREVIEW_CACHE_PREFIX}/${folder.split('/').pop()!}`;
      return send(reply, previewManifest(await readFile(join(folder, 'index.m3u8'), 'utf8'), (file) => `${base}/${encodeURIComponent(file)}`));
    }
    if (!track) throw notFound('No preview for this track');
    const base = `${ctx.config.cmsPublicUrl}${PREVIEW_SEGMENT_PREFIX}/${encodeURIComponent(track.audio)}`;
    return send(reply, previewManifest(await readTrackPlaylist(catalog, track), (file) => `${base}/${encodeURIComponent(file)}`));
  });

  const serveSegment = async (file: string, reply: FastifyReply) => {
    const stream = createReadStream(file);
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    }).catch(() => {
      throw notFound('No such segment');
    });
    return reply.type('video/mp2t').header('cache-control', 'public, max-age=86400, immutable').send(stream);
  };

  app.get(`${PREVIEW_SEGMENT_PREFIX}/:audio/:segment`, { schema: { hide: true, params: PreviewSegmentParams } }, async (req, reply) => {
    // Only folders of catalog tracks, only segNNN.ts names (the params schema): no path escapes the catalog.
    if (!audioNames.has(req.params.audio)) throw notFound('No such preview');
    return serveSegment(join(catalog.dir, 'audio', req.params.audio, req.params.segment), reply);
  });

  app.get(`${PREVIEW_CACHE_PREFIX}/:audio/:segment`, { schema: { hide: true, params: PreviewSegmentParams } }, async (req, reply) => {
    // Cache keys are hex hashes and segment names segNNN.ts (the params schema): no path escapes the cache.
    const folder = cache.cached(req.params.audio);
    if (!folder) throw notFound('No such preview');
    return serveSegment(join(folder, req.params.segment), reply);
  });
}
