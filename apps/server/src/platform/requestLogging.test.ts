import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createHttpApp } from './http.ts';
import { createLogger } from './logger.ts';
import { isQuietRequest } from './requestLogging.ts';

describe('npm start output: no access logs for static files and HLS segments unless LOG_LEVEL=debug', () => {
  it('static files, catalog media and HLS are quiet at info, logged at debug; API calls always', () => {
    for (const url of ['/assets/index-abc.js', '/media/catalog/audio/a/seg3.ts', '/media/catalog/audio/a/index.m3u8?x=1', '/c/assets/x.css', '/healthz']) {
      expect(isQuietRequest(url, 'info'), url).toBe(true);
      expect(isQuietRequest(url, 'debug'), url).toBe(false);
    }
    expect(isQuietRequest('/api/parties/demo', 'info')).toBe(false);
    expect(isQuietRequest('/', 'info')).toBe(false);
  });

  it('the HTTP app writes no request lines for an asset at info, and does for an API call', async () => {
    for (const [level, expectAsset] of [['info', false], ['debug', true]] as const) {
      const lines: string[] = [];
      const sink = new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()) });
      const app = await createHttpApp({ name: 'test', title: 'test', logger: createLogger(level, sink), isReady: async () => true });
      app.get('/assets/app.js', { schema: { hide: true } }, async () => 'x');
      app.get('/api/ping', { schema: { hide: true } }, async () => ({ ok: true }));
      await app.inject({ url: '/assets/app.js' });
      await app.inject({ url: '/api/ping' });
      await app.close();
      expect(lines.some((l) => l.includes('/assets/app.js')), level).toBe(expectAsset);
      expect(lines.some((l) => l.includes('/api/ping')), level).toBe(true);
    }
  });
});
