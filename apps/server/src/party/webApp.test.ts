import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../context.ts';
import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { createHttpApp, type App } from '../platform/http.ts';
import { ifNoneMatch, pickEncoding, registerPartyWebApp } from './webApp.ts';

/** A hashed asset as the build writes it: the file and its `.br` and `.gz`. */
const JS = 'console.log("party app");'.repeat(200);
const INDEX = '<!doctype html><html><head><meta name="fanfare-party-id" content="" /><link rel="stylesheet" crossorigin href="/assets/app-1.css"></head><body><script type="module" src="/assets/app-1.js"></script></body></html>';

async function appWith(distDir: string): Promise<App> {
  const logger = createLogger('silent');
  const app = await createHttpApp({ name: 'party', title: 't', logger, isReady: async () => true });
  await registerPartyWebApp(app, { logger, config: loadConfig({}) } as unknown as ServerContext, distDir);
  await app.ready();
  return app;
}

describe('party web app route (spec 2: /p/{partyId}/ per party, / for the default party)', () => {
  let dir: string;
  let app: App;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'party-web-dist-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dir, 'assets', 'app-1.js'), JS);
    fs.writeFileSync(path.join(dir, 'assets', 'app-1.css'), '.hero{color:red}');
    fs.writeFileSync(path.join(dir, 'assets', 'app-1.js.br'), zlib.brotliCompressSync(JS));
    fs.writeFileSync(path.join(dir, 'assets', 'app-1.js.gz'), zlib.gzipSync(JS));
    app = await appWith(dir);
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page for the demo party at /', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<meta name="fanfare-party-id" content="demo" />');
  });
  it('serves the same page with the party id at /p/{partyId}/ and adds the slash', async () => {
    expect((await app.inject({ url: '/p/summer-24/' })).body).toContain('content="summer-24"');
    const bare = await app.inject({ url: '/p/summer-24?x=1' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/p/summer-24/?x=1');
  });
  it('names the origins allowed to preview the page in a frame, the CMS first (listening-party §2 admin flag)', async () => {
    const res = await app.inject({ url: '/p/summer/' });
    const cms = new URL(loadConfig({}).cmsPublicUrl).origin;
    const content = /<meta name="fanfare-preview-origins" content="([^"]*)"/.exec(res.body)?.[1] ?? '';
    expect(content.split(' ')[0]).toBe(cms);
  });

  it('refuses party ids that could carry markup', async () => {
    expect((await app.inject({ url: '/p/%22%3E%3Cscript%3E/' })).statusCode).toBe(422);
  });
  it('serves hashed assets for a long time', async () => {
    const res = await app.inject({ url: '/assets/app-1.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });
  it('sends hashed assets pre-compressed as the browser accepts: brotli, else gzip, else plain', async () => {
    const br = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.rawPayload.length).toBeLessThan(JS.length / 10);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(JS);
    expect(String(br.headers['cache-control'])).toMatch(/max-age=31536000.*immutable|immutable.*max-age=31536000/);

    const gz = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(JS);
    expect(String(gz.headers['cache-control'])).toContain('immutable');

    for (const headers of [{ 'accept-encoding': 'identity' }, {}]) {
      const plain = await app.inject({ url: '/assets/app-1.js', headers });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(JS);
    }
  });
  it('answers a cached asset with 304 when its ETag still matches', async () => {
    const first = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'br' } });
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await app.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'br', 'if-none-match': String(etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });
  it('revalidates the page on every load (no-cache) and answers an unchanged page with 304', async () => {
    const first = await app.inject({ url: '/p/summer-24/' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = await app.inject({ url: '/p/summer-24/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // Another party's page is another page: its ETag differs.
    const other = await app.inject({ url: '/p/winter-25/', headers: { 'if-none-match': etag } });
    expect(other.statusCode).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });
  it('writes the stylesheet into the page, so the first paint waits for no other request', async () => {
    const res = await app.inject({ url: '/' });
    expect(res.body).toContain('<style>.hero{color:red}</style>');
    expect(res.body).not.toContain('href="/assets/app-1.css"');
  });
  it('sends the page compressed as the browser accepts, and plain otherwise', async () => {
    const br = await app.inject({ url: '/p/summer-24/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('content="summer-24"');
    const gz = await app.inject({ url: '/p/summer-24/', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(zlib.brotliDecompressSync(br.rawPayload).toString());
    const plain = await app.inject({ url: '/p/summer-24/', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(zlib.gunzipSync(gz.rawPayload).toString());
    // Every encoding is the same page: one ETag.
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(1);
  });
  it('reads Accept-Encoding with q-values', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('BR')).toBe('br');
  });
  it('reads If-None-Match lists, weak tags and *', () => {
    expect(ifNoneMatch(undefined, '"a"')).toBe(false);
    expect(ifNoneMatch('"b", "a"', '"a"')).toBe(true);
    expect(ifNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatch('*', '"a"')).toBe(true);
    expect(ifNoneMatch('"ab"', '"a"')).toBe(false);
    expect(ifNoneMatch('"a"', 'W/"a"')).toBe(true);
  });
  it('keeps the Vary fields set before it (CORS varies on Origin) and adds Accept-Encoding', async () => {
    const logger = createLogger('silent');
    const withCors = await createHttpApp({ name: 'party', title: 't', logger, isReady: async () => true });
    // As @fastify/cors does for every request on the party listener.
    withCors.addHook('onRequest', async (_req, reply) => {
      reply.header('vary', 'Origin');
    });
    await registerPartyWebApp(withCors, { logger, config: loadConfig({}) } as unknown as ServerContext, dir);
    await withCors.ready();
    for (const url of ['/assets/app-1.js', '/p/summer-24/']) {
      const res = await withCors.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.headers['content-encoding']).toBe('br');
      expect(String(res.headers.vary).split(/,\s*/).sort()).toEqual(['Accept-Encoding', 'Origin']);
    }
    await withCors.close();
  });
  it('answers 503 with the build command while the app is not built', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'party-web-empty-'));
    const bare = await appWith(empty);
    const res = await bare.inject({ url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build -w @fanfare/party-web');
    await bare.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
