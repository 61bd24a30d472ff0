/**
 * Previews of tracks only a provider knows (not the demo catalog), over real HTTP with real
 * ffmpeg: a stand-in Spotify Web API on its own port answers the track lookups and serves the
 * preview files (MP3s that ffmpeg synthesised for the test), counting what it is asked.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PREVIEW_MANIFEST_PATH, PREVIEW_MAX_SECONDS } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.ts';
import { cmsApi, rawCall, startCmsServer } from '../testing.ts';

/** Track ids the stand-in knows (22 base62 characters, none in the demo catalog). */
const WITH_PREVIEW = 'ProviderOnlyTrack00001';
const SHARED = 'ProviderOnlyTrack00002';
const NO_PREVIEW = 'ProviderOnlyTrack00003';
const FAILING = 'ProviderOnlyTrack00004';

interface StandIn {
  url: string;
  lookups: Map<string, number>;
  downloads: Map<string, number>;
  close(): Promise<void>;
}

async function startStandIn(mp3: Buffer): Promise<StandIn> {
  const lookups = new Map<string, number>();
  const downloads = new Map<string, number>();
  const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const track = /^\/v1\/tracks\/(\w+)$/.exec(path)?.[1];
    if (track) {
      count(lookups, track);
      if (track === FAILING) return void res.writeHead(500).end('{"error":{"status":500}}');
      if (![WITH_PREVIEW, SHARED, NO_PREVIEW].includes(track)) return void res.writeHead(404).end('{"error":{"status":404}}');
      const body = {
        id: track,
        name: `Track ${track}`,
        duration_ms: 200_000,
        track_number: 1,
        artists: [{ id: 'a', name: 'Someone' }],
        uri: `spotify:track:${track}`,
        album: { name: 'Elsewhere', images: [] },
        preview_url: track === NO_PREVIEW ? null : `${base}/previews/${track}.mp3`,
      };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    const preview = /^\/previews\/(\w+)\.mp3$/.exec(path)?.[1];
    if (preview) {
      count(downloads, preview);
      return void res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': mp3.length }).end(mp3);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, lookups, downloads, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** ffmpeg runs for real: on a shared, busy machine a transcode may take a while. */
const TRANSCODE_TIMEOUT = 120_000;

/** Seconds of a manifest's segments. */
const secondsOf = (manifest: string) =>
  manifest
    .split('\n')
    .filter((l) => l.startsWith('#EXTINF:'))
    .reduce((s, l) => s + Number.parseFloat(l.slice(8)), 0);

describe('HLS previews of tracks only a provider knows (real ffmpeg, real HTTP)', () => {
  let work: string;
  let standIn: StandIn;
  let ts: TestServer;
  /** Raw fetch at the typed client's URL: the answer is an HLS playlist, not JSON. */
  const manifest = (id: string) => {
    const url = new URL(cmsApi(ts).url('previewManifest', { query: { id, callback: 'campaign-9' } }));
    return rawCall(ts, 'GET', url.pathname + url.search);
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'fanfare-preview-src-'));
    // A 45 s tone: longer than a preview, so the cut to 30 s is the server's.
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=45', '-c:a', 'libmp3lame', '-b:a', '64k', join(work, 'tone.mp3')]);
    standIn = await startStandIn(readFileSync(join(work, 'tone.mp3')));
    ts = await startCmsServer('sqlite', { SPOTIFY_API_URL: `${standIn.url}/v1` });
  });
  afterAll(async () => {
    await ts?.close();
    await standIn?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('campaign spec §7: a track outside the catalog plays the first 30 s of its provider preview, as MPEG-TS segments', async () => {
    const r = await manifest(WITH_PREVIEW);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/vnd.apple.mpegurl');
    expect(r.text.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const seconds = secondsOf(r.text);
    expect(seconds).toBeGreaterThan(PREVIEW_MAX_SECONDS - 1);
    expect(seconds).toBeLessThanOrEqual(PREVIEW_MAX_SECONDS + 0.5);
    const urls = r.text.split('\n').filter((l) => l.startsWith('http'));
    expect(urls.every((u) => u.startsWith(`${ts.cmsUrl}/media/preview-cache/`))).toBe(true);
    const seg = await fetch(urls[0]!); // raw: a media segment file, not an API route
    expect(seg.status).toBe(200);
    expect(seg.headers.get('content-type')).toBe('video/mp2t');
    const bytes = new Uint8Array(await seg.arrayBuffer());
    expect(bytes[0]).toBe(0x47);
    expect(bytes[188]).toBe(0x47);
    // Downloaded once: a second play comes from the disk cache, without asking the provider.
    expect((await manifest(WITH_PREVIEW)).text).toBe(r.text);
    expect(standIn.downloads.get(WITH_PREVIEW)).toBe(1);
    expect(standIn.lookups.get(WITH_PREVIEW)).toBe(1);
  }, TRANSCODE_TIMEOUT);

  it('concurrent requests for one uncached track share one lookup, one download and one transcode', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => manifest(SHARED)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(standIn.lookups.get(SHARED)).toBe(1);
    expect(standIn.downloads.get(SHARED)).toBe(1);
  }, TRANSCODE_TIMEOUT);

  it('404 only for a track nobody knows; a provider failure on a track outside the catalog is a 502 with {detail}', async () => {
    expect((await manifest('ProviderUnknownTrack00')).status).toBe(404);
    const failed = await manifest(FAILING);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ detail: 'The streaming service preview could not be prepared' });
    // Known to the provider but without a preview file (Spotify's preview_url null), and not in the catalog: nothing to play.
    const none = await manifest(NO_PREVIEW);
    expect(none.status).toBe(404);
    expect(standIn.downloads.get(NO_PREVIEW)).toBeUndefined();
  });

  it('a catalog track whose provider lookup fails still plays from the catalog', async () => {
    // The stand-in does not know the catalog's Spotify ids (404), so the catalog's own HLS serves.
    const track = ts.server.ctx.catalog.tracks[0]!;
    const r = await manifest(track.spotify_id);
    expect(r.status).toBe(200);
    expect(r.text).toContain(`${ts.cmsUrl}/media/previews/${track.audio}/seg000.ts`);
  });
});

describe('HLS previews without ffmpeg (today\'s behaviour: the demo catalog only)', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startCmsServer('sqlite', { FFMPEG_PATH: '/nonexistent/ffmpeg' });
  });
  afterAll(() => ts?.close());

  it('catalog tracks play from the committed HLS; other tracks are not transcoded', async () => {
    const track = ts.server.ctx.catalog.tracks[0]!;
    const r = await rawCall(ts, 'GET', `${PREVIEW_MANIFEST_PATH}?id=${track.spotify_id}`);
    expect(r.status).toBe(200);
    expect(r.text).toContain(`${ts.cmsUrl}/media/previews/${track.audio}/seg000.ts`);
    expect(r.text).not.toContain('/media/preview-cache/');
    expect((await rawCall(ts, 'GET', `${PREVIEW_MANIFEST_PATH}?id=AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
  });
});
