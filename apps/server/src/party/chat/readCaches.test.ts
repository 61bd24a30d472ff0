/**
 * The read caches of the hot REST paths (token → fan, party rows, a fan's standing in a
 * party, chat/recent, GET party) never answer with what a write has changed: each case reads
 * first (so the cache holds the value), writes through the API, and reads again at once.
 */
import { PartyClient } from '@fanfare/client';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesOf } from '../../platform/db/cache.ts';
import { DB_TARGETS, startTestServer, type TestServer } from '../../test/harness.ts';
import { ALBUM_ID, closeTestServer, setUpParty } from '../../test/liveParty.ts';
import { PARTY, expectStatus, startChatWorld, waitUntil, type ChatWorld } from './testkit.ts';

const params = { id: PARTY };

describe.each(DB_TARGETS)('read caches on %s stay correct after writes', (db) => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('the server database reports its writes (the caches listen to them)', () => {
    expect(changesOf(w.t.server.ctx.db)).toBeDefined();
  });

  it('invalidation: a blocked fan is refused at once, though their standing was just read (cached); unblocked, they post again', async () => {
    expect((await w.lena.client.call('postChatMessage', { params, body: { text: 'before' } })).text).toBe('before');
    await w.host.client.call('blockUser', { params: { id: PARTY, userId: w.lena.id } });
    await expectStatus(w.lena.client.call('postChatMessage', { params, body: { text: 'blocked' } }), 403);
    await w.host.client.call('unblockUser', { params: { id: PARTY, userId: w.lena.id } });
    expect((await w.lena.client.call('postChatMessage', { params, body: { text: 'after' } })).text).toBe('after');
  });

  it('invalidation: chat/recent shows a new message and drops a deleted one right away', async () => {
    const posted = await w.fan.client.call('postChatMessage', { params, body: { text: 'to be deleted' } });
    const seen = await w.fan.client.call('listRecentChatMessages', { params });
    expect(seen.items.map((m) => m.id)).toContain(posted.id);
    // Twice: the second read comes from the cache.
    expect((await w.lena.client.call('listRecentChatMessages', { params })).items.map((m) => m.id)).toContain(posted.id);
    await w.host.client.call('deleteChatMessage', { params: { id: PARTY, messageId: posted.id } });
    expect((await w.fan.client.call('listRecentChatMessages', { params })).items.map((m) => m.id)).not.toContain(posted.id);
    const next = await w.lena.client.call('postChatMessage', { params, body: { text: 'newest' } });
    const after = await w.fan.client.call('listRecentChatMessages', { params });
    expect(after.items.at(-1)?.id).toBe(next.id);
  });

  it('a shared answer (chat/recent) goes out gzipped to a client that accepts gzip, the same JSON as without', async () => {
    for (const who of [w.lena, w.host]) {
      for (let i = 0; i < 2; i++) await who.client.call('postChatMessage', { params, body: { text: `a message long enough to be worth compressing, number ${i}. `.repeat(4) } });
    }
    const get = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.get(`${w.t.partyUrl}/api/parties/${PARTY}/chat/recent`, { headers: { authorization: `Bearer ${w.fan.token}`, 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
      });
    const plain = await get('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const packed = await get('br;q=1, gzip;q=0.8');
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toMatch(/accept-encoding/i);
    expect(packed.body.length).toBeLessThan(plain.body.length / 2);
    expect(JSON.parse(gunzipSync(packed.body).toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    // A client that refuses gzip gets JSON.
    expect((await get('gzip;q=0')).headers['content-encoding']).toBeUndefined();
  });

  it('invalidation: GET party and the vote check read a party edit at once', async () => {
    expect((await w.anon.call('getParty', { params })).name).not.toBe('Edited by the cache test');
    await w.cms.call('putParty', { params, body: { name: 'Edited by the cache test', voting_enabled: true } });
    expect((await w.anon.call('getParty', { params })).name).toBe('Edited by the cache test');
    const [track] = (await w.fan.client.call('getTracks', { params })).items;
    await w.fan.client.call('voteTrack', { params: { id: PARTY, trackId: track!.id } });
    await w.cms.call('putParty', { params, body: { voting_enabled: false } });
    expect((await w.anon.call('getParty', { params })).voting_enabled).toBe(false);
    await expectStatus(w.fan.client.call('voteTrack', { params: { id: PARTY, trackId: track!.id } }), 409);
    await w.cms.call('putParty', { params, body: { voting_enabled: true } });
  });

  it('invalidation: a fan refused before signing up is let in at once after (standings are kept only once signed up)', async () => {
    const other = 'cache-signup';
    await w.cms.call('putParty', { params: { id: other }, body: { name: 'Signup cache', starts_at: new Date(Date.now() + 3600_000).toISOString() } });
    await w.cms.call('putTracks', { params: { id: other }, body: { type: 'album', id: ALBUM_ID, service: 'spotify', country: 'de' } });
    const [track] = (await w.cms.call('getTracks', { params: { id: other } })).items;
    const vote = () => w.lena.client.call('voteTrack', { params: { id: other, trackId: track!.id } });
    await expectStatus(vote(), 403);
    await expectStatus(vote(), 403);
    await w.lena.client.call('signup', { params: { id: other }, body: { real_name: 'Lena', display_name: 'Lena' } });
    expect((await vote()).voted).toBe(true);
  });

  it('invalidation: a revoked token stops working at once, though it was just used (cached)', async () => {
    const client = new PartyClient({ baseUrl: w.t.partyUrl });
    const { access_token: token } = await client.call('signup', { params, body: { real_name: 'Short Stay', display_name: 'short-stay' } }).catch(() => ({ access_token: null }));
    // The demo party may require a login: fall back to a fan of the cast then.
    const fan = token ? new PartyClient({ baseUrl: w.t.partyUrl, accessToken: token }) : w.stranger.client;
    await fan.call('getSystemMe', {});
    await fan.call('logout', {});
    await expectStatus(fan.call('getSystemMe', {}), 401);
  });

  it('invalidation: a write made straight in the database (not through a route) empties the caches too', async () => {
    const before = await w.anon.call('getParty', { params });
    await w.t.server.ctx.db.updateTable('parties').set({ name: 'Changed in the database' }).where('id', '=', PARTY).execute();
    expect((await w.anon.call('getParty', { params })).name).toBe('Changed in the database');
    await w.t.server.ctx.db.updateTable('parties').set({ name: before.name }).where('id', '=', PARTY).execute();
  });

  it('invalidation: a change rolled back in a transaction leaves nothing stale', async () => {
    const before = await w.anon.call('getParty', { params });
    await w.t.server.ctx.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('parties').set({ name: 'Rolled back' }).where('id', '=', PARTY).execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await w.anon.call('getParty', { params })).name).toBe(before.name);
    await waitUntil(async () => (await w.anon.call('getParty', { params })).name === before.name);
  });
});

const CLUSTER = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);

