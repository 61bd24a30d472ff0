/**
 * Polls and quizzes a host prepares for later are kept on the server, per party: a host prepares
 * them the day before on one device and starts them from another. Only the party's hosts and
 * admins (and the admin tool) see or change them; what is stored is bounded.
 */
import { PartyClient } from '@fanfare/client';
import { POLL_OPTIONS_MAX, POLL_QUESTION_MAX_LENGTH, PREPARED_QUESTIONS_MAX, type PostPreparedQuestionBody } from '@fanfare/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { PARTY, expectStatus, startChatWorld, type ChatWorld } from './testkit.ts';

const params = { id: PARTY };
const poll: PostPreparedQuestionBody = { kind: 'poll', body: { question: 'Best song?', options: ['Tide', 'Lights'], duration_seconds: 60, set_next_track: false } };
const quiz: PostPreparedQuestionBody = { kind: 'quiz', body: { question: 'Which year?', options: ['2019', '2021'], correct_answer: 1, duration_seconds: 30, set_next_track: false } };

describe.each(DB_TARGETS)('prepared polls and quizzes on %s', (db) => {
  let w: ChatWorld;
  beforeAll(async () => {
    w = await startChatWorld(db);
  });
  afterAll(async () => w?.close());
  beforeEach(async () => {
    await w.t.server.ctx.db.deleteFrom('chat_prepared_questions').execute();
  });

  it('a host prepares a poll and a quiz (201); the party\u2019s hosts and admins list them on any device, oldest first, and remove them', async () => {
    const p = await w.host.client.call('postPreparedQuestion', { params, body: poll });
    expect(p).toMatchObject({ kind: 'poll', body: poll.body });
    const q = await w.admin.client.call('postPreparedQuestion', { params, body: quiz });
    expect(q).toMatchObject({ kind: 'quiz', body: { correct_answer: 1 } });
    // Another device of the host (a new client, the host's own login) sees the same list.
    const otherDevice = new PartyClient({ baseUrl: w.t.partyUrl, accessToken: w.host.token });
    expect((await otherDevice.call('listPreparedQuestions', { params })).items.map((i) => i.id)).toEqual([p.id, q.id]);
    expect((await w.admin.client.call('listPreparedQuestions', { params })).items).toHaveLength(2);
    expect((await w.cms.call('listPreparedQuestions', { params })).items).toHaveLength(2);
    await w.host.client.call('deletePreparedQuestion', { params: { ...params, preparedId: p.id } });
    expect((await w.host.client.call('listPreparedQuestions', { params })).items.map((i) => i.id)).toEqual([q.id]);
    await expectStatus(w.host.client.call('deletePreparedQuestion', { params: { ...params, preparedId: p.id } }), 404);
  });

  it('listeners get 403, fans without a signup 403, callers without a token 401: they neither see nor change the list', async () => {
    const p = await w.host.client.call('postPreparedQuestion', { params, body: poll });
    for (const fan of [w.fan, w.stranger]) {
      expect((await expectStatus(fan.client.call('listPreparedQuestions', { params }), 403)).detail).toMatch(/hosts and admins/);
      await expectStatus(fan.client.call('postPreparedQuestion', { params, body: poll }), 403);
      await expectStatus(fan.client.call('deletePreparedQuestion', { params: { ...params, preparedId: p.id } }), 403);
    }
    await expectStatus(w.anon.call('listPreparedQuestions', { params }), 401);
    await expectStatus(w.host.client.call('listPreparedQuestions', { params: { id: 'no-such-party' } }), 404);
    expect((await w.host.client.call('listPreparedQuestions', { params })).items.map((i) => i.id)).toEqual([p.id]);
  });

  it('bounds: the question, its options and the quiz answer as the poll and quiz calls take them (422), and a kind that is neither', async () => {
    const bad: unknown[] = [
      { kind: 'poll', body: { ...poll.body, question: 'x'.repeat(POLL_QUESTION_MAX_LENGTH + 1) } },
      { kind: 'poll', body: { ...poll.body, options: Array.from({ length: POLL_OPTIONS_MAX + 1 }, (_, i) => `o${i}`) } },
      { kind: 'poll', body: { ...poll.body, question: '' } },
      { kind: 'quiz', body: { ...quiz.body, correct_answer: 2 } },
      { kind: 'video', body: poll.body },
      { kind: 'poll', body: poll.body, extra: 'x' },
    ];
    for (const body of bad) await expectStatus(w.host.client.call('postPreparedQuestion', { params, body: body as PostPreparedQuestionBody }), 422);
    expect((await w.host.client.call('listPreparedQuestions', { params })).items).toEqual([]);
  });

  it(`a party keeps at most PREPARED_QUESTIONS_MAX (${PREPARED_QUESTIONS_MAX}) prepared items: one more is 422 until one is started or removed`, async () => {
    const made = [];
    for (let i = 0; i < PREPARED_QUESTIONS_MAX; i++) made.push(await w.host.client.call('postPreparedQuestion', { params, body: { kind: 'poll', body: { ...poll.body, question: `Q${i}` } } }));
    expect((await expectStatus(w.host.client.call('postPreparedQuestion', { params, body: poll }), 422)).detail).toBeDefined();
    expect((await w.host.client.call('listPreparedQuestions', { params })).items).toHaveLength(PREPARED_QUESTIONS_MAX);
    await w.host.client.call('deletePreparedQuestion', { params: { ...params, preparedId: made[0]!.id } });
    expect(await w.host.client.call('postPreparedQuestion', { params, body: poll })).toMatchObject({ kind: 'poll' });
  });
});
