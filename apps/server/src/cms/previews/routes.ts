import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { CMS_ROUTES, PreviewSegmentParams } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { notFound } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { cmsRoute } from '../route.ts';
import { previewManifest, previewTrack, readTrackPlaylist } from './service.ts';

/** Where the segments of preview streams are served (a static-file route: `/media/*`). */
export const PREVIEW_SEGMENT_PREFIX = '/media/previews';

/**
 * The HLS preview stream (spec 7): `GET /api/previews/manifest.m3u8?id=&callback=` on the CMS
 * listener, and the segments it lists. Public, like the music lookups; hls.js on the page (or
 * Safari natively) plays it.
 */
export async function registerPreviewRoutes(app: App, ctx: ServerContext): Promise<void> {
  const { catalog } = ctx;
  const audioNames = new Set(catalog.tracks.map((t) => t.audio));

  cmsRoute(ctx)(app, CMS_ROUTES.previewManifest, async (req, reply) => {
    const track = previewTrack(catalog, req.query.id);
    if (!track) throw notFound('No preview for this track');
    req.log.info({ track: track.key, callback: req.query.callback ?? null }, 'preview played');
    const base = `${ctx.config.cmsPublicUrl}${PREVIEW_SEGMENT_PREFIX}/${encodeURIComponent(track.audio)}`;
    const body = previewManifest(await readTrackPlaylist(catalog, track), (file) => `${base}/${encodeURIComponent(file)}`);
    return reply.type('application/vnd.apple.mpegurl').header('cache-control', 'public, max-age=300').send(body);
  });

  app.get(`${PREVIEW_SEGMENT_PREFIX}/:audio/:segment`, { schema: { hide: true, params: PreviewSegmentParams } }, async (req, reply) => {
    // Only folders of catalog tracks, only segNNN.ts names (the params schema): no path escapes the catalog.
    if (!audioNames.has(req.params.audio)) throw notFound('No such preview');
    const stream = createReadStream(join(catalog.dir, 'audio', req.params.audio, req.params.segment));
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    }).catch(() => {
      throw notFound('No such segment');
    });
    return reply.type('video/mp2t').header('cache-control', 'public, max-age=86400, immutable').send(stream);
  });
}
