import { PREVIEW_MANIFEST_PATH, PREVIEW_MAX_SECONDS } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { z } from 'zod';
import { cmsApi, errorDetail, failure, rawCall, startCmsServer } from '../testing.ts';
import { previewManifest } from './service.ts';

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
  });

  it('campaign spec §7: the id may be the Apple id or the ISRC; the callback is optional', async () => {
    const track = ts.server.ctx.catalog.tracks[1]!;
    const segmentsOf = async (query: { id: string; callback?: string }) => {
      const r = await rawCall(ts, 'GET', manifestPath(query));
      expect(r.status).toBe(200);
      expect(r.text.startsWith('#EXTM3U')).toBe(true);
      return r.text.split('\n').filter((l) => l.startsWith('http'));
    };
    const bySpotify = await segmentsOf({ id: track.spotify_id });
    expect(bySpotify.length).toBeGreaterThan(0);
    // The same preview, whichever id names the track and with or without a callback.
    expect(await segmentsOf({ id: track.apple_id })).toEqual(bySpotify);
    expect(await segmentsOf({ id: track.isrc, callback: 'c1' })).toEqual(bySpotify);
  });

  it('bad input gets a clear 4xx with {detail}: unknown track 404, bad id or callback 422, path escapes refused', async () => {
    const cms = cmsApi(ts);
    const unknown = await failure(cms.call('previewManifest', { query: { id: 'nothere0000000000000000' } }));
    expect(unknown.status).toBe(404);
    expect(errorDetail(unknown.body)).toBe('No preview for this track');
    // Deliberately invalid queries (a missing id does not type-check): raw.
    expect((await rawCall(ts, 'GET', PREVIEW_MANIFEST_PATH)).status).toBe(422);
    expect((await failure(cms.call('previewManifest', { query: { id: 'a/../b' } }))).status).toBe(422);
    expect((await failure(cms.call('previewManifest', { query: { id: 'abc', callback: '<script>' } }))).status).toBe(422);
    // Media segments are files, not API routes: raw.
    expect((await rawCall(ts, 'GET', '/media/previews/not-a-track/seg000.ts')).status).toBe(404);
    expect((await rawCall(ts, 'GET', '/media/previews/harbour-lights/index.m3u8')).status).toBe(422);
    expect((await rawCall(ts, 'GET', '/media/previews/harbour-lights/seg999.ts')).status).toBe(404);
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
