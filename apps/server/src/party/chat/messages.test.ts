import {
  CHAT_INITIAL_MESSAGES,
  CHAT_RATE_LIMIT_MESSAGES,
  CHAT_RATE_LIMIT_WINDOW_MS,
  CHAT_RATE_LIMITED_ERROR,
  CHAT_TEXT_MAX_LENGTH,
  ChatMessageEvent,
  ErrorBody,
  isSequencedEvent,
  type ChatMessage,
} from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { fanForToken } from '../auth/sessions.ts';
import { changesOf } from '../../platform/db/cache.ts';
import { newId } from '../../platform/tokens.ts';
import { runPartyWrite } from '../../realtime/unitOfWork.ts';
import { publishEvent } from '../../test/liveParty.ts';
import { queueMessage } from './messages/publish.ts';
import { emptyMessageRow, insertMessageWithinAllowance } from './messages/queries.ts';
import { postChatMessage } from './messages/service.ts';
import { PARTY, PartySocket, expectStatus, startChatWorld, type ChatWorld, type TestFan } from './testkit.ts';

const params = { id: PARTY };
// A real 1x1 PNG: uploads are checked by their bytes and by the canvas size they declare.
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082', 'hex'));
const MP4 = Uint8Array.from([0, 0, 0, 0x18, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('isomiso2mp41'), 1, 2, 3]);
const WEBM = Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...Buffer.from('webm'), 0x42, 0x87, 0x81, 0x04]);

