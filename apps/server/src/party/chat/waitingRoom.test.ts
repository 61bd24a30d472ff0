/**
 * The waiting room is already a party: before the start, fans chat, react and answer polls with
 * the party's moderation; a host option (`frontend.waitingRoomReadOnly`) keeps it read-only for
 * listeners until the start, hosts and admins excepted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody, WAITING_ROOM_READ_ONLY_DETAIL, type FrontendSettings } from '@fanfare/protocol';
import { DB_TARGETS } from '../../test/harness.ts';
import { startLiveWorld, TestSocket, type LiveFan, type LiveWorld } from '../../test/liveParty.ts';
import { expectStatus } from './testkit.ts';

const P = 'waiting-room';
const params = { id: P };

/** A chat post over plain HTTP, for its status code. */
async function postText(w: LiveWorld, fan: LiveFan, text: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${w.t.partyUrl}/api/parties/${P}/chat/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fan.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return { status: res.status, body: await res.json() };
}

describe.each(DB_TARGETS)('the waiting room chat on %s', (db) => {
  let w: LiveWorld;
  const setFrontend = (frontend: FrontendSettings) => w.cms.call('putParty', { params, body: { frontend } });

  beforeAll(async () => {
    w = await startLiveWorld(db, P);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('an open waiting room takes a listener\'s chat post (201), reaction and poll answer before the start', async () => {
    const party = await w.fan.client.call('getParty', { params });
    expect(party.status).toBeNull();
    const posted = await postText(w, w.fan, 'Hello from the waiting room');
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ type: 'message', text: 'Hello from the waiting room' });
    expect(await w.fan.client.call('sendReaction', { params, body: { reaction: 'heart' } })).toEqual({ reaction: 'heart', track_id: null });
    const { poll } = await w.host.client.call('postPoll', { params, body: { question: 'Which track first?', options: ['A', 'B'], duration_seconds: 60 } });
    expect(await w.lena.client.call('answerPoll', { params: { id: P, pollId: poll!.id }, body: { answer_id: 1 } })).toEqual({ poll_id: poll!.id, answer_id: 1 });
  });

  it('a read-only waiting room refuses a listener\'s post, reaction and answers with 403 and says why; hosts and admins still post (201)', async () => {
    // Fans already waiting hear of the switch.
    const sock = await TestSocket.connect(w.t, P, w.lena.token);
    await setFrontend({ waitingRoomReadOnly: true });
    expect(await sock.next('party_changed')).toMatchObject({ waiting_room_read_only: true });
    sock.close();
    const refused = await postText(w, w.lena, 'Can I talk?');
    expect(refused.status).toBe(403);
    expect(ErrorBody.parse(refused.body).detail).toBe(WAITING_ROOM_READ_ONLY_DETAIL);
    expect((await expectStatus(w.lena.client.call('sendReaction', { params, body: { reaction: 'fire' } }), 403)).detail).toBe(WAITING_ROOM_READ_ONLY_DETAIL);
    const { poll } = await w.host.client.call('postPoll', { params, body: { question: 'Warm-up?', options: ['Yes', 'No'], duration_seconds: 60 } });
    await expectStatus(w.fan.client.call('answerPoll', { params: { id: P, pollId: poll!.id }, body: { answer_id: 0 } }), 403);
    const { quiz_question: q } = await w.admin.client.call('postQuizQuestion', { params, body: { question: 'Release year?', options: ['1999', '2001'], correct_answer: 1, duration_seconds: 60 } });
    await expectStatus(w.fan.client.call('answerQuizQuestion', { params: { id: P, questionId: q!.id }, body: { answer_id: 1 } }), 403);

    expect((await postText(w, w.host, 'Welcome, we start soon')).status).toBe(201);
    expect((await postText(w, w.admin, 'Admin here')).status).toBe(201);
    // Reading stays open to listeners.
    const recent = await w.lena.client.call('listRecentChatMessages', { params });
    expect(recent.items.map((m) => m.text)).toContain('Welcome, we start soon');
  });

  it('once the party starts, a listener of a read-only waiting room may post, react and answer', async () => {
    await w.host.client.call('startParty', { params });
    expect((await postText(w, w.lena, 'Finally!')).status).toBe(201);
    const reaction = await w.lena.client.call('sendReaction', { params, body: { reaction: 'fire' } });
    expect(reaction.track_id).not.toBeNull();
    const { poll } = await w.host.client.call('postPoll', { params, body: { question: 'Loud enough?', options: ['Yes', 'No'], duration_seconds: 60 } });
    expect(await w.fan.client.call('answerPoll', { params: { id: P, pollId: poll!.id }, body: { answer_id: 0 } })).toEqual({ poll_id: poll!.id, answer_id: 0 });
  });
});