describe.runIf(CLUSTER)('read caches across two nodes on one PostgreSQL and one Redis', () => {
  let a: TestServer;
  let b: TestServer;
  let pgDrop: (() => Promise<void>) | null = null;
  const P = 'cache-cluster';

  beforeAll(async () => {
    const { createPostgresDatabase } = await import('../../test/harness.ts');
    const pg = await createPostgresDatabase();
    pgDrop = pg.drop;
    const env = { DATABASE_URL: pg.url, REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_KEY_PREFIX: `fanfare-cache-test-${process.pid}:` };
    a = await startTestServer({ env });
    b = await startTestServer({ env });
  }, 60_000);
  afterAll(async () => {
    if (a) await closeTestServer(a);
    if (b) await closeTestServer(b);
    await pgDrop?.();
  });

  it('invalidation across nodes: an edit, a block and a deletion on node A reach node B\'s caches (through Redis)', async () => {
    const cast = await setUpParty(a, P);
    const onB = (token: string) => new PartyClient({ baseUrl: b.partyUrl, accessToken: token });
    const anonB = new PartyClient({ baseUrl: b.partyUrl });
    const p = { id: P };
    // Node B reads everything once: its caches hold the party, the fan's standing and the recent chat.
    expect((await anonB.call('getParty', { params: p })).name).toBe(`Party ${P}`);
    const posted = await onB(cast.lena.token).call('postChatMessage', { params: p, body: { text: 'on B' } });
    expect((await onB(cast.fan.token).call('listRecentChatMessages', { params: p })).items.map((m) => m.id)).toContain(posted.id);

    await cast.cms.call('putParty', { params: p, body: { name: 'Edited on A' } });
    await waitUntil(async () => (await anonB.call('getParty', { params: p })).name === 'Edited on A');

    await cast.host.client.call('blockUser', { params: { id: P, userId: cast.lena.id } });
    await waitUntil(async () => {
      const res = await onB(cast.lena.token)
        .call('postChatMessage', { params: p, body: { text: 'blocked?' } })
        .then(() => 201)
        .catch((e: { status?: number }) => e.status);
      return res === 403;
    });

    await cast.host.client.call('deleteChatMessage', { params: { id: P, messageId: posted.id } });
    await waitUntil(async () => !(await onB(cast.fan.token).call('listRecentChatMessages', { params: p })).items.some((m) => m.id === posted.id));
  });
});
