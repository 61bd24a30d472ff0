import { ApiError, PartyClient } from '@fanfare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { startLiveWorld, type LiveWorld } from '../../test/liveParty.ts';

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

describe.each(DB_TARGETS)('GET /api/parties (ours, the back office list) on %s', (db) => {
  let w: LiveWorld;

  beforeAll(async () => {
    w = await startLiveWorld(db, 'listed');
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('lists every party with the CMS token, newest start first', async () => {
    await w.cms.call('putParty', { params: { id: 'later' }, body: { name: 'Later', starts_at: '2031-01-01T18:00:00.000Z' } });
    await w.cms.call('putParty', { params: { id: 'sooner' }, body: { name: 'Sooner', starts_at: '2030-06-01T18:00:00.000Z' } });
    const { items } = await w.cms.call('listParties');
    const ids = items.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['listed', 'later', 'sooner']));
    expect(ids.indexOf('later')).toBeLessThan(ids.indexOf('sooner'));
    expect(items.find((p) => p.id === 'listed')?.is_playable).toBe(true);
  });

  it('answers the back office on the CMS origin with CORS, and no other origin', async () => {
    const cmsOrigin = new URL(w.t.cmsUrl).origin;
    // Raw fetch: a CORS preflight and a foreign Origin are browser-protocol checks, not API calls.
    const preflight = await fetch(`${w.t.partyUrl}/api/parties`, {
      method: 'OPTIONS',
      headers: { origin: cmsOrigin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(cmsOrigin);
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    const stranger = await fetch(`${w.t.partyUrl}/api/parties`, { headers: { origin: 'https://evil.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a fan bearer and an anonymous caller (CMS-authenticated)', async () => {
    expect(await status(w.fan.client.call('listParties'))).toBe(401);
    expect(await status(new PartyClient({ baseUrl: w.t.partyUrl }).call('listParties'))).toBe(401);
    expect(await status(new PartyClient({ baseUrl: w.t.partyUrl, cmsToken: 'wrong' }).call('listParties'))).toBe(403);
  });
});
