/** Issue 10, "Correctness": chat paging, scoreboard duration, sticker defaults, FAQ sanitising, profile bounds. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STICKERS, type ChatMessage } from '@fanfare/protocol';
import { DB_TARGETS } from '../test/harness.ts';
import { PARTY, expectStatus, startChatWorld, type ChatWorld } from '../party/chat/testkit.ts';

describe.each(DB_TARGETS)('issue 10 correctness on %s', (db) => {
  let w: ChatWorld;
  const params = { id: PARTY };
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());

  it('issue 10: chat history pages on (timestamp_ms, seq_id), so messages sharing the edge millisecond are not skipped', async () => {
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

  it('spec 5 / issue 10: a quiz scoreboard honours duration_seconds', async () => {
    const board = await w.host.client.call('postScoreboard', { params, body: { count: 5, duration_seconds: 45 } });
    expect(board.type).toBe('quiz_scoreboard');
    expect(board.duration_seconds).toBe(45);
    expect(board.closes_at_ms! - board.timestamp_ms).toBeGreaterThanOrEqual(44_000);
    expect(board.closes_at_ms! - board.timestamp_ms).toBeLessThanOrEqual(46_000);
    const recent = await w.fan.client.call('listRecentChatMessages', { params });
    expect(recent.items.find((m) => m.id === board.id)?.duration_seconds).toBe(45);
  });

  it('spec 3 / issue 10: a new party starts with the 24 default stickers', async () => {
    const party = await w.cms.call('putParty', { params: { id: 'fresh-stickers' }, body: { name: 'Fresh' } });
    expect(party.frontend.visual?.stickers).toEqual([...DEFAULT_STICKERS]);
    expect(party.frontend.visual?.stickers).toHaveLength(24);
    const own = await w.cms.call('putParty', { params: { id: 'own-stickers' }, body: { frontend: { visual: { stickers: ['fire'] } } } });
    expect(own.frontend.visual?.stickers).toEqual(['fire']);
  });

  it('SPEC-NOTES / issue 10: FAQ HTML is sanitised at the server before it is stored', async () => {
    const answer = '<b>Yes</b><script>alert(1)</script><img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a><a href="https://example.com">ok</a>';
    const party = await w.cms.call('putParty', {
      params: { id: 'faq-party' },
      body: { frontend: { faq: [{ question: 'Q?', answer, locations: [{ page: 'All', service: 'All' }] }] } },
    });
    const stored = party.frontend.faq![0]!.answer;
    expect(stored).toContain('<b>Yes</b>');
    expect(stored).toContain('href="https://example.com"');
    for (const bad of ['<script', 'onerror', 'javascript:', '<img']) expect(stored).not.toContain(bad);
  });

  it('issue 10: profile_sticker must be one of the party stickers and profile_picture ours or https, both bounded', async () => {
    const fan = await w.appleFan('profile-bounds-fan', 'Bounds');
    const base = { real_name: 'Bounds', display_name: 'Bounds' };
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_sticker: 'not-a-sticker' } }), 422);
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_sticker: 'x'.repeat(2_000_000) } }), 422);
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_picture: `https://example.com/${'a'.repeat(2_000_000)}` } }), 422);
    await expectStatus(fan.client.call('signup', { params, body: { ...base, profile_picture: 'http://evil.example/p.png' } }), 422);
    const stickers = (await w.fan.client.call('getParty', { params })).frontend.visual?.stickers ?? [];
    const ok = await fan.client.call('signup', {
      params,
      body: { ...base, profile_picture: 'https://images.example.com/me.png', ...(stickers[0] ? { profile_sticker: stickers[0] } : {}) },
    });
    expect(ok.id).toBe(fan.id);
  });
});
