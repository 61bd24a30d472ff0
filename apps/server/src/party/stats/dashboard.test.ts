/**
 * The hosts' live dashboard over the party socket (`view=dashboard`), the admin tool's
 * host actions, the recap and the CSV exports, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { CloseCode, PARTY_EXPORT_COLUMNS, STATS_CHAT_TAIL, type PartyStatsEvent } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_CMS_TOKEN, DB_TARGETS } from '../../test/harness.ts';
import { startLiveWorld, TestSocket, waitFor, type LiveWorld } from '../../test/liveParty.ts';

const PARTY = 'dash';

function dashboard(w: LiveWorld, token: string): TestSocket {
  const base = w.t.partyUrl.replace(/^http/, 'ws');
  return new TestSocket(`${base}/api/parties/${PARTY}?access_token=${encodeURIComponent(token)}&view=dashboard`);
}

const statsOf = (s: TestSocket): PartyStatsEvent[] => s.events.filter((e): e is PartyStatsEvent => e.type === 'party_stats');
const latest = (s: TestSocket): PartyStatsEvent | undefined => statsOf(s).at(-1);

async function csv(w: LiveWorld, name: string, headers: Record<string, string> = { 'x-cms-token': TEST_CMS_TOKEN }): Promise<{ status: number; type: string | null; rows: string[][] }> {
  const res = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/exports/${name}.csv`, { headers });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), rows: parseCsv(text) };
}

/** A small RFC 4180 reader for the assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r') continue;
    else if (c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

describe.each(DB_TARGETS)('the live dashboard, recap and exports, on %s', (db) => {
  let w: LiveWorld;
  beforeAll(async () => {
    w = await startLiveWorld(db, PARTY);
  }, 60_000);
  afterAll(async () => {
    await w?.close();
  });

  it('a listener may not open the dashboard (1008); the admin tool and a host may', async () => {
    const asListener = dashboard(w, w.fan.token);
    expect((await asListener.waitClosed()).code).toBe(CloseCode.POLICY_VIOLATION);
    const wrong = dashboard(w, 'not-a-token');
    expect((await wrong.waitClosed()).code).toBe(CloseCode.POLICY_VIOLATION);
    const asHost = dashboard(w, w.host.token);
    const first = await asHost.next('party_stats');
    expect(first.votes.length).toBeGreaterThan(0);
    asHost.close();
  });

  it('the dashboard gets aggregates (party_stats at most one per second), never the chat stream itself', async () => {
    const dash = dashboard(w, TEST_CMS_TOKEN);
    const first = await dash.next('party_stats');
    const messagesBefore = first.totals.messages;
    const fans = [w.fan, w.lena, w.admin].map((f) => TestSocket.open(w.t, PARTY, f.token));
    await Promise.all(fans.map((f) => f.next('hello')));
    await waitFor('three listeners on the dashboard', () => (latest(dash)?.listeners ?? 0) >= 3 && latest(dash));
    expect(latest(dash)!.totals.joins).toBeGreaterThanOrEqual(3);

    await w.cms.call('startParty', { params: { id: PARTY } });
    const posts = 45;
    for (let i = 0; i < posts; i++) {
      const by = [w.host, w.admin][i % 2]!; // hosts and admins post without the per-fan rate limit
      await by.client.call('postChatMessage', { params: { id: PARTY }, body: { text: `msg ${i}` } });
    }
    await waitFor('every message counted', () => (latest(dash)?.totals.messages ?? 0) >= messagesBefore + posts);
    // The fans' sockets carried each message; the dashboard only the aggregate frames.
    expect(dash.events.every((e) => e.type === 'party_stats')).toBe(true);
    const frames = statsOf(dash);
    for (const f of frames) expect(f.chat.length).toBeLessThanOrEqual(STATS_CHAT_TAIL);
    const carried = frames.reduce((n, f) => n + f.chat.length + f.chat_skipped, 0);
    expect(carried).toBeGreaterThanOrEqual(posts);
    expect(frames.length).toBeLessThan(posts);
    // After the snapshot sent on connect, frames come from the server's 1 s timer: a busy machine
    // only spaces them further, it never sends two in one interval (timer slack allowed).
    const ticks = frames.slice(1);
    const gaps = ticks.slice(1).map((f, i) => f.server_time_ms - ticks[i]!.server_time_ms);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900);
    expect(latest(dash)!.status?.track.id).toBeTruthy();
    for (const f of fans) f.close();
    await waitFor('leaves counted', () => (latest(dash)?.totals.leaves ?? 0) >= 3);
    dash.close();
  });

  it('votes and poll answers reach the dashboard; the admin tool posts the poll and moderates with its token', async () => {
    const dash = dashboard(w, TEST_CMS_TOKEN);
    await dash.next('party_stats');
    const tracks = (await w.cms.call('getTracks', { params: { id: PARTY } })).items;
    const target = tracks.at(-1)!.id;
    await w.fan.client.call('voteTrack', { params: { id: PARTY, trackId: target } });
    await w.lena.client.call('voteTrack', { params: { id: PARTY, trackId: target } });
    await waitFor('two votes on the dashboard', () => latest(dash)?.votes.find((v) => v.track_id === target)?.votes === 2);

    const poll = await w.cms.call('postPoll', { params: { id: PARTY }, body: { question: 'Best song?', options: ['A', 'B'], duration_seconds: 60, set_next_track: false } });
    expect(poll.sender).toBeNull();
    await w.fan.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 1 } });
    await w.lena.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 1 } });
    const withPoll = await waitFor('poll results on the dashboard', () => {
      const q = latest(dash)?.questions.find((x) => x.id === poll.poll_id);
      return q && q.results[1] === 2 && q;
    });
    expect(withPoll.question).toBe('Best song?');

    await w.cms.call('postPopup', { params: { id: PARTY }, body: { message: 'Hello all', free_only: false, is_closeable: true, is_restart: false } });
    await w.cms.call('postScoreboard', { params: { id: PARTY }, body: { count: 3 } });
    const msg = await w.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'to be deleted' } });
    await w.cms.call('deleteChatMessage', { params: { id: PARTY, messageId: msg.id } });
    await waitFor('deletion on the dashboard', () => statsOf(dash).some((f) => f.deleted_message_ids.includes(msg.id)));
    await w.cms.call('blockUser', { params: { id: PARTY, userId: w.lena.id } });
    await waitFor('blocked fan listed', () => latest(dash)?.blocked.some((b) => b.user_id === w.lena.id));
    await expect(w.lena.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'blocked?' } })).rejects.toMatchObject({ status: 403 });
    await w.cms.call('unblockUser', { params: { id: PARTY, userId: w.lena.id } });
    await waitFor('unblocked fan gone from the list', () => latest(dash) && !latest(dash)!.blocked.some((b) => b.user_id === w.lena.id));
    // A listener still may not moderate (the policy, not only the route).
    await expect(w.fan.client.call('blockUser', { params: { id: PARTY, userId: w.lena.id } })).rejects.toMatchObject({ status: 403 });
    dash.close();
  });

  it('after the end, the recap places chat, votes and the poll on the timeline of plays', async () => {
    await w.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: '=HYPERLINK("x")' } });
    await w.cms.call('endParty', { params: { id: PARTY } });
    const anon = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/recap`, { headers: { authorization: `Bearer ${w.host.token}` } });
    expect(anon.status).toBe(401);
    const recap = await w.cms.call('getPartyRecap', { params: { id: PARTY } });
    expect(recap.plays.length).toBeGreaterThanOrEqual(1);
    expect(recap.plays[0]!.ended_at_ms).not.toBeNull();
    expect(recap.chat_total).toBeGreaterThanOrEqual(46);
    const onPlay = recap.chat.reduce((n, p) => n + p.messages, 0);
    expect(onPlay + recap.chat_outside_plays).toBe(recap.chat_total);
    expect(onPlay).toBeGreaterThanOrEqual(46);
    expect(recap.votes.reduce((n, v) => n + v.votes, 0)).toBe(2);
    expect(recap.votes.every((v) => v.play === 0)).toBe(true);
    const poll = recap.questions.find((q) => q.question === 'Best song?')!;
    expect(poll.stamp.play).toBe(0);
    expect(poll.stamp.track_id).toBe(recap.plays[0]!.track_id);
    expect(poll.results).toEqual([0, 2]);
  });

  it('the chat log, results and fans export as CSV (streamed), stamped, formula-safe, with the competition consent', async () => {
    const chat = await csv(w, 'chat');
    expect(chat.status).toBe(200);
    expect(chat.type).toContain('text/csv');
    expect(chat.rows[0]).toEqual([...PARTY_EXPORT_COLUMNS.chat]);
    const texts = chat.rows.slice(1).map((r) => r[7]);
    expect(texts).toContain('msg 0');
    expect(texts).toContain(`'=HYPERLINK("x")`);
    const stamped = chat.rows.slice(1).find((r) => r[7] === 'msg 0')!;
    expect(stamped[12]).not.toBe('');
    expect(Number(stamped[13])).toBeGreaterThanOrEqual(0);

    const answers = await csv(w, 'answers');
    expect(answers.rows[0]).toEqual([...PARTY_EXPORT_COLUMNS.answers]);
    const b = answers.rows.find((r) => r[2] === 'Best song?' && r[7] === 'B')!;
    expect(b[8]).toBe('2');

    const fans = await csv(w, 'fans');
    expect(fans.rows[0]).toEqual([...PARTY_EXPORT_COLUMNS.fans]);
    expect(fans.rows.length - 1).toBe(4);
    expect(fans.rows.slice(1).every((r) => r[8] === 'true' || r[8] === 'false')).toBe(true);

    // Personal data: a host's bearer is no CMS token.
    expect((await csv(w, 'fans', { authorization: `Bearer ${w.host.token}` })).status).toBe(401);
  });
});
