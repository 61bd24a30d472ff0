import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PREVIEW_MANIFEST_PATH, PREVIEW_MAX_SECONDS } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { z } from 'zod';
import { cmsApi, errorDetail, failure, rawCall, startCmsServer } from '../testing.ts';
import { previewManifest } from './service.ts';

/** Previews transcode with real ffmpeg: on a shared, busy machine that may take a while. */
const TRANSCODE_TIMEOUT = 120_000;

describe('HLS preview manifest (unit)', () => {
  const source = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', ...Array.from({ length: 12 }, (_, i) => [`#EXTINF:4.0,`, `seg${String(i).padStart(3, '0')}.ts`]).flat(), '#EXT-X-ENDLIST', ''].join('\n');

  it('campaign spec §7: a preview lists the first segments up to the preview length, rewritten to absolute URLs, and ends', () => {
    const m = previewManifest(source, (f) => `https://cms/x/${f}`, 30);
    const segments = m.split('\n').filter((l) => l.startsWith('https://'));
    expect(segments).toHaveLength(8); // 8 × 4 s reaches 30 s
    expect(segments[0]).toBe('https://cms/x/seg000.ts');
    expect(m.startsWith('#EXTM3U\n#EXT-X-VERSION:3')).toBe(true);
    expect(m.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(m.match(/#EXT-X-ENDLIST/g)).toHaveLength(1);
  });
});

describe.each(DB_TARGETS)('HLS preview stream over HTTP (%s)', (db) => {
  let ts: TestServer;
  /** The manifest's path with its query, as the typed client builds it. */
  const manifestPath = (query: { id: string; callback?: string }) => {
    const url = new URL(cmsApi(ts).url('previewManifest', { query }));
    return url.pathname + url.search;
  };
  beforeAll(async () => {
    ts = await startCmsServer(db);
  });
  afterAll(() => ts?.close());

  it('campaign spec §7: GET the stream manifest with id and callback serves real audio of the demo catalog', async () => {
    const track = ts.server.ctx.catalog.tracks[0]!;
    // Raw fetch at the client's URL: the answer is an HLS playlist, not JSON.
    const r = await rawCall(ts, 'GET', manifestPath({ id: track.spotify_id, callback: 'campaign-1' }));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/vnd.apple.mpegurl');
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('#EXTM3U');
    const total = lines.filter((l) => l.startsWith('#EXTINF:')).reduce((s, l) => s + Number.parseFloat(l.slice(8)), 0);
    expect(total).toBeGreaterThanOrEqual(PREVIEW_MAX_SECONDS);
    expect(total).toBeLessThan(PREVIEW_MAX_SECONDS + 5);
    const segmentUrl = lines.find((l) => l.startsWith('http'))!;
    expect(segmentUrl.startsWith(ts.cmsUrl)).toBe(true);
    const seg = await fetch(segmentUrl); // raw: a media segment file, not an API route
    expect(seg.status).toBe(200);
    expect(seg.headers.get('content-type')).toBe('video/mp2t');
    const bytes = new Uint8Array(await seg.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes[0]).toBe(0x47); // MPEG-TS sync byte: a real transport stream, not a placeholder
    expect(bytes[188]).toBe(0x47);
  }, TRANSCODE_TIMEOUT);

  it('campaign spec §7: the id may be the Apple id or the ISRC; the callback is optional', async () => {
    const track = ts.server.ctx.catalog.tracks[1]!;
    /** The preview's segment durations, and its segment URLs. */
    const previewOf = async (query: { id: string; callback?: string }) => {
      const r = await rawCall(ts, 'GET', manifestPath(query));
      expect(r.status).toBe(200);
      expect(r.text.startsWith('#EXTM3U')).toBe(true);
      const lines = r.text.split('\n');
      return { durations: lines.filter((l) => l.startsWith('#EXTINF:')), urls: lines.filter((l) => l.startsWith('http')) };
    };
    const bySpotify = await previewOf({ id: track.spotify_id });
    expect(bySpotify.urls.length).toBeGreaterThan(0);
    // The same 30 s, whichever id names the track and with or without a callback (each id form
    // asks its own provider, so each has its own cached folder).
    const byApple = await previewOf({ id: track.apple_id });
    const byIsrc = await previewOf({ id: track.isrc, callback: 'c1' });
    expect(byApple.durations).toEqual(bySpotify.durations);
    expect(byIsrc.durations).toEqual(bySpotify.durations);
    expect(byIsrc.urls).toHaveLength(bySpotify.urls.length);
    // Asked again, the manifest is the same: served from the cache, not transcoded again.
    expect((await previewOf({ id: track.spotify_id })).urls).toEqual(bySpotify.urls);
  }, 3 * TRANSCODE_TIMEOUT);

  it('campaign spec §7: with ffmpeg, a preview plays the provider\'s preview file (the emulators\' own audio), transcoded into the cache', async () => {
    const track = ts.server.ctx.catalog.tracks[2]!;
    // The emulators expose a preview file for their tracks, as Spotify (preview_url) and Apple (previews[].url) do.
    const spotifyPreview = await ts.server.ctx.providers.spotify.previewUrl(track.spotify_id);
    const applePreview = await ts.server.ctx.providers.apple.songPreviewUrl('us', { isrc: track.isrc });
    expect(spotifyPreview).toBe(`${ts.partyUrl}/emulator/spotify/previews/${track.audio}.ts`);
    expect(applePreview).toBe(`${ts.partyUrl}/emulator/apple/previews/${track.audio}.ts`);
    const file = await fetch(spotifyPreview!); // raw: the provider's preview file, not an API route
    expect(file.status).toBe(200);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes[0]).toBe(0x47);
    const r = await rawCall(ts, 'GET', manifestPath({ id: track.spotify_id }));
    expect(r.status).toBe(200);
    const segmentUrls = r.text.split('\n').filter((l) => l.startsWith('http'));
    expect(segmentUrls.every((u) => u.startsWith(`${ts.cmsUrl}/media/preview-cache/`))).toBe(true);
    // On disk under the data directory, one folder per track and provider.
    const folder = segmentUrls[0]!.split('/').at(-2)!;
    expect(existsSync(join(ts.dataDir, 'previews', folder, 'index.m3u8'))).toBe(true);
  }, TRANSCODE_TIMEOUT);

  it('bad input gets a clear 4xx with {detail}: unknown track 404, bad id or callback 422, path escapes refused', async () => {
    const cms = cmsApi(ts);
    const unknown = await failure(cms.call('previewManifest', { query: { id: 'nothere0000000000000000' } }));
    expect(unknown.status).toBe(404);
    expect(errorDetail(unknown.body)).toBe('No preview for this track');
    // Ids of a provider's form that the provider does not know: 404 too, not a 502.
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', '999999999', 'XXA001900001']) {
      const r = await failure(cms.call('previewManifest', { query: { id } }));
      expect(r.status).toBe(404);
    }
    // Deliberately invalid queries (a missing id does not type-check): raw.
    expect((await rawCall(ts, 'GET', PREVIEW_MANIFEST_PATH)).status).toBe(422);
    expect((await failure(cms.call('previewManifest', { query: { id: 'a/../b' } }))).status).toBe(422);
    expect((await failure(cms.call('previewManifest', { query: { id: 'abc', callback: '<script>' } }))).status).toBe(422);
    // Media segments are files, not API routes: raw.
    expect((await rawCall(ts, 'GET', '/media/previews/not-a-track/seg000.ts')).status).toBe(404);
    expect((await rawCall(ts, 'GET', '/media/previews/harbour-lights/index.m3u8')).status).toBe(422);
    expect((await rawCall(ts, 'GET', '/media/previews/harbour-lights/seg999.ts')).status).toBe(404);
    expect((await rawCall(ts, 'GET', '/media/preview-cache/0123456789abcdef0123456789abcdef/seg000.ts')).status).toBe(404);
    expect((await rawCall(ts, 'GET', '/media/preview-cache/..%2F..%2Fetc/seg000.ts')).status).toBe(422);
  });

  it('the preview is documented in OpenAPI', async () => {
    // The OpenAPI document is not an API route of the table: raw, narrowed with zod.
    const doc = await rawCall(ts, 'GET', '/docs/json');
    expect(doc.status).toBe(200);
    const Operation = z.object({ operationId: z.string(), parameters: z.array(z.object({ name: z.string() })) });
    const paths = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) }).parse(doc.body).paths;
    const op = Operation.parse(paths[PREVIEW_MANIFEST_PATH]?.get);
    expect(op.operationId).toBe('previewManifest');
    expect(op.parameters.map((p) => p.name).sort()).toEqual(['callback', 'id']);
    expect(Object.keys(paths).some((p) => p.startsWith('/media/'))).toBe(false);
  });
});
