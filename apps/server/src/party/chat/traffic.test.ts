import { ChatMessageEvent, ScheduledMessage, type ChatMessage } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartyClient } from '@fanfare/client';
import { DB_TARGETS, TEST_CMS_TOKEN, startTestServer } from '../../test/harness.ts';
import { PARTY, PartySocket, expectStatus, startChatWorld, waitUntil, type ChatWorld } from './testkit.ts';

const params = { id: PARTY };
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();

describe.each(DB_TARGETS)('scheduled and generated chat traffic on %s', (db) => {
  let w: ChatWorld;
  let watch: PartySocket;
  const history = async () => (await w.host.client.call('listChatMessages', { params, query: { limit: 200 } })).items;
  const chatEvents = () => watch.events.filter((e) => e.type === 'message').map((e) => ChatMessageEvent.parse(e));

  beforeAll(async () => {
    w = await startChatWorld(db);
    watch = await PartySocket.open(w.t, w.fan.token);
  });
  afterAll(async () => {
    watch?.close();
    await w?.close();
  });

  describe('scheduled messages (spec 3, 7; SPEC-NOTES)', () => {
    it('recurring_interval 2147483648 (past the integer column) is refused with 422 {detail}, never a 500', async () => {
      const res = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/chat/schedule`, {
        method: 'POST',
        headers: { 'x-cms-token': TEST_CMS_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'Too rare', post_at: inMs(60_000), recurring_interval: 2147483648 }),
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toHaveProperty('detail');
    });

    it('a one-off message is posted once at its time, by the system; recurring_interval 0 is sent as null', async () => {
      const postAt = Date.now() + 800;
      const created = await w.cms.call('postScheduledMessage', { params, body: { text: 'Doors open!', sticker: 'party', post_at: new Date(postAt).toISOString(), recurring_interval: 0 } });
      expect(ScheduledMessage.parse(created)).toMatchObject({ text: 'Doors open!', sticker: 'party', recurring_interval: null });
      expect(Date.parse(created.post_at)).toBe(postAt);
      expect((await w.cms.call('listScheduledMessages', { params })).items).toContainEqual(created);

      const event = ChatMessageEvent.parse(await watch.waitFor((e) => e.type === 'message' && 'text' in e && e.text === 'Doors open!'));
      expect(event.sender).toBeNull();
      expect(event.sticker).toBe('party');
      expect(event.timestamp_ms).toBeGreaterThanOrEqual(postAt);
      const stored = (await history()).filter((m) => m.text === 'Doors open!');
      expect(stored).toHaveLength(1);
      expect(stored[0]!.id).toBe(event.id);
    });

    it('a recurring message repeats every recurring_interval seconds until it is deleted', async () => {
      const postAt = Date.now() + 300;
      const created = await w.cms.call('postScheduledMessage', { params, body: { text: 'Hydrate!', post_at: new Date(postAt).toISOString(), recurring_interval: 1 } });
      expect(created.recurring_interval).toBe(1);
      const runs = await waitUntil(() => {
        const got = chatEvents().filter((m) => m.text === 'Hydrate!');
        return got.length >= 3 ? got : undefined;
      });
      runs.forEach((m, i) => expect(m.timestamp_ms).toBeGreaterThanOrEqual(postAt + i * 1000));
      await w.cms.call('deleteScheduledMessage', { params: { id: PARTY, scheduleId: created.id } });
      const atDelete = chatEvents().filter((m) => m.text === 'Hydrate!').length;
      expect((await w.cms.call('listScheduledMessages', { params })).items.map((s) => s.id)).not.toContain(created.id);
      // A one-off two intervals later: once it arrived, a live repeat would have arrived too.
      await w.cms.call('postScheduledMessage', { params, body: { text: 'Marker', post_at: inMs(2200) } });
      await watch.waitFor((e) => e.type === 'message' && 'text' in e && e.text === 'Marker');
      // At most a run that was already being posted when the delete came in.
      expect(chatEvents().filter((m) => m.text === 'Hydrate!').length - atDelete).toBeLessThanOrEqual(1);
    });

    it('refuses a sticker outside the party list, a bad time and an unknown id', async () => {
      await expectStatus(w.cms.call('postScheduledMessage', { params, body: { text: 'x', sticker: 'nope', post_at: inMs(1000) } }), 422);
      await expectStatus(w.cms.call('postScheduledMessage', { params, body: { text: 'x', post_at: 'tomorrow' } }), 422);
      await expectStatus(w.cms.call('postScheduledMessage', { params, body: { text: 'x', post_at: inMs(1000), recurring_interval: -1 } }), 422);
      await expectStatus(w.cms.call('deleteScheduledMessage', { params: { id: PARTY, scheduleId: 'nope' } }), 404);
      await expectStatus(w.cms.call('listScheduledMessages', { params: { id: 'no-such-party' } }), 404);
    });

    it('exactly once across nodes: two servers on one database post each due run once', async () => {
      const second = await startTestServer({ db: 'sqlite', env: { DATABASE_URL: w.t.server.ctx.config.databaseUrl } });
      try {
        const postAt = Date.now() + 500;
        await w.cms.call('postScheduledMessage', { params, body: { text: 'Both nodes', post_at: new Date(postAt).toISOString(), recurring_interval: 1 } });
        const runs = await waitUntil(async () => {
          const got = (await history()).filter((m) => m.text === 'Both nodes');
          return got.length >= 4 ? got : undefined;
        }, 15_000);
        const due = runs.map((m) => Math.floor((m.timestamp_ms - postAt) / 1000));
        // One message per due time: no run posted twice, by either node.
        expect(new Set(due).size).toBe(due.length);
      } finally {
        const schedule = await w.cms.call('listScheduledMessages', { params });
        for (const s of schedule.items) await w.cms.call('deleteScheduledMessage', { params: { id: PARTY, scheduleId: s.id } });
        await second.close();
      }
    });
  });

  describe('fake chat traffic (spec 7; SPEC-NOTES: the load generator)', () => {
    it('a stop that reaches another node ends the run on the node that generates it', async () => {
      const second = await startTestServer({ db: 'sqlite', env: { DATABASE_URL: w.t.server.ctx.config.databaseUrl } });
      try {
        const fake = w.t.server.partyRuntime!.fakeTraffic;
        await w.cms.call('startFakeChat', { params, body: { messages_per_second: 5, stop_after: 600 } });
        expect(fake.isRunning(PARTY)).toBe(true);
        await new PartyClient({ baseUrl: second.partyUrl, cmsToken: TEST_CMS_TOKEN }).call('stopFakeChat', { params });
        await waitUntil(() => !fake.isRunning(PARTY));
      } finally {
        await second.close();
      }
    });

    const fakeOf = (items: ChatMessage[]) => items.filter((m) => m.sender?.id.startsWith('fake-'));

    it('fake fans post real messages through the fan path at the asked rate and stop after stop_after', async () => {
      const fake = w.t.server.partyRuntime!.fakeTraffic;
      await w.cms.call('startFakeChat', { params, body: { messages_per_second: 20, stop_after: 1 } });
      const first = await watch.waitFor((e) => e.type === 'message' && 'sender' in e && Boolean(e.sender?.id.startsWith('fake-')));
      expect(ChatMessageEvent.parse(first).sender).toMatchObject({ role: 'listener', quiz_score: 0 });
      await waitUntil(() => !fake.isRunning(PARTY));
      const posted = fakeOf(await history());
      expect(posted.length).toBeGreaterThanOrEqual(10);
      expect(posted.length).toBeLessThanOrEqual(25);
      // Fake fans are ordinary signed-up users: hosts can list them.
      const users = await w.host.client.call('listUsers', { params });
      expect(users.items.filter((u) => u.id.startsWith('fake-')).length).toBeGreaterThan(0);
    });

    it('DELETE chat/fake stops the traffic at once', async () => {
      const fake = w.t.server.partyRuntime!.fakeTraffic;
      await w.cms.call('clearChat', { params });
      await w.cms.call('startFakeChat', { params, body: { messages_per_second: 20, stop_after: 600 } });
      await waitUntil(async () => fakeOf(await history()).length >= 5);
      await w.cms.call('stopFakeChat', { params });
      expect(fake.isRunning(PARTY)).toBe(false);
      const atStop = fakeOf(await history()).length;
      const marker = await w.host.client.call('postChatMessage', { params, body: { text: 'after the stop' } });
      await watch.waitFor((e) => 'id' in e && e.id === marker.id);
      expect(fakeOf(await history()).length).toBe(atStop);
      // Stopping again is harmless.
      await w.cms.call('stopFakeChat', { params });
    });

    // Throughput is a benchmark figure (bench/fanout), not a test assertion: these machines are
    // shared. What must hold under any load is the rule itself: never more than the rate allows.
    it('posts through the real path and never more than messages_per_second × stop_after', async () => {
      const generator = w.t.server.partyRuntime!.fakeTraffic;
      await w.cms.call('clearChat', { params });
      await w.cms.call('startFakeChat', { params, body: { messages_per_second: 150, stop_after: 2 } });
      await waitUntil(() => !generator.isRunning(PARTY), 15_000);
      const fake = fakeOf(await history());
      expect(fake.length).toBeGreaterThan(0);
      const ctx = w.t.server.ctx;
      const row = await ctx.db
        .selectFrom('chat_messages')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('party_id', '=', PARTY)
        .where('sender_id', 'like', 'fake-%')
        .executeTakeFirstOrThrow();
      expect(Number(row.n)).toBeLessThanOrEqual(150 * 2);
    });

    it('refuses a bad rate or duration', async () => {
      await expectStatus(w.cms.call('startFakeChat', { params, body: { messages_per_second: 0, stop_after: 5 } }), 422);
      await expectStatus(w.cms.call('startFakeChat', { params, body: { messages_per_second: 5, stop_after: 0 } }), 422);
      await expectStatus(w.cms.call('startFakeChat', { params: { id: 'no-such-party' }, body: { messages_per_second: 5, stop_after: 5 } }), 404);
    });
  });
});

describe('chat timers on shutdown', () => {
  it('a server with pending polls, recurring messages and running fake traffic closes cleanly', async () => {
    const w = await startChatWorld('sqlite');
    await w.host.client.call('postPoll', { params, body: { question: 'Later?', options: ['a', 'b'], duration_seconds: 3600 } });
    await w.cms.call('postScheduledMessage', { params, body: { text: 'tick', post_at: inMs(0), recurring_interval: 1 } });
    await w.cms.call('startFakeChat', { params, body: { messages_per_second: 50, stop_after: 600 } });
    const fake = w.t.server.partyRuntime!.fakeTraffic;
    await waitUntil(() => fake.isRunning(PARTY));
    await w.close();
    expect(fake.isRunning(PARTY)).toBe(false);
  });
});
