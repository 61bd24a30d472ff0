import { isSequencedEvent, type ChatMessageEvent } from '@fanfare/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../test/harness.ts';
import { PARTY, PartySocket, expectStatus, startChatWorld, type ChatWorld } from '../party/chat/testkit.ts';
import { runPartyWrite } from './unitOfWork.ts';

const params = { id: PARTY };
const FAILING_TEXT = 'this insert fails';

/**
 * Makes the database refuse one chat message text, the way a constraint or a lost connection
 * would fail a real insert: the failure happens inside the write, after the service's checks.
 */
async function failInsertsOf(w: ChatWorld, text: string): Promise<void> {
  const { db, dialect } = w.t.server.ctx;
  if (dialect === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER fail_chat_insert BEFORE INSERT ON chat_messages WHEN NEW.text = '${text}' BEGIN SELECT RAISE(ABORT, 'injected insert failure'); END`)
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION fail_chat_insert() RETURNS trigger AS $$ BEGIN IF NEW.text = '${text}' THEN RAISE EXCEPTION 'injected insert failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql.raw('CREATE TRIGGER fail_chat_insert BEFORE INSERT ON chat_messages FOR EACH ROW EXECUTE FUNCTION fail_chat_insert()').execute(db);
}

describe.each(DB_TARGETS)('unit of work for writes that emit events on %s', (db) => {
  let w: ChatWorld;
  let watch: PartySocket;
  const sequenced = () => watch.events.filter(isSequencedEvent);

  beforeAll(async () => {
    w = await startChatWorld(db);
    await failInsertsOf(w, FAILING_TEXT);
    watch = await PartySocket.open(w.t, w.host.token);
  });
  afterAll(async () => {
    watch?.close();
    await w?.close();
  });

  it('a chat insert that fails publishes nothing, and the next message reaches fans with the next seq_id (no gap to wait for)', async () => {
    const before = await w.fan.client.call('postChatMessage', { params, body: { text: 'before the failure' } });
    await watch.waitFor((e) => 'id' in e && e.id === before.id);

    await expectStatus(w.fan.client.call('postChatMessage', { params, body: { text: FAILING_TEXT } }), 500);
    const after = await w.fan.client.call('postChatMessage', { params, body: { text: 'after the failure' } });
    const received = await watch.waitFor<ChatMessageEvent>((e) => 'id' in e && e.id === after.id);

    // The failed write used up no seq_id: the next message is numbered right after the last one,
    // so the socket's in-order delivery had nothing to wait for.
    expect(after.seq_id).toBe(before.seq_id + 1);
    expect(received.seq_id).toBe(after.seq_id);
    expect(sequenced().filter((e) => e.seq_id > before.seq_id).map((e) => e.seq_id)).toEqual([after.seq_id]);
    expect(watch.events.some((e) => 'text' in e && e.text === FAILING_TEXT)).toBe(false);
    expect(await w.t.server.ctx.hub.head(PARTY)).toBe(after.seq_id);

    // The stored row keeps the seq_id its event carried; the failed message was not stored.
    const items = (await w.host.client.call('listChatMessages', { params, query: { limit: 200 } })).items;
    expect(items.find((m) => m.id === after.id)?.seq_id).toBe(after.seq_id);
    expect(items.some((m) => m.text === FAILING_TEXT)).toBe(false);
  });

  it('quiz creation is one write: when its chat message cannot be stored, no question is stored or announced', async () => {
    const head = await w.t.server.ctx.hub.head(PARTY);
    await expectStatus(
      w.host.client.call('postQuizQuestion', {
        params,
        body: { question: FAILING_TEXT, options: ['a', 'b'], correct_answer: 0, duration_seconds: 30 },
      }),
      500,
    );
    const stored = await w.t.server.ctx.db.selectFrom('chat_questions').select('id').where('question', '=', FAILING_TEXT).execute();
    expect(stored).toEqual([]);
    expect(await w.t.server.ctx.hub.head(PARTY)).toBe(head);
  });

  it('a write that throws after queueing events rolls back its rows and publishes none of its events', async () => {
    const { ctx } = w.t.server;
    const head = await ctx.hub.head(PARTY);
    const refused = runPartyWrite(ctx, async (write) => {
      await write.db.updateTable('parties').set({ voting_enabled: 0 }).where('id', '=', PARTY).execute();
      write.emit(PARTY, { type: 'chat_cleared' });
      throw new Error('refused after queueing');
    });
    await expect(refused).rejects.toThrow('refused after queueing');
    expect(await ctx.hub.head(PARTY)).toBe(head);
    const party = await ctx.db.selectFrom('parties').select('voting_enabled').where('id', '=', PARTY).executeTakeFirstOrThrow();
    expect(Number(party.voting_enabled)).toBe(1);

    // A committed write publishes its events in queue order, numbered one after the other.
    const events = await runPartyWrite(ctx, async (write) => [
      write.emit(PARTY, { type: 'votes_changed', track_id: 'a', votes: 1 }),
      write.emit(PARTY, { type: 'votes_changed', track_id: 'b', votes: 2 }),
    ]);
    expect(events.map((q) => q.event)).toMatchObject([{ track_id: 'a' }, { track_id: 'b' }]);
    expect(events.map((q) => q.event.seq_id)).toEqual([head + 1, head + 2]);
  });

  it('ending a party is one write: ends_at is stored and party_ended then party_changed follow with consecutive seq_ids', async () => {
    const head = await w.t.server.ctx.hub.head(PARTY);
    const { ends_at } = await w.cms.call('endParty', { params });
    const changed = await watch.waitFor((e) => e.type === 'party_changed' && e.ends_at === ends_at);
    const ended = sequenced().find((e) => e.type === 'party_ended' && e.seq_id > head);
    expect(ended).toMatchObject({ type: 'party_ended', ends_at });
    expect(isSequencedEvent(changed) && changed.seq_id).toBe(ended!.seq_id + 1);
    const party = await w.cms.call('getParty', { params });
    expect(party.ends_at).toBe(ends_at);
  });
});
