/**
 * Party Replay (issue 47) on a real server: the job builds the replay after the party's end, every
 * item sits at the track and position where it happened, what must never be replayed is left out
 * (deleted, blocked, erased, hidden), and the documents are served as cacheable, immutable bytes.
 * On SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CAMPAIGN_META, ReplayManifest, ReplayTrackDocument, type ReplayItem } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createApp, createCampaign, login } from '../../cms/testing.ts';
import { DB_TARGETS } from '../../test/harness.ts';
import { startLiveWorld, waitFor, type LiveWorld } from '../../test/liveParty.ts';

const PARTY = 'replay-party';
/** The replay must place each item within this much of where it happened (the bound). */
const TOLERANCE_MS = 250;

/** A raw GET: the test reads the cache headers and sends If-None-Match, which the typed client hides. */
async function get(w: LiveWorld, path: string, headers: Record<string, string> = {}) {
  return fetch(`${w.t.partyUrl}${path}`, { headers });
}

/** A GET that leaves the body as sent (fetch would decompress it), for the encodings. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function manifestOf(w: LiveWorld): Promise<ReplayManifest> {
  return ReplayManifest.parse(await (await get(w, `/api/parties/${PARTY}/replay`)).json());
}

async function itemsOf(w: LiveWorld, m: ReplayManifest): Promise<{ play: number; item: ReplayItem }[]> {
  const out: { play: number; item: ReplayItem }[] = [];
  for (const p of m.plays) {
    const doc = ReplayTrackDocument.parse(await (await get(w, p.document)).json());
    for (const item of doc.items) out.push({ play: p.index, item });
  }
  return out;
}

describe.each(DB_TARGETS)('party replay, on %s', (db) => {
  let w: LiveWorld;
  /** Where each item happened, as the live party's own player status placed it. */
  const expected = new Map<string, { track: string; position: number }>();
  const ids: Record<string, string> = {};
  /** Where the track was when Lena withdrew her vote. */
  let withdrawnAt: { track: string; position: number } = { track: '', position: 0 };

  /** The live position of the playing track at server time `atMs`, from the player status. */
  async function livePositionAt(atMs: number) {
    const { status } = await w.host.client.call('getPlayerStatus', { params: { id: PARTY } });
    expect(status?.is_paused).toBe(false);
    return { track: status!.track.id, position: status!.progress_ms + (atMs - status!.timestamp_ms) };
  }

  beforeAll(async () => {
    w = await startLiveWorld(db, PARTY, { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    // The waiting room's chat, before the first track.
    const early = await w.admin.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'early bird in the waiting room' } });
    ids.waiting = early.id;
    w.advanceClock(5_000);
    await w.cms.call('startParty', { params: { id: PARTY } });
    const tracks = (await w.cms.call('getTracks', { params: { id: PARTY } })).items;

    w.advanceClock(20_000);
    const hello = await w.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'hello from the start' } });
    ids.hello = hello.id;
    expected.set(hello.id, await livePositionAt(hello.timestamp_ms));
    const gone = await w.fan.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'this one is deleted' } });
    ids.deleted = gone.id;
    await w.fan.client.call('deleteChatMessage', { params: { id: PARTY, messageId: gone.id } });
    const lena = await w.lena.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'lena says hi' } });
    ids.blocked = lena.id;

    w.advanceClock(30_000);
    const poll = await w.host.client.call('postPoll', { params: { id: PARTY }, body: { question: 'Best song?', options: ['A', 'B'], duration_seconds: 30, set_next_track: false } });
    ids.poll = poll.poll_id!;
    expected.set(poll.poll_id!, await livePositionAt(poll.timestamp_ms));
    await w.fan.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 1 } });
    await w.lena.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 1 } });
    await w.admin.client.call('answerPoll', { params: { id: PARTY, pollId: poll.poll_id! }, body: { answer_id: 0 } });
    await w.fan.client.call('voteTrack', { params: { id: PARTY, trackId: tracks.at(-1)!.id } });
    ids.lastTrack = tracks.at(-1)!.id;
    // Lena's vote takes the lead (a tie goes to the earlier track); withdrawn, it hands the lead back.
    await w.lena.client.call('voteTrack', { params: { id: PARTY, trackId: tracks.at(-2)!.id } });
    // No clock advance here: the first track (70.7 s) must still play at the quiz, 65 s in.
    const withdrawn = await w.lena.client.call('unvoteTrack', { params: { id: PARTY, trackId: tracks.at(-2)!.id } });
    expect(withdrawn.voted).toBe(false);
    const now = await w.host.client.call('getPlayerStatus', { params: { id: PARTY } });
    withdrawnAt = { track: now.status!.track.id, position: now.status!.progress_ms + (now.server_time_ms - now.status!.timestamp_ms) };

    w.advanceClock(15_000);
    const quiz = await w.host.client.call('postQuizQuestion', {
      params: { id: PARTY },
      body: { question: 'Year?', options: ['1999', '2001'], correct_answer: 1, duration_seconds: 30, set_next_track: false },
    });
    ids.quiz = quiz.question_id!;
    expected.set(quiz.question_id!, await livePositionAt(quiz.timestamp_ms));
    await w.fan.client.call('answerQuizQuestion', { params: { id: PARTY, questionId: quiz.question_id! }, body: { answer_id: 1 } });
    const popup = await w.host.client.call('postPopup', { params: { id: PARTY }, body: { message: 'Merch is live', free_only: false, is_closeable: true, is_restart: false } });
    ids.popup = popup.id;
    const fromHost = await w.host.client.call('postChatMessage', { params: { id: PARTY }, body: { text: 'thanks for coming' } });
    ids.host = fromHost.id;

    // The block comes after the party's chat: her message still leaves the replay.
    await w.host.client.call('blockUser', { params: { id: PARTY, userId: w.lena.id } });
  }, 90_000);
  afterAll(async () => {
    await w?.close();
  });

  it('no replay while the party runs: 404 with a detail', async () => {
    const res = await get(w, `/api/parties/${PARTY}/replay`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/replay/);
  });

  it('the replay job builds the replay after the end: plays of the album, each document named in the manifest', async () => {
    await w.host.client.call('endParty', { params: { id: PARTY } });
    const m = await waitFor('the replay built', async () => (await get(w, `/api/parties/${PARTY}/replay`)).status === 200 && manifestOf(w));
    expect(m.build).toBe(1);
    expect(m.plays.length).toBeGreaterThanOrEqual(1);
    expect(m.plays[0]!.track.hls_url).toMatch(/index\.m3u8$/);
    expect(m.plays[0]!.document).toBe(`/api/parties/${PARTY}/replay/1/0`);
  });

  it('the campaign page of the party links to its replay once built (page metadata); other campaigns do not', async () => {
    const token = await login(w.t, ADMIN.email, ADMIN.password);
    const appId = await createApp(w.t, token, 'replay-pages');
    const ofParty = await createCampaign(w.t, token, { app_id: appId, name: 'Album night', slug: 'album-night', tag_manager: { party_id: PARTY } });
    const other = await createCampaign(w.t, token, { app_id: appId, name: 'Other', slug: 'other' });
    const replayMeta = new RegExp(`<meta name="${CAMPAIGN_META.partyReplay}" content="([^"]*)">`);
    // Raw: the HTML page as a browser loads it.
    expect(replayMeta.exec(await (await fetch(ofParty.url)).text())?.[1]).toBe(`${w.t.partyUrl}/p/${PARTY}/#/replay`);
    expect(replayMeta.exec(await (await fetch(other.url)).text())).toBeNull();
  });

  it('chat, poll, quiz and popup appear at the track and position where they happened (within 250 ms)', async () => {
    const m = await manifestOf(w);
    const items = await itemsOf(w, m);
    for (const [id, where] of expected) {
      const found = items.find((x) => x.item.id === id);
      expect(found, id).toBeDefined();
      expect(m.plays[found!.play]!.track.id).toBe(where.track);
      expect(Math.abs(found!.item.position_ms - where.position)).toBeLessThanOrEqual(TOLERANCE_MS);
    }
    // Positions follow the party clock: 20 s, 50 s and 65 s into the first track.
    const poll = items.find((x) => x.item.id === ids.poll)!.item;
    expect(poll.position_ms).toBeGreaterThanOrEqual(50_000 - TOLERANCE_MS);
    const doc = ReplayTrackDocument.parse(await (await get(w, m.plays[0]!.document)).json());
    const positions = doc.items.map((i) => i.position_ms);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('the poll carries its final result and the quiz its answer and counts; the popup and vote swing are placed too', async () => {
    const items = (await itemsOf(w, await manifestOf(w))).map((x) => x.item);
    const poll = items.find((i) => i.id === ids.poll);
    expect(poll).toMatchObject({ kind: 'poll', question: 'Best song?', total: 3, options: [{ text: 'A', votes: 1 }, { text: 'B', votes: 2 }] });
    const quiz = items.find((i) => i.id === ids.quiz);
    expect(quiz).toMatchObject({ kind: 'quiz', correct_answer: 1, total: 1, options: [{ text: '1999', votes: 0 }, { text: '2001', votes: 1 }] });
    expect(items.find((i) => i.id === ids.popup)).toMatchObject({ kind: 'popup', message: 'Merch is live' });
    expect(items.some((i) => i.kind === 'votes' && i.leader.votes === 1)).toBe(true);
  });

  it('deleted messages and messages of blocked fans never appear; other fans’ and hosts’ do', async () => {
    const items = (await itemsOf(w, await manifestOf(w))).map((x) => x.item);
    const texts = items.filter((i) => i.kind === 'message').map((i) => (i.kind === 'message' ? i.text : null));
    expect(texts).toContain('hello from the start');
    expect(texts).toContain('thanks for coming');
    expect(texts).not.toContain('this one is deleted');
    expect(texts).not.toContain('lena says hi');
    expect(items.map((i) => i.id)).not.toContain(ids.deleted);
    expect(items.map((i) => i.id)).not.toContain(ids.blocked);
  });

  it('documents are cacheable: immutable per build, ETag and 304; the manifest revalidates', async () => {
    const m = await manifestOf(w);
    const doc = await get(w, m.plays[0]!.document);
    expect(doc.headers.get('cache-control')).toContain('immutable');
    const etag = doc.headers.get('etag')!;
    expect(etag).toBe(`"r${m.build}-0"`);
    expect((await get(w, m.plays[0]!.document, { 'if-none-match': etag })).status).toBe(304);
    const manifest = await get(w, `/api/parties/${PARTY}/replay`);
    expect(manifest.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect((await get(w, `/api/parties/${PARTY}/replay`, { 'if-none-match': manifest.headers.get('etag')! })).status).toBe(304);
    expect((await get(w, `/api/parties/${PARTY}/replay/${m.build}/99`)).status).toBe(404);
  });

  it('the waiting room’s chat opens the replay: position 0 of the first play, marked before the start, ahead of the track’s own items', async () => {
    const m = await manifestOf(w);
    const doc = ReplayTrackDocument.parse(await (await get(w, m.plays[0]!.document)).json());
    const first = doc.items[0]!;
    expect(first).toMatchObject({ id: ids.waiting, kind: 'message', position_ms: 0, before_start: true, text: 'early bird in the waiting room' });
    expect(first.at_ms).toBeLessThan(m.plays[0]!.started_at_ms);
    // Items of the party itself carry no such mark.
    expect(doc.items.find((i) => i.id === ids.poll)?.before_start).toBeUndefined();
  });

  it('a withdrawn vote that hands the lead back is a vote swing where it happened, marked as a withdrawal', async () => {
    const m = await manifestOf(w);
    const items = await itemsOf(w, m);
    const swings = items.filter((x) => x.item.kind === 'votes');
    expect(swings.map((x) => (x.item.kind === 'votes' ? x.item.cause : null))).toEqual(['vote', 'vote', 'withdrawal']);
    const back = swings.at(-1)!;
    expect(back.item).toMatchObject({ kind: 'votes', cause: 'withdrawal', leader: { track_id: ids.lastTrack, votes: 1 } });
    expect(m.plays[back.play]!.track.id).toBe(withdrawnAt.track);
    expect(Math.abs(back.item.position_ms - withdrawnAt.position)).toBeLessThanOrEqual(TOLERANCE_MS);
  });

  it('documents and the manifest are sent as brotli or gzip by Accept-Encoding, decompressing to the same bytes under one ETag', async () => {
    const m = await manifestOf(w);
    for (const path of [m.plays[0]!.document, `/api/parties/${PARTY}/replay`]) {
      const plain = await rawGet(`${w.t.partyUrl}${path}`, { 'accept-encoding': 'identity' });
      const br = await rawGet(`${w.t.partyUrl}${path}`, { 'accept-encoding': 'gzip, deflate, br' });
      const gz = await rawGet(`${w.t.partyUrl}${path}`, { 'accept-encoding': 'gzip' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(br.headers['content-encoding']).toBe('br');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length);
      for (const res of [plain, br, gz]) {
        expect(res.headers.etag).toBe(plain.headers.etag);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
      }
      // The ETag holds across requests; a held one is 304 whatever the encoding.
      expect((await rawGet(`${w.t.partyUrl}${path}`, { 'accept-encoding': 'br' })).headers.etag).toBe(plain.headers.etag);
      expect((await rawGet(`${w.t.partyUrl}${path}`, { 'accept-encoding': 'br', 'if-none-match': plain.headers.etag! })).status).toBe(304);
    }
    const doc = await rawGet(`${w.t.partyUrl}${m.plays[0]!.document}`, { 'accept-encoding': 'br' });
    expect(doc.headers['cache-control']).toContain('immutable');
    expect(ReplayTrackDocument.parse(JSON.parse(brotliDecompressSync(doc.body).toString('utf8'))).dropped_items).toBe(0);
  });

  it('a listener may not hide replay items (403); a host hides one and the documents are rebuilt without it', async () => {
    const before = await manifestOf(w);
    const refused = await fetch(`${w.t.partyUrl}/api/parties/${PARTY}/replay/hidden/${ids.quiz}`, { method: 'PUT', headers: { authorization: `Bearer ${w.fan.token}` } });
    expect(refused.status).toBe(403);
    const hidden = await w.host.client.call('hideReplayItem', { params: { id: PARTY, itemId: ids.quiz! } });
    expect(hidden.item_ids).toEqual([ids.quiz]);
    const after = await waitFor('a new build', async () => {
      const m = await manifestOf(w);
      return m.build > before.build && m;
    });
    const items = (await itemsOf(w, after)).map((x) => x.item.id);
    expect(items).not.toContain(ids.quiz);
    expect(items).toContain(ids.poll);
    // The previous build stays readable for fans who loaded its manifest a moment ago.
    expect((await get(w, before.plays[0]!.document)).status).toBe(200);
    expect((await w.cms.call('getReplayHidden', { params: { id: PARTY } })).item_ids).toEqual([ids.quiz]);
  });

  it('showing a hidden item again puts it back after the rebuild', async () => {
    const before = await manifestOf(w);
    await w.admin.client.call('showReplayItem', { params: { id: PARTY, itemId: ids.quiz! } });
    const after = await waitFor('a new build', async () => {
      const m = await manifestOf(w);
      return m.build > before.build && m;
    });
    expect((await itemsOf(w, after)).map((x) => x.item.id)).toContain(ids.quiz);
  });

  it('an erased fan’s messages leave the replay; builds two behind answer 410', async () => {
    const before = await manifestOf(w);
    await w.fan.client.call('deleteMe', {});
    const after = await waitFor('a new build', async () => {
      const m = await manifestOf(w);
      return m.build > before.build && m;
    });
    const items = (await itemsOf(w, after)).map((x) => x.item);
    expect(items.map((i) => i.id)).not.toContain(ids.hello);
    expect(items.map((i) => i.id)).toContain(ids.host);
    expect((await get(w, `/api/parties/${PARTY}/replay/1/0`)).status).toBe(410);
  });
});
