import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreviewCache, previewCacheKey } from './cache.ts';

/** ffmpeg runs for real: on a shared, busy machine a few transcodes may take a while. */
const TRANSCODES_TIMEOUT = 180_000;

const quietLogger = () => {
  const warnings: string[] = [];
  return { warnings, logger: { info: () => {}, warn: (_obj: unknown, msg?: string) => void warnings.push(String(msg)) } };
};

describe('preview disk cache (real ffmpeg, real HTTP)', () => {
  let work: string;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'fanfare-preview-cache-'));
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=330:duration=5', '-c:a', 'libmp3lame', '-b:a', '64k', join(work, 'tone.mp3')]);
    const mp3 = readFileSync(join(work, 'tone.mp3'));
    server = createServer((req, res) => (req.url === '/missing.mp3' ? res.writeHead(404).end() : res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(mp3)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(work, { recursive: true, force: true });
  });

  it('keys are lower-case hex, distinct per service and id (safe folder names)', () => {
    expect(previewCacheKey('spotify', 'abc')).toMatch(/^[0-9a-f]{32}$/);
    expect(previewCacheKey('spotify', 'abc')).not.toBe(previewCacheKey('apple', 'abc'));
    expect(previewCacheKey('spotify', 'abc')).not.toBe(previewCacheKey('spotify', 'ABC'));
  });

  it('the cache stays within its size: the least recently used folder goes, the newest stays', async () => {
    const dir = join(work, 'bounded');
    // 1 byte: every folder is over the bound, so each new one evicts all older ones.
    const cache = new PreviewCache({ dir, maxBytes: 1, ffmpegPath: 'ffmpeg', logger: quietLogger().logger });
    const a = await cache.get('aaaa', async () => `${base}/a.mp3`);
    expect(a && existsSync(join(a, 'index.m3u8'))).toBe(true);
    const b = await cache.get('bbbb', async () => `${base}/b.mp3`);
    expect(b && existsSync(join(b, 'seg000.ts'))).toBe(true);
    expect(existsSync(join(dir, 'aaaa'))).toBe(false);
    expect(cache.cached('aaaa')).toBeNull();
    expect(cache.transcodes).toBe(2);
    // A roomy cache keeps both.
    const roomy = new PreviewCache({ dir: join(work, 'roomy'), maxBytes: 50 * 1024 * 1024, ffmpegPath: 'ffmpeg', logger: quietLogger().logger });
    await roomy.get('aaaa', async () => `${base}/a.mp3`);
    await roomy.get('bbbb', async () => `${base}/b.mp3`);
    expect(roomy.cached('aaaa')).not.toBeNull();
    expect(roomy.cached('bbbb')).not.toBeNull();
  }, TRANSCODES_TIMEOUT);

  it('no preview URL caches nothing; a failed download leaves no folder and the next ask tries again', async () => {
    const cache = new PreviewCache({ dir: join(work, 'failing'), maxBytes: 50 * 1024 * 1024, ffmpegPath: 'ffmpeg', logger: quietLogger().logger });
    expect(await cache.get('none', async () => null)).toBeNull();
    await expect(cache.get('gone', async () => `${base}/missing.mp3`)).rejects.toThrow('preview file answered 404');
    expect(cache.cached('gone')).toBeNull();
    expect(await cache.get('gone', async () => `${base}/now-there.mp3`)).not.toBeNull();
  }, TRANSCODES_TIMEOUT);

  it('without ffmpeg the cache says so once in the log, with what to install', async () => {
    const { logger, warnings } = quietLogger();
    const cache = new PreviewCache({ dir: join(work, 'none'), maxBytes: 1, ffmpegPath: '/nonexistent/ffmpeg', logger });
    expect(await cache.ffmpegAvailable()).toBe(false);
    expect(await cache.ffmpegAvailable()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('ffmpeg not found: HLS previews serve only the demo catalog');
    expect(await new PreviewCache({ dir: join(work, 'some'), maxBytes: 1, ffmpegPath: 'ffmpeg', logger }).ffmpegAvailable()).toBe(true);
  });
});
