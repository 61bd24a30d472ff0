import { CHAT_RATE_LIMIT_MESSAGES, CHAT_RATE_LIMIT_WINDOW_MS } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, TEST_CMS_TOKEN } from '../test/harness.ts';
import { startLiveWorld, type LiveWorld } from '../test/liveParty.ts';
import { send, type Answer } from './load.ts';

const P = 'race';
const statuses = (answers: Answer[]) => answers.map((a) => a.status).sort((x, y) => x - y);
const hasDetail = (a: Answer) => typeof a.body === 'object' && a.body !== null && 'detail' in a.body;

describe.each(DB_TARGETS)('limits and uniqueness hold under parallel requests (%s)', (db) => {
  let w: LiveWorld;
  const url = (path: string) => `${w.t.partyUrl}/api/parties/${P}${path}`;
  const burst = (n: number, make: () => Parameters<typeof send>[1]) => Promise.all(Array.from({ length: n }, () => send('burst', make())));

  beforeAll(async () => {
    w = await startLiveWorld(db, P);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it(`30 parallel chat posts by one fan: exactly CHAT_RATE_LIMIT_MESSAGES (${CHAT_RATE_LIMIT_MESSAGES}) are stored, the rest get 429 {detail}`, async () => {
    const answers = await burst(30, () => ({ method: 'POST', url: url('/chat/messages'), token: w.lena.token, body: { text: 'race' } }));
    expect(answers.filter((a) => a.status === 200 || a.status === 201)).toHaveLength(CHAT_RATE_LIMIT_MESSAGES);
    const refused = answers.filter((a) => a.status >= 300);
    expect(refused.every((a) => a.status === 429 && hasDetail(a))).toBe(true);
    const stored = await w.t.server.ctx.db
      .selectFrom('chat_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('party_id', '=', P)
      .where('sender_id', '=', w.lena.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(CHAT_RATE_LIMIT_MESSAGES);
  });

  it('chat rate limit: deleting your own messages gives back no allowance, also when posts and deletes run in parallel', async () => {
    // Earlier tests filled lena's window: start a fresh one on the server's clock.
    w.advanceClock(CHAT_RATE_LIMIT_WINDOW_MS + 1);
    const first = await burst(CHAT_RATE_LIMIT_MESSAGES, () => ({ method: 'POST', url: url('/chat/messages'), token: w.lena.token, body: { text: 'to delete' } }));
    expect(first.map((a) => a.status), JSON.stringify(first.map((a) => a.body))).toEqual(first.map(() => 201));
    const ids = first.map((a) => (a.body as { id: string }).id);
    const deleted = await Promise.all(ids.map((id) => send('delete', { method: 'DELETE', url: url(`/chat/messages/${id}`), token: w.lena.token })));
    expect(deleted.every((a) => a.status < 300)).toBe(true);
    // Post, delete, post: within the window every further post is refused.
    const again = await burst(10, () => ({ method: 'POST', url: url('/chat/messages'), token: w.lena.token, body: { text: 'refund?' } }));
    expect(statuses(again)).toEqual(Array.from({ length: 10 }, () => 429));
    expect(again.every(hasDetail)).toBe(true);
    // The allowance comes back only when the window has passed.
    w.advanceClock(CHAT_RATE_LIMIT_WINDOW_MS + 1);
    expect((await send('after', { method: 'POST', url: url('/chat/messages'), token: w.lena.token, body: { text: 'next window' } })).status).toBe(201);
  });

  it('with slow mode on, ten parallel posts by one fan: exactly one is stored, the rest get 429 {detail}', async () => {
    const put = await send('setup', { method: 'PUT', url: url('/chat/slow_mode'), token: w.host.token, body: { seconds: 60 } });
    expect(put.status).toBe(200);
    try {
      const answers = await burst(10, () => ({ method: 'POST', url: url('/chat/messages'), token: w.fan.token, body: { text: 'slow race' } }));
      expect(answers.filter((a) => a.status === 200 || a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status >= 300).every((a) => a.status === 429 && hasDetail(a))).toBe(true);
    } finally {
      await send('setup', { method: 'PUT', url: url('/chat/slow_mode'), token: w.host.token, body: { seconds: 0 } });
    }
  });

  it('ten parallel identical grant requests: one is created, nine get 409 {detail}, none 500', async () => {
    const answers = await burst(10, () => ({
      method: 'POST',
      url: url('/grants'),
      cmsToken: TEST_CMS_TOKEN,
      body: { service: 'apple', service_id: 'apple-race-1', role: 'host', display_name: 'Racing Host' },
    }));
    expect(statuses(answers).filter((s) => s < 300)).toHaveLength(1);
    expect(answers.filter((a) => a.status >= 300).every((a) => a.status === 409 && hasDetail(a))).toBe(true);
  });

  it('ten parallel answers by one fan to one poll: one counts, nine get 409', async () => {
    const poll = await w.host.client.call('postPoll', { params: { id: P }, body: { question: 'Race?', options: ['a', 'b'], duration_seconds: 600 } });
    const answers = await burst(10, () => ({ method: 'POST', url: url(`/chat/polls/${poll.poll_id}/answers`), token: w.fan.token, body: { answer_id: 1 } }));
    expect(statuses(answers).filter((s) => s < 300)).toHaveLength(1);
    expect(answers.filter((a) => a.status >= 300).every((a) => a.status === 409 && hasDetail(a))).toBe(true);
  });

  it('ten parallel votes and signups by one fan count once and never fail', async () => {
    const { items } = await w.fan.client.call('getTracks', { params: { id: P } });
    const track = items[0]!.id;
    const votes = await burst(10, () => ({ method: 'POST', url: url(`/tracks/${track}/votes`), token: w.admin.token }));
    expect(votes.every((a) => a.status < 300)).toBe(true);
    const after = await w.fan.client.call('getTracks', { params: { id: P } });
    const admins = await w.t.server.ctx.db.selectFrom('track_votes').select('fan_id').where('party_id', '=', P).where('track_id', '=', track).where('fan_id', '=', w.admin.id).execute();
    expect(admins).toHaveLength(1);
    expect(after.items.find((t) => t.id === track)).toBeDefined();

    const signups = await burst(10, () => ({ method: 'POST', url: url('/users'), token: w.lena.token, body: { real_name: 'Lena', display_name: 'Lena' } }));
    expect(signups.every((a) => a.status < 300)).toBe(true);
    const rows = await w.t.server.ctx.db.selectFrom('party_users').select('fan_id').where('party_id', '=', P).where('fan_id', '=', w.lena.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('parallel votes and withdrawals by four fans keep the track’s stored count equal to its vote rows', async () => {
    const { items } = await w.fan.client.call('getTracks', { params: { id: P } });
    const track = items[1]!.id;
    // Each fan votes, withdraws and votes again, all at once.
    const answers = await Promise.all(
      [w.fan, w.lena, w.admin, w.host].flatMap((f) =>
        (['POST', 'DELETE', 'POST', 'DELETE', 'POST'] as const).map((method) => send('vote race', { method, url: url(`/tracks/${track}/votes`), token: f.token })),
      ),
    );
    expect(answers.every((a) => a.status < 300)).toBe(true);
    const { db } = w.t.server.ctx;
    const rows = await db.selectFrom('track_votes').select('fan_id').where('party_id', '=', P).where('track_id', '=', track).execute();
    const kept = await db.selectFrom('party_tracks').select('votes').where('party_id', '=', P).where('track_id', '=', track).executeTakeFirstOrThrow();
    expect(Number(kept.votes)).toBe(rows.length);
    const after = await w.fan.client.call('getTracks', { params: { id: P } });
    expect(after.items.find((t) => t.id === track)!.votes).toBe(rows.length);
  });
});
