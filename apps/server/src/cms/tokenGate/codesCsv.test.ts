/** A CSV of 100k token-gate codes must not stall every other request. */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, type TestServer } from '../../test/harness.ts';
import { ADMIN, cmsApi, login, rawCall, startCmsServer } from '../testing.ts';

/**
 * The old upload held the event loop for the whole file (43 s for 100k codes on SQLite here).
 * Batches with a turn of the loop in between keep every stall far below this bound.
 */
const LONGEST_STALL_MS = 5_000;

describe.each(DB_TARGETS)('token-gate access codes CSV on %s', (db) => {
  let t: TestServer;
  let admin: string;
  beforeAll(async () => {
    t = await startCmsServer(db);
    admin = await login(t, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => t?.close());

  it('100k codes are stored in batches; the server keeps answering meanwhile', async () => {
    const csv = ['code,max_uses', ...Array.from({ length: 100_000 }, (_, i) => `CODE-${i}`)].join('\n');
    const loop = monitorEventLoopDelay({ resolution: 20 });
    loop.enable();
    const cms = cmsApi(t, admin);
    const params = { product_id: 'bulk-product' };
    const upload = cms.call('uploadAccessCodes', { params, body: csv });
    // Another request during the upload is answered (it would queue behind the whole file before).
    // The readiness probe is an operations endpoint outside the API table: raw.
    const health = await rawCall(t, 'GET', '/readyz');
    expect(health.status).toBe(200);
    const res = await upload;
    loop.disable();
    expect(res).toMatchObject({ product_id: 'bulk-product', added: 100_000, updated: 0 });
    expect(loop.max / 1e6).toBeLessThan(LONGEST_STALL_MS);
    // Uploading the same file again updates instead of duplicating.
    const again = await cms.call('uploadAccessCodes', { params, body: 'CODE-1,5\nCODE-100001' });
    expect(again).toMatchObject({ added: 1, updated: 1 });
  }, 240_000);
});
