/** Chat history (`GET .../chat/messages`): its paging cursor and the `before` it accepts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatMessage } from '@fanfare/protocol';
import { DB_TARGETS } from '../../test/harness.ts';
import { loginWithSpotify } from '../../test/logins.ts';
import { expectRefused, send } from '../../test/rawRequests.ts';
import { PARTY, startChatWorld, type ChatWorld } from './testkit.ts';

describe.each(DB_TARGETS)('chat history on %s', (db) => {
  let w: ChatWorld;
  const params = { id: PARTY };
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());

  it('listening-party §4 chat: history pages on (timestamp_ms, seq_id), so messages sharing the edge millisecond are not skipped', async () => {
    const ctx = w.t.server.ctx;
    const realNow = ctx.now;
    const frozen = realNow() + 60_000;
    ctx.now = () => frozen;
    const posted: ChatMessage[] = [];
    try {
      for (const text of ['same ms 1', 'same ms 2', 'same ms 3']) posted.push(await w.host.client.call('postChatMessage', { params, body: { text } }));
    } finally {
      ctx.now = realNow;
    }
    expect(new Set(posted.map((m) => m.timestamp_ms)).size).toBe(1);
    const newest = await w.fan.client.call('listChatMessages', { params, query: { limit: 2, before: frozen + 1 } });
    expect(newest.items.map((m) => m.text)).toEqual(['same ms 2', 'same ms 3']);
    const edge = newest.items[0]!;
    const older = await w.fan.client.call('listChatMessages', { params, query: { limit: 2, before: edge.timestamp_ms, before_seq_id: edge.seq_id } });
    expect(older.items.map((m) => m.text)).toContain('same ms 1');
    expect(older.items.at(-1)!.text).toBe('same ms 1');
  });

  it("listening-party §7 chat: a fractional or huge `before` in chat history answers 422 with detail", async () => {
    const fanToken = (await loginWithSpotify(w.t.partyUrl, "before-fan")).accessToken;
    for (const before of [
      "1.5",
      "1e300",
      "99999999999999999999",
      "-1",
      "NaN",
    ]) {
      // With a fan's bearer, so the answer is about the query and not about the missing login.
      expectRefused(
        await send(`${w.t.partyUrl}/api/parties/demo/chat/messages?before=${before}`, { headers: { authorization: `Bearer ${fanToken}` } }),
        422,
      );
    }
  });
});
