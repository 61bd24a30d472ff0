import { PartyClient } from '@fanfare/client/party';
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

  it("the emulators' Hanna (Host) is the demo party's host", async () => {
    const { accessToken } = await loginWithSpotify(t.partyUrl, 'host-hanna');
    const me = await new PartyClient({ baseUrl: t.partyUrl, accessToken }).call('getSystemMe');
    expect(me.grants).toEqual([{ party_id: DEMO_PARTY_ID, role: 'host' }]);
    await seedDemo(t.server.ctx);
    const grants = await t.server.ctx.db.selectFrom('grants').select('id').where('party_id', '=', DEMO_PARTY_ID).execute();
    expect(grants).toHaveLength(1);
  });

  it('starts over once it has ended, keeping its signups and chat', async () => {
    const { accessToken } = await loginWithSpotify(t.partyUrl, 'lena');
    const lena = new PartyClient({ baseUrl: t.partyUrl, accessToken });
    const params = { id: DEMO_PARTY_ID };
    await lena.call('signup', { params, body: { real_name: 'Lena', display_name: 'lena' } });
    await lena.call('postChatMessage', { params, body: { text: 'Bis gleich!' } });
    const now = t.server.ctx.now();
    await t.server.ctx.db.updateTable('parties').set({ started_at: now - 7200_000, ends_at: now - 1000, updated_at: now }).where('id', '=', DEMO_PARTY_ID).execute();
    await seedDemo(t.server.ctx);
    const p = await party();
    expect(p.started_at).toBeNull();
    expect(p.ends_at!).toBeGreaterThan(now);
    const users = await t.server.ctx.db.selectFrom('party_users').select('fan_id').where('party_id', '=', DEMO_PARTY_ID).execute();
    expect(users).toHaveLength(1);
    const messages = await t.server.ctx.db.selectFrom('chat_messages').select('id').where('party_id', '=', DEMO_PARTY_ID).execute();
    expect(messages.length).toBeGreaterThan(0);
    const played = await t.server.ctx.db.selectFrom('party_tracks').select('track_id').where('party_id', '=', DEMO_PARTY_ID).where('played', '=', 1).execute();
    expect(played).toEqual([]);
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

describe('the demo party keeps its signups and chat across a restart (npm start twice, same ./data)', () => {
  it('a second server on the same data directory still has the fan and the message', async () => {
    const first = await startTestServer();
    try {
      const { accessToken } = await loginWithSpotify(first.partyUrl, 'lena');
      const params = { id: DEMO_PARTY_ID };
      const onFirst = new PartyClient({ baseUrl: first.partyUrl, accessToken });
      await onFirst.call('signup', { params, body: { real_name: 'Lena', display_name: 'lena' } });
      await onFirst.call('postChatMessage', { params, body: { text: 'Noch da?' } });
      await first.server.close();
      const second = await startTestServer({ env: { DATA_DIR: first.dataDir } });
      try {
        const onSecond = new PartyClient({ baseUrl: second.partyUrl, accessToken });
        expect((await onSecond.call('getPartyMe', { params })).display_name).toBe('lena');
        const recent = await onSecond.call('listRecentChatMessages', { params });
        expect(recent.items.map((m) => m.text)).toContain('Noch da?');
      } finally {
        await second.server.close();
      }
    } finally {
      await first.close().catch(() => undefined);
    }
  }, 60_000);
});
