import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PartyClient } from '@fanfare/client/party';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, TEST_CMS_TOKEN, startTestServer, type TestServer } from '../../test/harness.ts';

const legalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-legal-'));
fs.writeFileSync(path.join(legalDir, 'privacy.html'), '<p>Operator privacy text</p><script>alert(1)</script>');

describe.each(DB_TARGETS)('legal pages (imprint, privacy, terms) on %s', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ db, env: { LEGAL_DIR: legalDir } });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Legal pages are HTML pages, not API routes: raw fetch. */
  const get = (p: string, lang = 'de') => fetch(`${t.partyUrl}${p}`, { headers: { 'accept-language': lang } });

  it('serves each page as HTML (not a JSON 404): the placeholder by default, in the browser locale', async () => {
    const imprint = await get('/legal/imprint');
    expect(imprint.status).toBe(200);
    expect(imprint.headers.get('content-type')).toContain('text/html');
    const html = await imprint.text();
    expect(html).toContain('<h1>Impressum</h1>');
    expect(html).toContain('href="/"');
    expect(await (await get('/legal/terms', 'en-GB')).text()).toContain('<h1>Terms</h1>');
  });

  it('takes the operator file from LEGAL_DIR, sanitized', async () => {
    const html = await (await get('/legal/privacy')).text();
    expect(html).toContain('Operator privacy text');
    expect(html).not.toContain('<script>alert');
  });

  it("a party's own text (frontend.legal) wins, at /p/{partyId}/legal/{page}, sanitized", async () => {
    const cms = new PartyClient({ baseUrl: t.partyUrl, cmsToken: TEST_CMS_TOKEN });
    await cms.call('putParty', {
      params: { id: 'label-party' },
      body: { name: 'Label Party', frontend: { legal: { imprint: '<p>Label GmbH, Berlin</p><img src=x onerror="alert(1)">' } } },
    });
    const html = await (await get('/p/label-party/legal/imprint')).text();
    expect(html).toContain('Label GmbH, Berlin');
    expect(html).not.toContain('onerror');
    expect(html).toContain('href="/p/label-party/"');
  });

  it('an unknown page answers 4xx with detail, never 500', async () => {
    const res = await get('/legal/cookies');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
