import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { DB_TARGETS, startTestServer, type TestServer } from '../test/harness.ts';

describe.each(DB_TARGETS)('platform on %s', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ db });
  });
  afterAll(async () => t?.close());

  it('answers /healthz and /readyz on both listeners', async () => {
    for (const base of [t.partyUrl, t.cmsUrl]) {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.headers.get('x-request-id')).toBeTruthy();
    }
  });

  it('refuses a body declared in a charset other than UTF-8 with 415 {detail}, on both listeners', async () => {
    // Raw: the typed client always sends UTF-8.
    const post = (url: string, contentType: string) => fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify({ text: '+ADw-script+AD4-' }) });
    const targets = [`${t.partyUrl}/api/parties/demo/chat/messages`, `${t.cmsUrl}/api/users/login`];
    for (const url of targets) {
      for (const contentType of ['application/json; charset=utf-7', 'application/json;charset="ISO-8859-1"', 'text/plain; charset=latin1']) {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: '{}' });
        expect(res.status, `${url} ${contentType}`).toBe(415);
        expect(typeof ((await res.json()) as { detail: unknown }).detail).toBe('string');
      }
      // UTF-8, named or not, goes on to the route (which then refuses the missing token or fields).
      for (const contentType of ['application/json', 'application/json; charset=UTF-8', 'application/json; charset="utf-8"']) {
        expect((await post(url, contentType)).status, `${url} ${contentType}`).not.toBe(415);
      }
    }
  });

  it('answers an unknown route 404 as JSON detail, without a stack trace', async () => {
    const res = await fetch(`${t.partyUrl}/api/nothing-here`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { detail: string };
    expect(typeof body.detail).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('serves the OpenAPI document generated from the protocol schemas and a browsable /docs page', async () => {
    const doc = (await (await fetch(`${t.partyUrl}/docs/json`)).json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/parties/{id}/users');
    const page = await fetch(`${t.partyUrl}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/swagger/i);
  });

  it('keeps the request id a client sends', async () => {
    const res = await fetch(`${t.partyUrl}/healthz`, { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
});

describe('configuration', () => {
  it('defaults to SQLite in DATA_DIR, the emulators, and ports 8080/1337 on 127.0.0.1', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/x' });
    expect(c.databaseUrl).toBe('sqlite:/tmp/x/fanfare.sqlite');
    expect([c.host, c.partyPort, c.cmsPort]).toEqual(['127.0.0.1', 8080, 1337]);
    expect(c.emulators).toEqual({ spotify: true, apple: true });
    expect(c.cmsAdminToken).toBeNull();
  });

  it('resolves a relative DATA_DIR against the directory npm start ran in (INIT_CWD)', () => {
    expect(loadConfig({ DATA_DIR: './data', INIT_CWD: '/srv/fanfare' }).dataDir).toBe('/srv/fanfare/data');
  });

  it('names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc', CMS_ADMIN_TOKEN: 'short' })).toThrow(/PORT[\s\S]*CMS_ADMIN_TOKEN/);
  });

  it('uses real provider URLs once credentials are set', () => {
    const c = loadConfig({ SPOTIFY_CLIENT_ID: 'id', SPOTIFY_CLIENT_SECRET: 'secret' });
    expect(c.emulators.spotify).toBe(false);
    expect(c.spotify.accountsUrl).toBe('https://accounts.spotify.com');
  });
});
