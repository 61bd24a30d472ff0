import { PartyClient } from '@fanfare/client';
import { ErrorBody, PartyUser, UserCanChatEvent } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, TEST_CMS_TOKEN } from '../../test/harness.ts';
import { PARTY, PartySocket, expectStatus, startChatWorld, waitUntil, type ChatWorld } from './testkit.ts';

const params = { id: PARTY };
// A real 1x1 PNG: uploads are checked by their bytes and by the canvas size they declare.
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082', 'hex'));
const pngForm = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'p.png');
  return form;
};

describe.each(DB_TARGETS)('chat moderation and permissions on %s', (db) => {
  let w: ChatWorld;
  let watch: PartySocket;
  beforeAll(async () => {
    w = await startChatWorld(db);
    watch = await PartySocket.open(w.t, w.fan.token);
  });
  afterAll(async () => {
    watch?.close();
    await w?.close();
  });

  it('spec 6/7: a host blocks and unblocks a fan; each change is broadcast as user_can_chat; GET users?can_chat=False lists the blocked; the list carries votes', async () => {
    const blocked = await w.host.client.call('blockUser', { params: { id: PARTY, userId: w.lena.id } });
    expect(blocked).toEqual({ user_id: w.lena.id, can_chat: false });
    const event = await watch.waitFor((e) => e.type === 'user_can_chat' && e.user_id === w.lena.id && !e.can_chat);
    expect(UserCanChatEvent.parse(event).seq_id).toBeGreaterThan(0);

    const list = await w.admin.client.call('listUsers', { params, query: { can_chat: 'False' } });
    expect(list.items.map((u) => u.id)).toEqual([w.lena.id]);
    expect(PartyUser.parse(list.items[0])).toMatchObject({ display_name: 'Lena', can_chat: false, role: 'listener', is_subscribed: true });
    expect((await w.lena.client.call('getPartyMe', { params })).can_chat).toBe(false);
    await expectStatus(w.lena.client.call('postChatMessage', { params, body: { text: 'hello?' } }), 403);

    const [track] = (await w.fan.client.call('getTracks', { params })).items;
    await w.fan.client.call('voteTrack', { params: { id: PARTY, trackId: track!.id } });
    const all = await w.host.client.call('listUsers', { params });
    expect(all.items.find((u) => u.id === w.fan.id)?.track_votes).toEqual([track!.id]);
    const roles = Object.fromEntries(all.items.map((u) => [u.id, u.role]));
    expect(roles).toMatchObject({ [w.host.id]: 'host', [w.admin.id]: 'admin', [w.fan.id]: 'listener', [w.lena.id]: 'listener' });
    const allowed = await w.host.client.call('listUsers', { params, query: { can_chat: 'True' } });
    expect(allowed.items.map((u) => u.id)).not.toContain(w.lena.id);

    expect(await w.admin.client.call('unblockUser', { params: { id: PARTY, userId: w.lena.id } })).toEqual({ user_id: w.lena.id, can_chat: true });
    await watch.waitFor((e) => e.type === 'user_can_chat' && e.user_id === w.lena.id && e.can_chat);
    expect((await w.host.client.call('listUsers', { params, query: { can_chat: 'False' } })).items).toEqual([]);
    expect((await w.lena.client.call('postChatMessage', { params, body: { text: 'back' } })).text).toBe('back');
  });

  it('blocking answers 404 for a user not in the party and 403 for a host or admin', async () => {
    await expectStatus(w.host.client.call('blockUser', { params: { id: PARTY, userId: 'nobody' } }), 404);
    await expectStatus(w.host.client.call('blockUser', { params: { id: PARTY, userId: w.admin.id } }), 403);
    await expectStatus(w.admin.client.call('blockUser', { params: { id: PARTY, userId: w.host.id } }), 403);
    await expectStatus(w.host.client.call('listUsers', { params, query: { can_chat: 'maybe' as 'False' } }), 422);
  });

  it('permission matrix (spec 6): host/admin actions need a bearer of a host or admin of this party, or the admin tool where the route table says cms_or_bearer', async () => {
    const target = await w.fan.client.call('postChatMessage', { params, body: { text: 'delete me' } });
    const listener = w.fan.client;
    const cmsOnly = w.cms;
    // The third field: the route also takes the admin tool's token (`cms_or_bearer` in the route
    // table), so the back office's live dashboard can moderate and post.
    const actions: [string, (c: PartyClient) => Promise<unknown>, 'cms allowed' | 'bearer only'][] = [
      ['block', (c) => c.call('blockUser', { params: { id: PARTY, userId: w.lena.id } }), 'cms allowed'],
      ['unblock', (c) => c.call('unblockUser', { params: { id: PARTY, userId: w.lena.id } }), 'cms allowed'],
      ['list users', (c) => c.call('listUsers', { params, query: { can_chat: 'False' } }), 'bearer only'],
      ['popup', (c) => c.call('postPopup', { params, body: { message: 'Hi', free_only: false, is_closeable: true, is_restart: false } }), 'cms allowed'],
      ['poll', (c) => c.call('postPoll', { params, body: { question: 'Q?', options: ['a', 'b'], duration_seconds: 60 } }), 'cms allowed'],
      ['quiz', (c) => c.call('postQuizQuestion', { params, body: { question: 'Q?', options: ['a', 'b'], correct_answer: 0, duration_seconds: 60 } }), 'cms allowed'],
      ['scoreboard', (c) => c.call('postScoreboard', { params, body: { count: 3 } }), 'cms allowed'],
    ];
    for (const [name, act, cms] of actions) {
      await expectStatus(act(w.anon), 401).catch((e: unknown) => Promise.reject(new Error(`${name} anon: ${String(e)}`)));
      if (cms === 'cms allowed') await expect(act(cmsOnly), `${name} by cms`).resolves.toBeDefined();
      else await expectStatus(act(cmsOnly), 401).catch((e: unknown) => Promise.reject(new Error(`${name} cms: ${String(e)}`)));
      await expectStatus(act(listener), 403).catch((e: unknown) => Promise.reject(new Error(`${name} listener: ${String(e)}`)));
      await expect(act(w.host.client), `${name} by host`).resolves.toBeDefined();
      await expect(act(w.admin.client), `${name} by admin`).resolves.toBeDefined();
    }
    // Deleting someone else's message: listener 403, host and admin allowed.
    await expectStatus(w.lena.client.call('deleteChatMessage', { params: { id: PARTY, messageId: target.id } }), 403);
    await w.admin.client.call('deleteChatMessage', { params: { id: PARTY, messageId: target.id } });
    // The admin tool deletes any message too.
    const second = await w.fan.client.call('postChatMessage', { params, body: { text: 'delete me too' } });
    await w.cms.call('deleteChatMessage', { params: { id: PARTY, messageId: second.id } });
    // A grant in one party gives nothing in another.
    await expectStatus(w.host.client.call('postPopup', { params: { id: 'other-party' }, body: { message: 'x', free_only: false, is_closeable: true, is_restart: false } }), 404);
  });

  it('a scheduled message whose repeat interval does not fit its integer column answers 422 {detail} like any invalid body, not 500', async () => {
    // Raw: the typed client would refuse the body before sending it.
    const res = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/chat/schedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-cms-token': TEST_CMS_TOKEN },
      body: JSON.stringify({ text: 'too rare', post_at: new Date(Date.now() + 3600_000).toISOString(), recurring_interval: 2_147_483_648 }),
    });
    expect(res.status).toBe(422);
    expect(ErrorBody.safeParse(await res.json()).success).toBe(true);
    expect((await w.cms.call('listScheduledMessages', { params })).items.some((m) => m.text === 'too rare')).toBe(false);
  });

  it('permission matrix (spec 6): CMS actions need the X-Cms-Token; a host or admin bearer is not enough', async () => {
    const bad = new PartyClient({ baseUrl: w.t.partyUrl, cmsToken: 'wrong-token-wrong-token' });
    const post = { text: 'Scheduled', post_at: new Date(Date.now() + 3600_000).toISOString() };
    const actions: [string, (c: PartyClient) => Promise<unknown>][] = [
      ['list schedule', (c) => c.call('listScheduledMessages', { params })],
      ['schedule', (c) => c.call('postScheduledMessage', { params, body: post })],
      ['start fake', (c) => c.call('startFakeChat', { params, body: { messages_per_second: 1, stop_after: 1 } })],
      ['stop fake', (c) => c.call('stopFakeChat', { params })],
      ['upload for user', (c) => c.call('uploadProfileFor', { params: { id: PARTY, userId: w.fan.id }, form: pngForm() })],
      ['upload admin profile', (c) => c.call('uploadAdminProfile', { params, form: pngForm() })],
    ];
    for (const [name, act] of actions) {
      for (const [who, c, status] of [
        ['anon', w.anon, 401],
        ['listener', w.fan.client, 401],
        ['host', w.host.client, 401],
        ['admin', w.admin.client, 401],
        ['wrong cms token', bad, 403],
      ] as const) {
        await expectStatus(act(c), status).catch((e: unknown) => Promise.reject(new Error(`${name} by ${who}: ${String(e)}`)));
      }
      await act(w.cms);
    }
    const scheduled = await w.cms.call('postScheduledMessage', { params, body: post });
    await expectStatus(w.admin.client.call('deleteScheduledMessage', { params: { id: PARTY, scheduleId: scheduled.id } }), 401);
    await w.cms.call('deleteScheduledMessage', { params: { id: PARTY, scheduleId: scheduled.id } });
    for (const c of [w.anon, w.fan.client, w.host.client, w.admin.client]) {
      await expectStatus(c.call('clearChat', { params }), 401);
      await expectStatus(c.call('deleteUsers', { params }), 401);
    }
    await expectStatus(bad.call('clearChat', { params }), 403);
    await expectStatus(bad.call('deleteUsers', { params }), 403);
    await expectStatus(w.cms.call('clearChat', { params: { id: 'no-such-party' } }), 404);
  });

  it('spec 7 uploads: the CMS uploads a profile picture for a user (stored on their profile) or for a grant', async () => {
    const { url } = await w.cms.call('uploadProfileFor', { params: { id: PARTY, userId: w.fan.id }, form: pngForm() });
    expect((await w.fan.client.call('getPartyMe', { params })).profile_picture).toBe(url);
    expect((await fetch(url)).headers.get('content-type')).toBe('image/png'); // raw: a stored file
    await expectStatus(w.cms.call('uploadProfileFor', { params: { id: PARTY, userId: 'nobody' }, form: pngForm() }), 404);
    const notImage = new FormData();
    notImage.append('file', new Blob(['hello'], { type: 'image/png' }), 'x.png');
    await expectStatus(w.cms.call('uploadAdminProfile', { params, form: notImage }), 415);
    const grant = await w.cms.call('uploadAdminProfile', { params, form: pngForm() });
    expect(grant.url).toMatch(/\.png$/);
  });

  it('spec 6/7: DELETE chat (CMS) removes every message and is broadcast as chat_cleared', async () => {
    await w.host.client.call('postChatMessage', { params, body: { text: 'soon gone' } });
    expect((await w.fan.client.call('listChatMessages', { params })).items.length).toBeGreaterThan(0);
    await w.cms.call('clearChat', { params });
    await watch.waitFor((e) => e.type === 'chat_cleared');
    expect((await w.fan.client.call('listChatMessages', { params })).items).toEqual([]);
    expect((await w.fan.client.call('listRecentChatMessages', { params })).items).toEqual([]);
    // The chat goes on afterwards.
    expect((await w.fan.client.call('postChatMessage', { params, body: { text: 'fresh start' } })).text).toBe('fresh start');
  });

  it('spec 6/7: DELETE users (CMS) removes every user and is broadcast as users_cleared', async () => {
    const hostSocket = await PartySocket.open(w.t, w.host.token);
    await w.cms.call('deleteUsers', { params });
    for (const socket of [watch, hostSocket]) {
      await socket.waitFor((e) => e.type === 'users_cleared');
      // Removed fans are disconnected (spec 5: close code 1008).
      expect(await waitUntil(() => socket.closeCode ?? undefined)).toBe(1008);
    }
    await expectStatus(w.fan.client.call('getPartyMe', { params }), 403);
    await expectStatus(w.fan.client.call('postChatMessage', { params, body: { text: 'still here?' } }), 403);
    await waitUntil(async () => (await w.host.client.call('listUsers', { params })).items.length === 0);
    // Signing up again works, and the existing messages are kept.
    await w.fan.client.call('signup', { params, body: { real_name: 'Demo Fan', display_name: 'Demo Fan' } });
    expect((await w.fan.client.call('listChatMessages', { params })).items.map((m) => m.text)).toContain('fresh start');
  });
});
