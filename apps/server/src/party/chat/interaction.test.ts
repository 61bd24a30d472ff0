import { ChatMessage, ChatMessageEvent, PollResultsEvent, QuizResultsEvent } from '@fanfare/protocol';
import type { ApiError } from '@fanfare/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TARGETS } from '../../test/harness.ts';
import { PARTY, PartySocket, expectStatus, startChatWorld, waitUntil, type ChatWorld } from './testkit.ts';

const params = { id: PARTY };
const popup = { free_only: false, is_closeable: true, is_restart: false };

describe.each(DB_TARGETS)('popups, polls and quizzes on %s', (db) => {
  let w: ChatWorld;
  let watch: PartySocket;
  beforeAll(async () => {
    w = await startChatWorld(db);
    watch = await PartySocket.open(w.t, w.host.token);
  });
  afterAll(async () => {
    watch?.close();
    await w?.close();
  });

  describe('popups (spec 3 other entities, 7 chat): delivered only to the fans they target', () => {
    let sockets: { premium: PartySocket; free: PartySocket; apple: PartySocket };
    beforeAll(async () => {
      const appleSam = await w.appleFan('sam', 'Apple Sam');
      sockets = {
        premium: await PartySocket.open(w.t, w.fan.token),
        free: await PartySocket.open(w.t, w.lena.token),
        apple: await PartySocket.open(w.t, appleSam.token),
      };
    });
    afterAll(() => {
      for (const s of Object.values(sockets ?? {})) s.close();
    });

    /** Posts a popup to everyone and waits until every socket has it: earlier events are in by then. */
    async function barrier(): Promise<void> {
      const marker = await w.host.client.call('postPopup', { params, body: { ...popup, message: 'barrier' } });
      for (const s of Object.values(sockets)) await s.waitFor((e) => 'id' in e && e.id === marker.id);
    }

    it('a popup with a service reaches only fans logged in with that service', async () => {
      const m = await w.host.client.call('postPopup', { params, body: { ...popup, service: 'apple', message: 'Apple fans: restart please', is_restart: true } });
      expect(m.type).toBe('popup');
      expect(m.sender).toBeNull();
      expect(m.popup).toMatchObject({ service: 'apple', free_only: false, message: 'Apple fans: restart please', is_closeable: true, is_restart: true });
      expect(m.popup!.timestamp_ms).toBeGreaterThan(0);
      const got = ChatMessageEvent.parse(await sockets.apple.waitFor((e) => 'id' in e && e.id === m.id));
      expect(got.popup?.message).toBe('Apple fans: restart please');
      await barrier();
      expect(sockets.premium.message(m.id)).toBeUndefined();
      expect(sockets.free.message(m.id)).toBeUndefined();
    });

    it('a free_only popup reaches only fans without premium; an empty service targets every service', async () => {
      const m = await w.admin.client.call('postPopup', { params, body: { ...popup, service: '', free_only: true, message: 'Go premium!' } });
      expect(m.popup).not.toHaveProperty('service');
      await sockets.free.waitFor((e) => 'id' in e && e.id === m.id);
      await barrier();
      expect(sockets.premium.message(m.id)).toBeUndefined();
      expect(sockets.apple.message(m.id)).toBeUndefined();

      const everyone = await w.host.client.call('postPopup', { params, body: { ...popup, message: 'Hello all' } });
      for (const s of Object.values(sockets)) await s.waitFor((e) => 'id' in e && e.id === everyone.id);
    });

    it('popups are not part of the chat history; a bad popup is refused', async () => {
      const items = (await w.fan.client.call('listChatMessages', { params, query: { limit: 200 } })).items;
      expect(items.filter((m) => m.type === 'popup')).toEqual([]);
      await expectStatus(w.host.client.call('postPopup', { params, body: { ...popup, message: '' } }), 422);
      await expectStatus(w.host.client.call('postPopup', { params, body: { ...popup, message: 'x', service: 'tidal' as 'apple' } }), 422);
    });
  });

  describe('polls (spec 3, 7; SPEC-NOTES chat and interaction)', () => {
    it('a poll is posted, answered once per fan with live results, and closed after its duration', async () => {
      const created = await w.host.client.call('postPoll', { params, body: { question: 'Best track?', options: ['A', 'B', 'C'], duration_seconds: 2 } });
      expect(created.type).toBe('poll');
      const poll = created.poll!;
      expect(created.poll_id).toBe(poll.id);
      expect(poll).toMatchObject({ question: 'Best track?', options: ['A', 'B', 'C'], duration_seconds: 2, set_next_track: false, closed: false, results: [0, 0, 0] });
      expect(poll.closes_at_ms - poll.created_at_ms).toBe(2000);
      const pollParams = { id: PARTY, pollId: poll.id };

      expect(await w.fan.client.call('answerPoll', { params: pollParams, body: { answer_id: 0 } })).toEqual({ poll_id: poll.id, answer_id: 0 });
      await w.lena.client.call('answerPoll', { params: pollParams, body: { answer_id: 1 } });
      await w.admin.client.call('answerPoll', { params: pollParams, body: { answer_id: 1 } });
      const again = await expectStatus(w.fan.client.call('answerPoll', { params: pollParams, body: { answer_id: 2 } }), 409);
      expect(String(again.detail)).toMatch(/already answered/);
      await expectStatus(w.host.client.call('answerPoll', { params: pollParams, body: { answer_id: 3 } }), 422);
      await expectStatus(w.stranger.client.call('answerPoll', { params: pollParams, body: { answer_id: 0 } }), 403);
      await expectStatus(w.anon.call('answerPoll', { params: pollParams, body: { answer_id: 0 } }), 401);
      await expectStatus(w.fan.client.call('answerPoll', { params: { id: PARTY, pollId: 'nope' }, body: { answer_id: 0 } }), 404);

      const live = await watch.waitFor((e) => e.type === 'poll_results' && e.poll_id === poll.id && !e.closed && e.results.join() === '1,2,0');
      expect(PollResultsEvent.parse(live).seq_id).toBeGreaterThan(created.seq_id);
      const me = await w.fan.client.call('getPartyMe', { params });
      expect(me.poll_answers).toContainEqual({ poll_id: poll.id, answer_id: 0 });

      const closing = await watch.waitFor<PollResultsEvent>((e) => e.type === 'poll_results' && e.poll_id === poll.id && e.closed);
      expect(closing.results).toEqual([1, 2, 0]);
      expect(closing.server_time_ms).toBeGreaterThanOrEqual(poll.closes_at_ms);
      await expectStatus(w.host.client.call('answerPoll', { params: pollParams, body: { answer_id: 0 } }), 409);

      const inHistory = (await w.fan.client.call('listChatMessages', { params, query: { limit: 200 } })).items.find((m) => m.id === created.id)!;
      expect(inHistory.poll).toMatchObject({ id: poll.id, closed: true, results: [1, 2, 0] });
    });

    it('concurrent answers of one fan count once (the unique row decides)', async () => {
      const { poll } = await w.host.client.call('postPoll', { params, body: { question: 'Race?', options: ['x', 'y'], duration_seconds: 30 } });
      const attempts = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => w.lena.client.call('answerPoll', { params: { id: PARTY, pollId: poll!.id }, body: { answer_id: i % 2 } })),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
      for (const a of attempts) if (a.status === 'rejected') expect((a.reason as ApiError).status).toBe(409);
      const items = (await w.fan.client.call('listChatMessages', { params, query: { limit: 200 } })).items;
      const results = items.find((m) => m.poll_id === poll!.id)!.poll!.results;
      expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    });

    it('a poll refuses bad input (too few options, too short a duration, set_next_track with non-tracks)', async () => {
      await expectStatus(w.host.client.call('postPoll', { params, body: { question: 'Q', options: ['only'], duration_seconds: 5 } }), 422);
      await expectStatus(w.host.client.call('postPoll', { params, body: { question: 'Q', options: ['a', 'b'], duration_seconds: 0 } }), 422);
      const body = await expectStatus(
        w.host.client.call('postPoll', { params, body: { question: 'Next?', options: ['not-a-track', 'nor-this'], duration_seconds: 5, set_next_track: true } }),
        422,
      );
      expect(JSON.stringify(body.detail)).toMatch(/track id/);
    });
  });

  describe('quizzes and scoreboards (spec 3, 7; SPEC-NOTES chat and interaction)', () => {
    it('quiz answers score when the question closes; quiz_user_scores carries user_ids, scores and total_questions', async () => {
      const created = await w.host.client.call('postQuizQuestion', {
        params,
        body: { question: 'Release year?', options: ['1999', '2001', '2003'], correct_answer: 1, duration_seconds: 1 },
      });
      expect(created.type).toBe('quiz_question');
      const q = created.quiz_question!;
      expect(created.question_id).toBe(q.id);
      // The correct answer stays secret while the question is open.
      expect(q.correct_answer).toBeNull();
      const qParams = { id: PARTY, questionId: q.id };
      expect(await w.fan.client.call('answerQuizQuestion', { params: qParams, body: { answer_id: 1 } })).toEqual({ question_id: q.id, answer_id: 1 });
      await w.lena.client.call('answerQuizQuestion', { params: qParams, body: { answer_id: 0 } });
      await expectStatus(w.fan.client.call('answerQuizQuestion', { params: qParams, body: { answer_id: 0 } }), 409);
      await expectStatus(w.fan.client.call('answerPoll', { params: { id: PARTY, pollId: q.id }, body: { answer_id: 0 } }), 404);
      // Not scored yet: the score would give the answer away.
      expect((await w.fan.client.call('getPartyMe', { params })).quiz_score).toBe(0);

      const closed = await watch.waitFor<QuizResultsEvent>((e) => e.type === 'quiz_results' && e.question_id === q.id && e.closed);
      expect(QuizResultsEvent.parse(closed)).toMatchObject({ correct_answer: 1, results: [1, 1, 0] });
      const msg = ChatMessage.parse(await watch.waitFor((e) => e.type === 'quiz_user_scores'));
      expect(msg.sender).toBeNull();
      expect(msg.user_ids).toEqual([w.fan.id, w.lena.id]);
      expect(msg.scores).toEqual([1, 0]);
      expect(msg.total_questions).toBe(1);

      const me = await w.fan.client.call('getPartyMe', { params });
      expect(me.quiz_score).toBe(1);
      expect(me.quiz_answers).toEqual([{ question_id: q.id, answer_id: 1 }]);
      // Messages keep the sender's quiz score at the time of posting.
      const said = await w.fan.client.call('postChatMessage', { params, body: { text: 'I knew it' } });
      expect(said.sender!.quiz_score).toBe(1);
      const history = (await w.fan.client.call('listChatMessages', { params, query: { limit: 200 } })).items;
      expect(history.find((m) => m.id === created.id)!.quiz_question!.correct_answer).toBe(1);
    });

    it('the scoreboard (GET and POST with count) ranks the top fans', async () => {
      const { quiz_question: q } = await w.admin.client.call('postQuizQuestion', {
        params,
        body: { question: 'Label city?', options: ['Berlin', 'Hamburg'], correct_answer: 0, duration_seconds: 1, set_next_track: true },
      });
      expect(q!.set_next_track).toBe(false);
      const qParams = { id: PARTY, questionId: q!.id };
      await w.fan.client.call('answerQuizQuestion', { params: qParams, body: { answer_id: 0 } });
      await w.lena.client.call('answerQuizQuestion', { params: qParams, body: { answer_id: 0 } });
      await w.admin.client.call('answerQuizQuestion', { params: qParams, body: { answer_id: 1 } });
      await watch.waitFor((e) => e.type === 'quiz_results' && e.question_id === q!.id && e.closed);
      await waitUntil(() => watch.of('quiz_user_scores').length === 2);
      expect(watch.of('quiz_user_scores')[1]).toMatchObject({ user_ids: [w.fan.id, w.lena.id, w.admin.id], scores: [2, 1, 0], total_questions: 2 });

      const board = await w.lena.client.call('getScoreboard', { params, query: { count: 10 } });
      expect(board).toEqual({
        total_questions: 2,
        items: [
          { user_id: w.fan.id, display_name: 'Demo Fan', score: 2 },
          { user_id: w.lena.id, display_name: 'Lena', score: 1 },
        ],
      });
      expect((await w.lena.client.call('getScoreboard', { params, query: { count: 1 } })).items).toHaveLength(1);
      await expectStatus(w.lena.client.call('getScoreboard', { params, query: { count: 0 } }), 422);

      const posted = await w.host.client.call('postScoreboard', { params, body: { count: 1, duration_seconds: 10 } });
      expect(posted).toMatchObject({ type: 'quiz_scoreboard', sender: null, scoreboard: [{ user_id: w.fan.id, score: 2 }], total_questions: 2 });
      await watch.waitFor((e) => e.type === 'quiz_scoreboard' && 'id' in e && e.id === posted.id);
      await expectStatus(w.host.client.call('postScoreboard', { params, body: { count: 0 } }), 422);
    });

    it('a quiz question refuses a correct_answer outside its options', async () => {
      await expectStatus(
        w.host.client.call('postQuizQuestion', { params, body: { question: 'Q', options: ['a', 'b'], correct_answer: 2, duration_seconds: 5 } }),
        422,
      );
    });
  });

  describe('a poll with set_next_track steers the timeline (SPEC-NOTES party timeline)', () => {
    it('the winning track of a closed poll becomes the next track', async () => {
      // The demo party is seeded with its album's tracks.
      const tracks = await w.fan.client.call('getTracks', { params });
      const candidates = tracks.items.filter((t) => !t.played).slice(-2);
      expect(candidates).toHaveLength(2);
      const winner = candidates[1]!.id;
      const { poll } = await w.host.client.call('postPoll', {
        params,
        body: { question: 'Play next?', options: candidates.map((t) => t.id), duration_seconds: 1, set_next_track: true },
      });
      await w.fan.client.call('answerPoll', { params: { id: PARTY, pollId: poll!.id }, body: { answer_id: 1 } });
      await w.lena.client.call('answerPoll', { params: { id: PARTY, pollId: poll!.id }, body: { answer_id: 1 } });
      await w.admin.client.call('answerPoll', { params: { id: PARTY, pollId: poll!.id }, body: { answer_id: 0 } });
      await watch.waitFor((e) => e.type === 'poll_results' && e.poll_id === poll!.id && e.closed);
      const change = await watch.waitFor((e) => e.type === 'queue_change' && e.queue[0] === winner);
      expect(change.type).toBe('queue_change');
    });
  });
});
