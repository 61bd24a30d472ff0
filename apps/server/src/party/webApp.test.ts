import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerContext } from '../context.ts';
import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logger.ts';
import { createHttpApp, type App } from '../platform/http.ts';
import { registerPartyWebApp } from './webApp.ts';

const INDEX = '<!doctype html><html><head><meta name="fanfare-party-id" content="" /></head><body><script type="module" src="/assets/app-1.js"></script></body></html>';

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
    fs.writeFileSync(path.join(dir, 'assets', 'app-1.js'), 'console.log(1)');
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
  it('names the origins allowed to preview the page in a frame, the CMS first (issue 14, spec 2 admin flag)', async () => {
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
