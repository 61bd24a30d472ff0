import type { ChatMessage } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness.ts';
import { TestSocket, setUpParty, type LiveFan } from '../test/liveParty.ts';
import { Load, recordFigures, send, type Answer } from './load.ts';
import { PrivateRedis, ServerNode, chatMessagesIn, freshPostgres, until } from './services.ts';

const P = 'redis-fault';
const target = (node: ServerNode) => ({ partyUrl: node.partyUrl }) as TestServer;
const acked = (answers: Answer[]) => answers.filter((a) => a.status === 200 || a.status === 201).map((a) => a.body as ChatMessage);
const chatIds = (s: TestSocket) => chatMessagesIn(s.events).map((e) => e.id);

describe('faults: Redis restarts empty while two nodes serve one party', () => {
  let db: { url: string; close: () => Promise<void> };
  let redis: PrivateRedis;
  const nodes: ServerNode[] = [];
  let cast: Awaited<ReturnType<typeof setUpParty>>;

  beforeAll(async () => {
    // One after the other: if the second fails, afterAll still stops the first.
    db = await freshPostgres();
    redis = await PrivateRedis.start();
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url };
    nodes.push(await ServerNode.start(env));
    nodes.push(await ServerNode.start(env));
    cast = await setUpParty(target(nodes[0]!), P);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await redis?.destroy();
    await db?.close();
  }, 60_000);

  it('every acknowledged message reaches every connected fan exactly once and in order, seq_ids never go backwards, /readyz reports Redis, and a resume from before the restart gets resync', async () => {
    const [a, b] = nodes as [ServerNode, ServerNode];
    const fans: [ServerNode, LiveFan][] = [
      [a, cast.fan],
      [a, cast.lena],
      [b, cast.host],
      [b, cast.admin],
      [b, cast.fan],
      [a, cast.admin],
    ];
    const sockets = await Promise.all(fans.map(([node, fan]) => TestSocket.connect(target(node), P, fan.token)));
    const joinedAt = Math.max(...sockets.map((s) => s.lastSeq()));

    // Hosts and admins are exempt from the chat rate limit: they carry the burst, one per node.
    let n = 0;
    const load = new Load({
      viaA: () => ({ method: 'POST', url: `${a.partyUrl}/api/parties/${P}/chat/messages`, token: cast.host.token, body: { text: `a ${++n}` } }),
      viaB: () => ({ method: 'POST', url: `${b.partyUrl}/api/parties/${P}/chat/messages`, token: cast.admin.token, body: { text: `b ${++n}` } }),
    });
    let restartedAt = 0;
    let downAt = 0;
    let fansLiveAgainAt = 0;
    try {
      await until('messages through both nodes', () => ['viaA', 'viaB'].every((w) => acked(load.of(w)).length >= 10));
      downAt = Date.now();
      await redis.stopServer('SIGKILL');
      await until('both nodes to notice', () => ['viaA', 'viaB'].every((w) => load.of(w, downAt).some((x) => x.status === 503)));
      for (const node of nodes) {
        const ready = await send('probe', { method: 'GET', url: `${node.partyUrl}/readyz` });
        expect(ready.status).toBe(503);
        expect(JSON.stringify(ready.body)).toMatch(/redis/);
      }
      const seqBefore = Math.max(...acked(load.answers).map((m) => m.seq_id));
      await redis.startServer();
      restartedAt = Date.now();
      // Measured, not asserted: when every fan has its first event numbered after the restart.
      void until('fans to get events after the restart', () => sockets.every((s) => s.sequenced().some((e) => e.seq_id > seqBefore)), 60_000).then(
        () => (fansLiveAgainAt = Date.now()),
        () => undefined,
      );
      await until('messages through both nodes after the restart', () => ['viaA', 'viaB'].every((w) => acked(load.of(w, restartedAt)).length >= 10), 45_000);
    } finally {
      await load.stop();
    }
    expect(nodes.every((node) => node.alive)).toBe(true);
    const failures = load.answers.filter((x) => x.status !== 200 && x.status !== 201);
    expect(failures.filter((x) => x.status !== 503).map((x) => `${x.worker} ${x.status} ${JSON.stringify(x.body)}`)).toEqual([]);

    // seq_ids of one sender's acknowledged messages only ever grow, across the restart.
    for (const w of ['viaA', 'viaB']) {
      const seqs = acked(load.of(w)).map((m) => m.seq_id);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(new Set(seqs).size).toBe(seqs.length);
    }

    const all = acked(load.answers).sort((x, y) => x.seq_id - y.seq_id);
    const firstAfter = acked(load.of(null, restartedAt))[0]!;
    const deliveredAt: number[] = [];
    for (const s of sockets) {
      await until('every acknowledged message at every fan', () => {
        const seen = new Set(chatIds(s));
        return all.every((m) => seen.has(m.id));
      }, 45_000);
      deliveredAt.push(Date.now());
      const ids = chatIds(s);
      const ackedIds = new Set(all.map((m) => m.id));
      // Exactly once, and in seq_id order.
      expect(ids.filter((id) => ackedIds.has(id))).toEqual(all.map((m) => m.id));
      const seqs = s.sequenced().map((e) => e.seq_id).filter((q) => q > joinedAt);
      for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
      // No resync was needed by a connected fan: the stream simply went on.
      expect(s.events.some((e) => e.type === 'resync')).toBe(false);
    }

    // A fan who was away during the restart and resumes from a seq_id the new Redis never had
    // is told (resync), not silently given nothing.
    const before = all.filter((m) => m.seq_id < firstAfter.seq_id).at(-3)!;
    const late = TestSocket.open(target(b), P, cast.lena.token);
    late.send({ type: 'resume', last_seq_id: before.seq_id });
    await late.next('resync', () => true, 0, 30_000);
    late.close();
    for (const s of sockets) s.close();

    recordFigures('redis-restart', {
      acknowledged: all.length,
      acknowledged_after_restart: acked(load.of(null, restartedAt)).length,
      answers_503: failures.length,
      fans: sockets.length,
      lost: 0,
      duplicates: 0,
      first_seq_after_restart: firstAfter.seq_id,
      resumed_from_seq_before_restart: before.seq_id,
      first_ack_ms_after_redis_back: acked(load.of(null, restartedAt)).length ? load.of(null, restartedAt).find((x) => x.status < 300)!.at - restartedAt : null,
      outage_ms: restartedAt - downAt,
      every_fan_live_again_ms_after_redis_back: fansLiveAgainAt ? fansLiveAgainAt - restartedAt : null,
    });
  }, 150_000);
});
