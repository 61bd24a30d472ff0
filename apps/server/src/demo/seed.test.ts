import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, startTestServer, type TestServer } from '../test/harness.ts';
import { loginWithSpotify } from '../test/logins.ts';
import { DEMO_PARTY_ID, seedDemo } from './seed.ts';

describe.each(DB_TARGETS)('demo party seed (README: npm start has a demo party) on %s', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ db });
  });
  afterAll(async () => t?.close());

  const party = () => t.server.ctx.db.selectFrom('parties').selectAll().where('id', '=', DEMO_PARTY_ID).executeTakeFirstOrThrow();

  it('opens the waiting room at once and starts by itself after the configured delay, with the album loaded', async () => {
    const p = await party();
    expect(p.auto_start).toBe(1);
    expect(p.login_required).toBe(1);
    expect(p.started_at).toBeNull();
    expect(p.starts_at - p.created_at).toBe(t.server.ctx.config.demo.startDelayMs);
    const tracks = await t.server.ctx.db.selectFrom('party_tracks').select('track_id').where('party_id', '=', DEMO_PARTY_ID).execute();
    expect(tracks.length).toBe(t.server.ctx.catalog.albums[0]!.track_keys.length);
  });

  it('starts over once it has ended, without the old signups', async () => {
    const { accessToken } = await loginWithSpotify(t.partyUrl, 'lena');
    const signup = await fetch(`${t.partyUrl}/api/parties/${DEMO_PARTY_ID}/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ real_name: 'Lena', display_name: 'lena' }),
    });
    expect(signup.status).toBe(200);
    const now = t.server.ctx.now();
    await t.server.ctx.db.updateTable('parties').set({ started_at: now - 7200_000, ends_at: now - 1000, updated_at: now }).where('id', '=', DEMO_PARTY_ID).execute();
    await seedDemo(t.server.ctx);
    const p = await party();
    expect(p.started_at).toBeNull();
    expect(p.ends_at!).toBeGreaterThan(now);
    const users = await t.server.ctx.db.selectFrom('party_users').select('fan_id').where('party_id', '=', DEMO_PARTY_ID).execute();
    expect(users).toEqual([]);
    const tracks = await t.server.ctx.db.selectFrom('party_tracks').select('track_id').where('party_id', '=', DEMO_PARTY_ID).execute();
    expect(tracks.length).toBeGreaterThan(0);
  });

  it('keeps a demo party that is running or was edited', async () => {
    const now = t.server.ctx.now();
    await t.server.ctx.db.updateTable('parties').set({ name: 'Edited', updated_at: now + 1 }).where('id', '=', DEMO_PARTY_ID).execute();
    await seedDemo(t.server.ctx);
    expect((await party()).name).toBe('Edited');
  });
});
