import { PartyClient } from '@fanfare/client';
import { CloseCode, type SequencedEvent } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, dropRedisKeys, startTestServer, type TestServer } from '../test/harness.ts';
import { TestSocket, closeTestServer, publishEvent, setUpParty, waitFor, type LiveFan } from '../test/liveParty.ts';
import { voteQueueRefreshed } from '../party/timeline/queue.ts';

const RUN = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const P = 'cluster';

/** What a fan saw: sequenced events in arrival order, as JSON (identical bytes means identical events). */
const stream = (s: TestSocket, after = 0) => s.sequenced().filter((e) => e.seq_id > after).map((e) => JSON.stringify(e));

function expectContiguous(events: SequencedEvent[]): void {
  const seqs = events.map((e) => e.seq_id);
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBe(seqs[i - 1]! + 1);
}

describe.runIf(RUN)('two server nodes on one PostgreSQL and one Redis', () => {
  let pg: { url: string; drop: () => Promise<void> };
  let a: TestServer;
  let b: TestServer;
  let aClosed = false;
  let offset = 0;
  const prefix = `fanfare-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  let cast: { cms: PartyClient; fan: LiveFan; lena: LiveFan; host: LiveFan; admin: LiveFan };
  const onB = (fan: LiveFan) => new PartyClient({ baseUrl: b.partyUrl, accessToken: fan.token });

  beforeAll(async () => {
    pg = await createPostgresDatabase();
    const env = {
      DATABASE_URL: pg.url,
      REDIS_URL: process.env.TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: prefix,
      TIMELINE_TICK_MS: '20',
      SOCKET_BATCH_MS: '10',
    };
    a = await startTestServer({ env });
    b = await startTestServer({ env });
    for (const t of [a, b]) t.server.ctx.now = () => Date.now() + offset;
    cast = await setUpParty(a, P);
  }, 60_000);

  afterAll(async () => {
    if (!aClosed && a) await closeTestServer(a);
    if (b) await closeTestServer(b);
    await pg?.drop();
    await dropRedisKeys(prefix);
  });

  it('scale-out: fans on different nodes see the same events in the same seq_id order; timers fire once; a killed node\'s fans resume on the other without loss', async () => {
    const fanA = await TestSocket.connect(a, P, cast.fan.token);
    const hostA = await TestSocket.connect(a, P, cast.host.token);
    const lenaB = await TestSocket.connect(b, P, cast.lena.token);
    const adminB = await TestSocket.connect(b, P, cast.admin.token);
    const start = Math.max(...[fanA, hostA, lenaB, adminB].map((s) => s.lastSeq()));
    const sockets = [fanA, hostA, lenaB, adminB];

    // Events from both nodes at once: votes through each node's API, chat through each node's
    // API (numbered first, published after its row is stored), and direct hub events.
    const tracks = (await cast.fan.client.call('getTracks', { params: { id: P } })).items;
    await Promise.all([
      ...tracks.map((t, i) => (i % 2 ? cast.fan.client : onB(cast.lena)).call('voteTrack', { params: { id: P, trackId: t.id } })),
      ...[0, 1, 2].map((i) => cast.host.client.call('postChatMessage', { params: { id: P }, body: { text: `from A ${i}` } })),
      ...[0, 1, 2].map((i) => onB(cast.admin).call('postChatMessage', { params: { id: P }, body: { text: `from B ${i}` } })),
      ...Array.from({ length: 40 }, (_, i) =>
        publishEvent((i % 2 ? a : b).server.ctx, P, { type: 'votes_changed', track_id: `x${i}`, votes: i }),
      ),
    ]);
    // Votes publish the new order once per window, after their answers: wait for that too.
    await Promise.all([a, b].map((n) => voteQueueRefreshed(n.server.ctx, P)));
    let head = await b.server.ctx.hub.head(P);
    await waitFor('every fan at the head', () => sockets.every((s) => s.seenThrough() >= head));
    const reference = stream(fanA, start);
    expect(reference.length).toBeGreaterThanOrEqual(40 + 6 + tracks.length);
    for (const s of sockets) {
      expect(stream(s, start)).toEqual(reference);
      expectContiguous(s.sequenced().filter((e) => e.seq_id > start));
    }

    // The timeline: a start on A; both nodes' timers race for the track end, one wins.
    const started = await cast.host.client.call('startParty', { params: { id: P } });
    const first = started.status!.track;
    const mark = lenaB.events.length;
    offset += first.duration_ms + 10;
    await lenaB.next('track_change', (e) => e.status.track.id !== first.id, mark);
    await new Promise((r) => setTimeout(r, 300));
    head = await b.server.ctx.hub.head(P);
    await waitFor('every fan at the head', () => sockets.every((s) => s.seenThrough() >= head));
    for (const s of sockets) {
      const changes = s.sequenced().filter((e) => e.type === 'track_change' && e.status.track.id !== first.id);
      expect(changes).toHaveLength(1);
    }

    // Auto start across the cluster: once.
    const auto = await setUpParty(b, 'cluster-auto', { grants: false });
    const autoA = await TestSocket.connect(a, 'cluster-auto', auto.fan.token);
    const autoB = await TestSocket.connect(b, 'cluster-auto', auto.lena.token);
    await auto.cms.call('putParty', { params: { id: 'cluster-auto' }, body: { auto_start: true, starts_at: new Date(Date.now() + offset + 1000).toISOString() } });
    offset += 2000;
    await autoA.next('party_started');
    await autoB.next('party_started');
    await new Promise((r) => setTimeout(r, 300));
    expect(autoA.events.filter((e) => e.type === 'party_started')).toHaveLength(1);
    expect(autoB.events.filter((e) => e.type === 'party_started')).toHaveLength(1);
    autoA.close();
    autoB.close();

    // Node A goes away; its fans reconnect to B and resume from their last seq_id while B keeps
    // publishing.
    const lastFan = fanA.lastSeq();
    const lastHost = hostA.lastSeq();
    const closing = closeTestServer(a);
    aClosed = true;
    const publishing = (async () => {
      for (let i = 0; i < 30; i++) {
        await publishEvent(b.server.ctx, P, { type: 'votes_changed', track_id: `after-${i}`, votes: i });
        await onB(cast.lena).call(i % 2 ? 'voteTrack' : 'unvoteTrack', { params: { id: P, trackId: tracks.at(-1)!.id } });
      }
    })();
    await closing;
    expect((await fanA.waitClosed()).code).toBe(CloseCode.SERVER_SHUTDOWN);
    const fanB = TestSocket.open(b, P, cast.fan.token);
    fanB.send({ type: 'resume', last_seq_id: lastFan });
    const hostB = TestSocket.open(b, P, cast.host.token);
    hostB.send({ type: 'resume', last_seq_id: lastHost });
    await publishing;
    await voteQueueRefreshed(b.server.ctx, P);
    head = await b.server.ctx.hub.head(P);
    await waitFor('resumed fans at the head', () => [fanB, hostB, lenaB, adminB].every((s) => s.seenThrough() >= head));
    const lenaStream = stream(lenaB, start);
    expect([...stream(fanA, start).filter((j) => JSON.parse(j).seq_id <= lastFan), ...stream(fanB, lastFan)]).toEqual(lenaStream);
    expect([...stream(hostA, start).filter((j) => JSON.parse(j).seq_id <= lastHost), ...stream(hostB, lastHost)]).toEqual(lenaStream);
    expect(stream(adminB, start)).toEqual(lenaStream);
    expectContiguous(lenaB.sequenced().filter((e) => e.seq_id > start));
    for (const s of [fanB, hostB, lenaB, adminB]) s.close();
  }, 120_000);
});