function fileForm(bytes: Uint8Array, name: string, type = 'application/octet-stream'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

const sorted = (items: ChatMessage[]) =>
  items.every((m, i) => i === 0 || items[i - 1]!.timestamp_ms < m.timestamp_ms || (items[i - 1]!.timestamp_ms === m.timestamp_ms && items[i - 1]!.seq_id < m.seq_id));

describe.each(DB_TARGETS)('chat messages on %s', (db) => {
  let w: ChatWorld;
  let watch: PartySocket;
  const history = async (fan: TestFan = w.host) => (await fan.client.call('listChatMessages', { params, query: { limit: 200 } })).items;

  beforeAll(async () => {
    w = await startChatWorld(db);
    watch = await PartySocket.open(w.t, w.host.token);
  });
  afterAll(async () => {
    watch?.close();
    await w?.close();
  });

  it('spec 3 chat message: the server assigns id, seq_id and timestamp_ms and keeps the sender role and quiz score', async () => {
    const before = Date.now();
    const mine = await w.fan.client.call('postChatMessage', { params, body: { text: '  Hello party  ' } });
    expect(mine).toMatchObject({ type: 'message', text: 'Hello party', sticker: null, delete_message_id: null });
    expect(mine.id).toBeTruthy();
    expect(mine.seq_id).toBeGreaterThan(0);
    expect(mine.timestamp_ms).toBeGreaterThanOrEqual(before);
    expect(mine.sender).toEqual({ id: w.fan.id, role: 'listener', quiz_score: 0, display_name: 'Demo Fan', profile_picture: null, profile_sticker: null });

    const hosts = await w.host.client.call('postChatMessage', { params, body: { text: 'Welcome!' } });
    // Hosts and admins show their grant's name.
    expect(hosts.sender).toMatchObject({ id: w.host.id, role: 'host', display_name: 'Hanna Host' });
    expect(hosts.seq_id).toBeGreaterThan(mine.seq_id);
    const admins = await w.admin.client.call('postChatMessage', { params, body: { text: 'Admin here' } });
    expect(admins.sender).toMatchObject({ role: 'admin', display_name: 'Sam Admin' });

    // A client cannot choose the server's fields (they do not type-check in the client: raw on purpose).
    const res = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/chat/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.fan.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x', id: 'mine', seq_id: 1, timestamp_ms: 1 }),
    });
    expect(res.status).toBe(422);
    expect(ErrorBody.parse(await res.json()).detail).toBeInstanceOf(Array);
  });

  it('spec 4/7 socket: every message reaches the open sockets as a ChatMessage event whose seq_id is the message seq_id', async () => {
    const lenaSocket = await PartySocket.open(w.t, w.lena.token);
    try {
      const posted = await w.fan.client.call('postChatMessage', { params, body: { text: 'live?' } });
      for (const socket of [watch, lenaSocket]) {
        const parsed = ChatMessageEvent.parse(await socket.waitFor((e) => 'id' in e && e.id === posted.id));
        expect(parsed).toMatchObject({ seq_id: posted.seq_id, timestamp_ms: posted.timestamp_ms, text: 'live?' });
        expect(parsed.sender?.id).toBe(w.fan.id);
      }
      const seqs = watch.events.filter((e) => isSequencedEvent(e)).map((e) => (e as { seq_id: number }).seq_id);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    } finally {
      lenaSocket.close();
    }
  });

  it('spec 3/5: stickers only from the party sticker list, and only while the list is non-empty', async () => {
    const ok = await w.fan.client.call('postChatMessage', { params, body: { sticker: 'fire' } });
    expect(ok).toMatchObject({ sticker: 'fire', text: null });
    const body = await expectStatus(w.fan.client.call('postChatMessage', { params, body: { sticker: 'not-a-sticker' } }), 422);
    expect(JSON.stringify(body.detail)).toMatch(/sticker list/);

    const ctx = w.t.server.ctx;
    const party = await ctx.db.selectFrom('parties').select('frontend').where('id', '=', PARTY).executeTakeFirstOrThrow();
    const frontend = JSON.parse(party.frontend) as { visual: { stickers: string[] } };
    await ctx.db.updateTable('parties').set({ frontend: JSON.stringify({ ...frontend, visual: { ...frontend.visual, stickers: [] } }) }).where('id', '=', PARTY).execute();
    try {
      const off = await expectStatus(w.host.client.call('postChatMessage', { params, body: { sticker: 'fire' } }), 422);
      expect(JSON.stringify(off.detail)).toMatch(/not enabled/);
    } finally {
      await ctx.db.updateTable('parties').set({ frontend: party.frontend }).where('id', '=', PARTY).execute();
    }
  });

  it('spec 5 (ours): text is trimmed and bounded; an empty message is refused', async () => {
    await expectStatus(w.host.client.call('postChatMessage', { params, body: { text: 'x'.repeat(CHAT_TEXT_MAX_LENGTH + 1) } }), 422);
    await expectStatus(w.host.client.call('postChatMessage', { params, body: { text: '   ' } }), 422);
    await expectStatus(w.host.client.call('postChatMessage', { params, body: {} }), 422);
    const longest = await w.host.client.call('postChatMessage', { params, body: { text: 'y'.repeat(CHAT_TEXT_MAX_LENGTH) } });
    expect(longest.text).toHaveLength(CHAT_TEXT_MAX_LENGTH);
  });

  it('spec 7 chat: a reply names a message of the party', async () => {
    const target = await w.host.client.call('postChatMessage', { params, body: { text: 'Question?' } });
    const reply = await w.admin.client.call('postChatMessage', { params, body: { text: 'Answer!', reply_to_message_id: target.id } });
    expect(reply.reply_to_message_id).toBe(target.id);
    await expectStatus(w.admin.client.call('postChatMessage', { params, body: { text: 'to nowhere', reply_to_message_id: 'nope' } }), 422);
  });

  it('only fans signed up for the party may post (401 without token, 403 without signup)', async () => {
    await expectStatus(w.anon.call('postChatMessage', { params, body: { text: 'anon' } }), 401);
    const body = await expectStatus(w.stranger.client.call('postChatMessage', { params, body: { text: 'not signed up' } }), 403);
    expect(String(body.detail)).toMatch(/Sign up/);
    await expectStatus(w.fan.client.call('postChatMessage', { params: { id: 'no-such-party' }, body: { text: 'x' } }), 404);
  });

  it('spec 6: a blocked fan (can_chat false) is refused at the server, and may post again once unblocked', async () => {
    const fresh = await w.appleFan('host-hanna', 'Blockable');
    await w.host.client.call('blockUser', { params: { id: PARTY, userId: fresh.id } });
    const body = await expectStatus(fresh.client.call('postChatMessage', { params, body: { text: 'let me talk' } }), 403);
    expect(String(body.detail)).toMatch(/blocked/);
    await expectStatus(fresh.client.call('postChatMedia', { params, body: { photo: `${w.t.partyUrl}/uploads/media/x.png` } }), 403);
    await w.host.client.call('unblockUser', { params: { id: PARTY, userId: fresh.id } });
    expect((await fresh.client.call('postChatMessage', { params, body: { text: 'thanks' } })).text).toBe('thanks');
  });

  it('rate limit (ours): a fan beyond the per-fan limit gets 429 with a clear detail; hosts and admins are exempt', async () => {
    const chatty = await w.appleFan('demo-fan', 'Chatty');
    for (let i = 0; i < CHAT_RATE_LIMIT_MESSAGES; i++) await chatty.client.call('postChatMessage', { params, body: { text: `msg ${i}` } });
    const body = await expectStatus(chatty.client.call('postChatMessage', { params, body: { text: 'one too many' } }), 429);
    expect(body.detail).toMatchObject({ type: CHAT_RATE_LIMITED_ERROR, message: expect.stringMatching(/Too many messages/) });
    expect((body.detail as { retry_after_ms: number }).retry_after_ms).toBeGreaterThan(0);
    const stored = (await history()).filter((m) => m.sender?.id === chatty.id);
    expect(stored).toHaveLength(CHAT_RATE_LIMIT_MESSAGES);
    for (let i = 0; i < CHAT_RATE_LIMIT_MESSAGES + 3; i++) await w.host.client.call('postChatMessage', { params, body: { text: `host ${i}` } });
    for (let i = 0; i < CHAT_RATE_LIMIT_MESSAGES + 3; i++) await w.admin.client.call('postChatMessage', { params, body: { text: `admin ${i}` } });
  });

  it('spec 4/9: history is ordered by timestamp and seq_id; limit and before page backwards', async () => {
    for (let i = 0; i < 6; i++) await w.host.client.call('postChatMessage', { params, body: { text: `page ${i}` } });
    const all = await history();
    expect(sorted(all)).toBe(true);
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);

    const newest = (await w.fan.client.call('listChatMessages', { params, query: { limit: 3 } })).items;
    expect(newest.map((m) => m.id)).toEqual(all.slice(-3).map((m) => m.id));
    const cursor = newest[0]!.timestamp_ms;
    const older = (await w.fan.client.call('listChatMessages', { params, query: { limit: 4, before: cursor } })).items;
    expect(older.map((m) => m.id)).toEqual(all.filter((m) => m.timestamp_ms < cursor).slice(-4).map((m) => m.id));
    expect(older.every((m) => m.timestamp_ms < cursor)).toBe(true);
    expect(sorted(older)).toBe(true);

    // Default limit (spec 9: 20) and the bounds of limit.
    expect((await w.fan.client.call('listChatMessages', { params })).items).toHaveLength(Math.min(20, all.length));
    await expectStatus(w.fan.client.call('listChatMessages', { params, query: { limit: 0 } }), 422);
    await expectStatus(w.fan.client.call('listChatMessages', { params, query: { limit: 201 } }), 422);
    await expectStatus(w.anon.call('listChatMessages', { params }), 401);
  });

  it(`spec 9: GET chat/recent returns the newest ${CHAT_INITIAL_MESSAGES} messages, oldest first`, async () => {
    for (let i = 0; i < CHAT_INITIAL_MESSAGES; i++) await w.admin.client.call('postChatMessage', { params, body: { text: `bulk ${i}` } });
    const all = await history();
    const recent = (await w.fan.client.call('listRecentChatMessages', { params })).items;
    expect(recent).toHaveLength(CHAT_INITIAL_MESSAGES);
    expect(recent.map((m) => m.id)).toEqual(all.slice(-CHAT_INITIAL_MESSAGES).map((m) => m.id));
    expect(recent.at(-1)!.text).toBe(`bulk ${CHAT_INITIAL_MESSAGES - 1}`);
  });

  it('spec 7: a fan deletes their own message, a host or admin any; the deletion is broadcast as a deletion message', async () => {
    const own = await w.lena.client.call('postChatMessage', { params, body: { text: 'oops' } });
    const other = await w.fan.client.call('postChatMessage', { params, body: { text: 'rude' } });

    await expectStatus(w.lena.client.call('deleteChatMessage', { params: { id: PARTY, messageId: other.id } }), 403);
    await w.lena.client.call('deleteChatMessage', { params: { id: PARTY, messageId: own.id } });
    await w.host.client.call('deleteChatMessage', { params: { id: PARTY, messageId: other.id } });
    await expectStatus(w.host.client.call('deleteChatMessage', { params: { id: PARTY, messageId: other.id } }), 404);
    await expectStatus(w.anon.call('deleteChatMessage', { params: { id: PARTY, messageId: own.id } }), 401);

    for (const id of [own.id, other.id]) {
      const event = await watch.waitFor((e) => e.type === 'message' && 'delete_message_id' in e && e.delete_message_id === id);
      const deletion = ChatMessageEvent.parse(event);
      expect(deletion.seq_id).toBeGreaterThan(other.seq_id);
      expect(deletion.id).not.toBe(id);
    }
    const ids = (await history()).map((m) => m.id);
    expect(ids).not.toContain(own.id);
    expect(ids).not.toContain(other.id);
  });

  it('spec 7 uploads and chat media: photos and videos are checked by content and size, then posted', async () => {
    const photo = await w.fan.client.call('uploadMedia', { params, form: fileForm(PNG, 'cat.png') });
    expect(photo.url).toMatch(/\/uploads\/media\/.+\.png$/);
    const video = await w.fan.client.call('uploadMedia', { params, form: fileForm(MP4, 'clip.bin') });
    expect(video.url).toMatch(/\.mp4$/);
    const webm = await w.fan.client.call('uploadMedia', { params, form: fileForm(WEBM, 'clip.webm') });
    expect(webm.url).toMatch(/\.webm$/);

    // Stored media are files, not API routes: raw fetch (with the ranges a video player sends).
    const served = await fetch(video.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(MP4);
    // Video players fetch byte ranges.
    const part = await fetch(video.url, { headers: { range: 'bytes=4-11' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 4-11/${MP4.length}`);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('ftypisom');
    expect((await fetch(video.url, { headers: { range: `bytes=${MP4.length}-` } })).status).toBe(416);
    expect((await fetch(`${w.t.partyUrl}/uploads/media/..%2F..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);

    // By content, not by name or declared type: HTML called .png is refused.
    await expectStatus(w.fan.client.call('uploadMedia', { params, form: fileForm(new TextEncoder().encode('<html><script>x</script>'), 'evil.png', 'image/png') }), 415);
    // By size: beyond UPLOAD_MAX_BYTES.
    const big = new Uint8Array(w.t.server.ctx.config.uploadMaxBytes + 1);
    big.set(PNG);
    await expectStatus(w.fan.client.call('uploadMedia', { params, form: fileForm(big, 'big.png') }), 413);
    await expectStatus(w.stranger.client.call('uploadMedia', { params, form: fileForm(PNG, 'x.png') }), 403);
    await expectStatus(w.anon.call('uploadMedia', { params, form: fileForm(PNG, 'x.png') }), 401);

    // Earlier tests posted and deleted as this fan, and deleted posts keep counting against the
    // chat limit: the posts below start a fresh window on the server's clock (it stays ahead).
    const ctx = w.t.server.ctx;
    const clock = ctx.now;
    ctx.now = () => clock() + CHAT_RATE_LIMIT_WINDOW_MS + 1;
    const posted = await w.fan.client.call('postChatMedia', { params, body: { text: 'look', photo: photo.url } });
    expect(posted).toMatchObject({ type: 'message', text: 'look', photo: photo.url, video: null });
    const clip = await w.fan.client.call('postChatMedia', { params, body: { video: webm.url } });
    expect(clip.video).toBe(webm.url);

    // The wrong kind, someone else's upload, a foreign URL, or nothing at all are refused.
    await expectStatus(w.fan.client.call('postChatMedia', { params, body: { photo: video.url } }), 422);
    await expectStatus(w.lena.client.call('postChatMedia', { params, body: { photo: photo.url } }), 422);
    await expectStatus(w.fan.client.call('postChatMedia', { params, body: { photo: 'https://evil.example/x.png' } }), 422);
    await expectStatus(w.fan.client.call('postChatMedia', { params, body: { text: 'nothing' } }), 422);
    await expectStatus(w.stranger.client.call('postChatMedia', { params, body: { photo: photo.url } }), 403);
  });

  it('a refused call stores nothing and changes nothing', async () => {
    const before = await history();
    await expectStatus(w.fan.client.call('postChatMessage', { params, body: { sticker: 'nope' } }), 422);
    await expectStatus(w.stranger.client.call('postChatMessage', { params, body: { text: 'x' } }), 403);
    await expectStatus(w.lena.client.call('deleteChatMessage', { params: { id: PARTY, messageId: before.at(-1)!.id } }), 403);
    // Broken JSON cannot be sent through the typed client: a raw-protocol check.
    const res = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/chat/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${w.fan.token}`, 'content-type': 'application/json' },
      body: '{"text": ',
    });
    expect(res.status).toBe(400);
    expect(ErrorBody.parse(await res.json()).detail).toBeTruthy();
    expect(await history()).toEqual(before);
  });
});

describe('chat posts on SQLite under load', () => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld('sqlite');
  });
  afterAll(async () => {
    await w?.close();
  });

  it('two fans posting at once are stored, numbered and answered within one turn of the event loop', async () => {
    // Under the fan-out's write sweeps a turn of the loop takes 50-250 ms: a post that waited a
    // turn more (as the seq_id recorder's UPDATE did under group commit, decision 0035) is
    // answered that much later, and the bench's posts back up behind it.
    const ctx = w.t.server.ctx;
    const other = await w.appleFan('sam', 'Turn Counter');
    const fans = await Promise.all([w.lena.token, other.token].map(async (token) => (await fanForToken(ctx.db, token, ctx.now()))!));
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const posted = await Promise.all(fans.map((fan, i) => postChatMessage(ctx, PARTY, fan, { text: `same turn ${i}` })));
    counting = false;
    expect(turns).toBe(1);
    // Stored with the seq_id its event got (the history's tie-break), before the answer.
    const stored = await w.host.client.call('listChatMessages', { params, query: { limit: 10 } });
    for (const m of posted) expect(stored.items.find((s) => s.id === m.id)?.seq_id).toBe(m.seq_id);
  });

  it('a post on its own is stored with the seq_id its event got before it is answered', async () => {
    const ctx = w.t.server.ctx;
    const fan = (await fanForToken(ctx.db, w.lena.token, ctx.now()))!;
    for (const text of ['alone 1', 'alone 2']) {
      const posted = await postChatMessage(ctx, PARTY, fan, { text });
      const row = await ctx.db.selectFrom('chat_messages').select('seq_id').where('id', '=', posted.id).executeTakeFirstOrThrow();
      expect(Number(row.seq_id)).toBe(posted.seq_id);
      expect(posted.seq_id).toBeGreaterThan(0);
    }
  });

  /** The kinds of write each statement made to chat_messages while `run` ran ('insert', 'change'). */
  async function messageWrites<T>(run: () => Promise<T>): Promise<{ result: T; kinds: string[] }> {
    const kinds: string[] = [];
    const stop = changesOf(w.t.server.ctx.db)!.listen((table, kind) => {
      if (table === 'chat_messages') kinds.push(kind);
    });
    try {
      return { result: await run(), kinds };
    } finally {
      stop();
    }
  }

  it('a row whose event is numbered after another event of the same moment records the seq_id its own event got', async () => {
    const ctx = w.t.server.ctx;
    const expected = (await ctx.hub.head(PARTY)) + 1;
    const { result: queued, kinds } = await messageWrites(() =>
      runPartyWrite(ctx, async (write) => {
        const q = await queueMessage(write, ctx, Object.assign(emptyMessageRow(newId(), PARTY, 'message'), { text: 'overtaken' }));
        // Another event is numbered between this row's insert and its own event.
        const other = await publishEvent(ctx, PARTY, { type: 'votes_changed', track_id: 'overtaking', votes: 1 });
        expect(other.seq_id).toBe(expected);
        return q;
      }),
    );
    expect(queued.message.seq_id).toBe(expected + 1);
    // The insert, then the numbering of its seq_id: for the read caches another insert (each told
    // when it runs and when it commits), since it only adds the row to what readers by seq_id see.
    expect(kinds).toEqual(['insert', 'insert', 'insert', 'insert']);
    const row = await ctx.db.selectFrom('chat_messages').select('seq_id').where('id', '=', queued.message.id).executeTakeFirstOrThrow();
    expect(Number(row.seq_id)).toBe(expected + 1);
  });
});

describe('rate limit (ours) on SQLite: one statement counts and stores', () => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld('sqlite');
  });
  afterAll(async () => {
    await w?.close();
  });

  it(`stores only while the sender has fewer than CHAT_RATE_LIMIT_MESSAGES (${CHAT_RATE_LIMIT_MESSAGES}) of their own messages in the party after \`since\``, async () => {
    const db = w.t.server.ctx.db;
    const now = Date.now();
    const row = (id: string, senderId: string, partyId = PARTY) => ({ ...emptyMessageRow(id, partyId, 'message'), sender_id: senderId, text: id, seq_id: 0, timestamp_ms: now });
    const allowance = { since: now - 1000, limit: 2 };
    const stored = async (id: string) => (await db.selectFrom('chat_messages').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    // An older message (before `since`) and another sender's do not count.
    await db.insertInto('chat_messages').values({ ...row('old', w.lena.id), timestamp_ms: now - 5000 }).execute();
    await db.insertInto('chat_messages').values(row('theirs', w.fan.id)).execute();
    expect(await insertMessageWithinAllowance(db, row('first', w.lena.id), allowance)).toBe(true);
    expect(await insertMessageWithinAllowance(db, row('second', w.lena.id), allowance)).toBe(true);
    expect(await insertMessageWithinAllowance(db, row('third', w.lena.id), allowance)).toBe(false);
    expect(await stored('third')).toBe(false);
    const first = await db.selectFrom('chat_messages').selectAll().where('id', '=', 'first').executeTakeFirstOrThrow();
    expect(first).toMatchObject({ party_id: PARTY, sender_id: w.lena.id, text: 'first', type: 'message', photo: null });
    expect(Number(first.timestamp_ms)).toBe(now);
    // Another fan still has their whole allowance.
    expect(await insertMessageWithinAllowance(db, row('theirs 2', w.fan.id), allowance)).toBe(true);
  });
});
