import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError, PartyClient } from '@fanfare/client';
import { CHAT_FETCH_MAX_LIMIT } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, startTestServer } from '../../test/harness.ts';
import { TestSocket } from '../../test/liveParty.ts';
import { loginWithSpotify } from '../../test/logins.ts';
import SQLite from 'better-sqlite3';
import { deleteChatMessage, postSystemText } from './messages/service.ts';
import { PARTY, startChatWorld, type ChatWorld } from './testkit.ts';

async function pageAfter(client: PartyClient, after: number): Promise<string[]> {
  const texts: string[] = [];
  let cursor = after;
  for (let page = 0; page < 100; page++) {
    const r = await client.call('listChatMessages', { params: { id: PARTY }, query: { after_seq_id: cursor, limit: CHAT_FETCH_MAX_LIMIT } });
    texts.push(...r.items.map((m) => m.text ?? ''));
    if (r.items.length < CHAT_FETCH_MAX_LIMIT) return texts;
    cursor = r.items.at(-1)!.seq_id;
  }
  throw new Error('the catch-up did not end');
}

describe.each(DB_TARGETS)('chat catch-up after a resync on %s', (db) => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld(db);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('listening-party §4 resume: after_seq_id pages every message after a seq_id, oldest first, with no gap and no duplicate', async () => {
    const ctx = w.t.server.ctx;
    const first = await postSystemText(ctx, PARTY, 'catch-up start', null);
    for (let i = 0; i < 250; i++) await postSystemText(ctx, PARTY, `catch-up ${i}`, null);
    const texts = await pageAfter(w.fan.client, first.seq_id);
    expect(texts).toEqual(Array.from({ length: 250 }, (_, i) => `catch-up ${i}`));
  });

  it('the catch-up cursor reads forward only: combined with before it is refused with a detail (400)', async () => {
    const err = await w.fan.client
      .call('listChatMessages', { params: { id: PARTY }, query: { after_seq_id: 1, before: Date.now(), limit: 20 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
  });
});

describe('chat after a restart of the single node (SQLite)', () => {
  it('a fan back after a restart finds every message stored while it was away, not only the newest page', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-restart-'));
    try {
      const before = await startTestServer({ env: { DATA_DIR: dir } });
      const token = (await loginWithSpotify(before.partyUrl, 'demo-fan')).accessToken;
      await new PartyClient({ baseUrl: before.partyUrl, accessToken: token }).call('signup', { params: { id: PARTY }, body: { real_name: 'Demo Fan', display_name: 'Demo Fan' } });
      const socket = await TestSocket.connect(before, PARTY, token);
      const lastSeen = socket.lastSeq();
      socket.ws.close();
      // 150 messages while the fan is away: more than the newest page of 80 a reload shows.
      for (let i = 0; i < 150; i++) await postSystemText(before.server.ctx, PARTY, `away ${i}`, null);
      await before.server.close();

      const after = await startTestServer({ env: { DATA_DIR: dir } });
      try {
        // The restarted node's retained log is empty: a resume gets `resync`, and the app pages.
        const back = TestSocket.open(after, PARTY, token);
        back.send({ type: 'resume', last_seq_id: lastSeen });
        const resync = await back.next('resync');
        expect(resync.seq_id).toBeGreaterThan(lastSeen);
        const texts = await pageAfter(new PartyClient({ baseUrl: after.partyUrl, accessToken: token }), lastSeen);
        expect(texts.filter((t) => t.startsWith('away '))).toEqual(Array.from({ length: 150 }, (_, i) => `away ${i}`));
        back.ws.close();
      } finally {
        await after.server.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('catch-up pages during a storm (SQLite)', () => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld('sqlite');
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('a full page of settled messages outlives new posts, and a deletion empties it', async () => {
    const ctx = w.t.server.ctx;
    const realNow = ctx.now;
    // Messages from a minute ago: settled, every seq_id long recorded.
    ctx.now = () => realNow() - 60_000;
    let marker: Awaited<ReturnType<typeof postSystemText>>;
    try {
      marker = await postSystemText(ctx, PARTY, 'settled start', null);
      for (let i = 0; i < CHAT_FETCH_MAX_LIMIT + 1; i++) await postSystemText(ctx, PARTY, `settled ${i}`, null);
    } finally {
      ctx.now = realNow;
    }
    const read = () => w.fan.client.call('listChatMessages', { params: { id: PARTY }, query: { after_seq_id: marker.seq_id, limit: CHAT_FETCH_MAX_LIMIT } });
    const first = await read();
    expect(first.items).toHaveLength(CHAT_FETCH_MAX_LIMIT);

    // A change the server is not told of (another program on the file) shows whether a read went to the database.
    const raw = new SQLite(`${w.t.dataDir}/fanfare.sqlite`);
    try {
      raw.prepare('update chat_messages set text = ? where id = ?').run('changed behind the cache', first.items[0]!.id);
    } finally {
      raw.close();
    }
    // The chat goes on: a post (an insert, then its seq_id recorded) leaves the settled page as it was.
    await postSystemText(ctx, PARTY, 'live post', null);
    expect((await read()).items[0]!.text).toBe('settled 0');

    // A deletion changes stored rows: the page is read again.
    await deleteChatMessage(ctx, PARTY, null, first.items[1]!.id);
    const after = await read();
    expect(after.items[0]!.text).toBe('changed behind the cache');
    expect(after.items.map((m) => m.id)).not.toContain(first.items[1]!.id);
  });
});
