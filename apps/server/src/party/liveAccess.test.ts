/** Reading a login_required party's live data needs a signup there (or host/admin/CMS). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../test/harness.ts';
import { statusOf } from '../cms/testing.ts';
import { PARTY, expectStatus, startChatWorld, type ChatWorld } from './chat/testkit.ts';

describe.each(DB_TARGETS)('live-data reads of a login_required party on %s', (db) => {
  let w: ChatWorld;
  const params = { id: PARTY };
  beforeAll(async () => {
    w = await startChatWorld(db);
    await w.cms.call('putParty', { params, body: { login_required: true } });
  });
  afterAll(async () => w?.close());

  it('listening-party §6: a fan not signed up for a login_required party may not read its chat, player status or scoreboard', async () => {
    await expectStatus(w.stranger.client.call('listChatMessages', { params, query: {} }), 403);
    await expectStatus(w.stranger.client.call('listRecentChatMessages', { params }), 403);
    await expectStatus(w.stranger.client.call('getPlayerStatus', { params }), 403);
    await expectStatus(w.stranger.client.call('getScoreboard', { params, query: {} }), 403);
  });

  it('a HEAD request is checked as its GET is (it answers the same status)', async () => {
    for (const path of ['chat/recent', 'chat/messages', 'player/status', 'chat/quiz/scoreboard']) {
      const head = (token: string) => fetch(`${w.t.partyUrl}/api/parties/${PARTY}/${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
      expect((await head(w.stranger.token)).status, path).toBe(403);
      expect((await head(w.fan.token)).status, path).toBe(200);
    }
  });

  it('signed-up fans, hosts, admins and the CMS still read them; no bearer is still 401', async () => {
    for (const reader of [w.fan, w.host, w.admin]) {
      expect((await reader.client.call('listRecentChatMessages', { params })).items).toBeInstanceOf(Array);
      await reader.client.call('getPlayerStatus', { params });
    }
    // The admin tool is never refused by this rule (the route itself then asks for a fan's bearer).
    expect(await statusOf((opts) => w.cms.call('listRecentChatMessages', { params }, opts))).not.toBe(403);
    await expectStatus(w.anon.call('listRecentChatMessages', { params }), 401);
  });

  it('a party open to anonymous signup stays readable by any logged-in fan', async () => {
    await w.cms.call('putParty', { params, body: { login_required: false } });
    try {
      expect((await w.stranger.client.call('listRecentChatMessages', { params })).items).toBeInstanceOf(Array);
    } finally {
      await w.cms.call('putParty', { params, body: { login_required: true } });
    }
  });
});
