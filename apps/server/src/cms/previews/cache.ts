/**
 * The disk cache of transcoded previews: a provider's preview file (an MP3, AAC or MPEG-TS of
 * about 30 s) downloaded once, cut to PREVIEW_MAX_SECONDS and transcoded by ffmpeg into an HLS
 * folder `<dir>/<key>/` (index.m3u8 and segNNN.ts). Concurrent asks for one key share one
 * download and one transcode; the folders together stay within `maxBytes` (least recently used
 * go first). Without ffmpeg the cache is unavailable and says so once in the log.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import { PREVIEW_MAX_SECONDS } from '@fanfare/protocol';
import type { Logger } from 'pino';

const run = promisify(execFile);

/** A preview file larger than this is refused (a 30 s MP3 is well under 1 MB). */
export const PREVIEW_SOURCE_MAX_BYTES = 20 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 20_000;
const TRANSCODE_TIMEOUT_MS = 120_000;

export interface PreviewCacheOptions {
  dir: string;
  maxBytes: number;
  ffmpegPath: string;
  logger: Pick<Logger, 'info' | 'warn'>;
}

/** The cache folder name of a track: a hash (lower-case hex), so any provider id is a safe path. */
export function previewCacheKey(service: string, id: string): string {
  return createHash('sha256').update(`${service}:${id}`).digest('hex').slice(0, 32);
}

export class PreviewSourceError extends Error {
  override readonly name = 'PreviewSourceError';
}

export class PreviewCache {
  private readonly inflight = new Map<string, Promise<string | null>>();
  private readonly lastUsed = new Map<string, number>();
  private available: Promise<boolean> | null = null;
  /** Transcodes started by this cache (what tests of the sharing count). */
  transcodes = 0;

  constructor(private readonly opts: PreviewCacheOptions) {}

  /** Whether ffmpeg runs here; checked once, and its absence logged once. */
  ffmpegAvailable(): Promise<boolean> {
    this.available ??= run(this.opts.ffmpegPath, ['-hide_banner', '-version'], { timeout: 10_000 }).then(
      () => true,
      (err: unknown) => {
        this.opts.logger.warn(
          { ffmpeg: this.opts.ffmpegPath, err: err instanceof Error ? err.message : String(err) },
          'ffmpeg not found: HLS previews serve only the demo catalog (install ffmpeg, e.g. apt-get install ffmpeg, or set FFMPEG_PATH)',
        );
        return false;
      },
    );
    return this.available;
  }

  /** The HLS folder of a cached key, or null. */
  cached(key: string): string | null {
    const folder = join(this.opts.dir, key);
    if (!existsSync(join(folder, 'index.m3u8'))) return null;
    this.lastUsed.set(key, Date.now());
    return folder;
  }

  /**
   * The HLS folder of `key`, transcoded from the URL `source()` resolves to on a miss. Null when
   * `source()` gives null (the track has no preview). Every caller asking for a key while its
   * transcode runs waits for that one.
   */
  get(key: string, source: () => Promise<string | null>): Promise<string | null> {
    const hit = this.cached(key);
    if (hit) return Promise.resolve(hit);
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.fill(key, source).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async fill(key: string, source: () => Promise<string | null>): Promise<string | null> {
    const url = await source();
    if (url === null) return null;
    this.transcodes += 1;
    const folder = join(this.opts.dir, key);
    const work = join(this.opts.dir, `.work-${key}-${randomBytes(4).toString('hex')}`);
    await mkdir(work, { recursive: true });
    try {
      const input = join(work, 'source');
      await download(url, input);
      const out = join(work, 'hls');
      await mkdir(out);
      // -t after -i cuts the output: the preview is at most PREVIEW_MAX_SECONDS whatever the file holds.
      await run(
        this.opts.ffmpegPath,
        [
          '-hide_banner', '-loglevel', 'error', '-nostdin', '-y',
          '-i', input,
          '-t', String(PREVIEW_MAX_SECONDS),
          '-vn', '-map', '0:a:0', '-c:a', 'aac', '-b:a', '96k', '-ac', '2', '-ar', '44100',
          '-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod',
          '-hls_segment_filename', join(out, 'seg%03d.ts'),
          join(out, 'index.m3u8'),
        ],
        { timeout: TRANSCODE_TIMEOUT_MS },
      );
      await rm(folder, { recursive: true, force: true });
      await rename(out, folder);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    this.lastUsed.set(key, Date.now());
    this.opts.logger.info({ key, url }, 'preview transcoded');
    await this.evict(key);
    return folder;
  }

  /** Removes the least recently used folders until the cache fits `maxBytes`; `keep` stays. */
  private async evict(keep: string): Promise<void> {
    const entries = await Promise.all(
      (await readdir(this.opts.dir, { withFileTypes: true }))
        .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
        .map(async (e) => {
          const folder = join(this.opts.dir, e.name);
          const files = await readdir(folder);
          const sizes = await Promise.all(files.map(async (f) => (await stat(join(folder, f))).size));
          const used = this.lastUsed.get(e.name) ?? (await stat(folder)).mtimeMs;
          return { key: e.name, bytes: sizes.reduce((a, b) => a + b, 0), used };
        }),
    );
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    for (const e of entries.sort((a, b) => a.used - b.used)) {
      if (total <= this.opts.maxBytes) break;
      if (e.key === keep || this.inflight.has(e.key)) continue;
      await rm(join(this.opts.dir, e.key), { recursive: true, force: true });
      this.lastUsed.delete(e.key);
      total -= e.bytes;
      this.opts.logger.info({ key: e.key }, 'preview evicted from the cache');
    }
  }
}

/** Downloads `url` to `file`, refusing an error status or more than PREVIEW_SOURCE_MAX_BYTES. */
async function download(url: string, file: string): Promise<void> {
  const res = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS), redirect: 'follow' });
  if (!res.ok || !res.body) throw new PreviewSourceError(`preview file answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > PREVIEW_SOURCE_MAX_BYTES) throw new PreviewSourceError('preview file too large');
  let bytes = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done(bytes > PREVIEW_SOURCE_MAX_BYTES ? new PreviewSourceError('preview file too large') : null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), limit, createWriteStream(file));
}
