import { PartyClient } from '@fanfare/client';
import type { ChatMessage } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness.ts';
import { TestSocket, setUpParty } from '../test/liveParty.ts';
import { Load, recordFigures, type Answer } from './load.ts';
import { PrivateRedis, ServerNode, chatMessagesIn, freshPostgres, until } from './services.ts';

const target = (node: ServerNode) => ({ partyUrl: node.partyUrl }) as TestServer;
const acked = (answers: Answer[]) => answers.filter((a) => a.status === 200 || a.status === 201).map((a) => a.body as ChatMessage);

describe('faults: kill -9 of a node mid-burst', () => {
  let db: { url: string; close: () => Promise<void> };
  let redis: PrivateRedis;
  const nodes: ServerNode[] = [];

  beforeAll(async () => {
    // One after the other: if the second fails, afterAll still stops the first.
    db = await freshPostgres();
    redis = await PrivateRedis.start();
  }, 180_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await redis?.destroy();
    await db?.close();
  }, 60_000);

  it('with Redis, nothing a killed node acknowledged is lost: its fans resume on the other node and every fan has every acknowledged message once, in order', async () => {
    const P = 'kill-cluster';
    const env = { DATABASE_URL: db.url, REDIS_URL: redis.url };
    const a = await ServerNode.start(env);
    nodes.push(a);
    const b = await ServerNode.start(env);
    nodes.push(b);
    const cast = await setUpParty(target(a), P);
    const onA = await Promise.all([cast.fan, cast.lena].map((f) => TestSocket.connect(target(a), P, f.token)));
    const onB = await Promise.all([cast.host, cast.admin].map((f) => TestSocket.connect(target(b), P, f.token)));

    let n = 0;
    const load = new Load({
      viaA: () => ({ method: 'POST', url: `${a.partyUrl}/api/parties/${P}/chat/messages`, token: cast.host.token, body: { text: `a ${++n}` } }),
      viaB: () => ({ method: 'POST', url: `${b.partyUrl}/api/parties/${P}/chat/messages`, token: cast.admin.token, body: { text: `b ${++n}` } }),
    });
    let killedAt = 0;
    try {
      await until('a burst through node A', () => acked(load.of('viaA')).length >= 15);
      await a.kill9();
      killedAt = Date.now();
      await until('more messages through node B', () => acked(load.of('viaB', killedAt)).length >= 10);
    } finally {
      await load.stop();
    }
    expect(b.alive).toBe(true);
    const all = acked(load.answers).sort((x, y) => x.seq_id - y.seq_id);
    const fromA = acked(load.of('viaA'));
    expect(fromA.length).toBeGreaterThanOrEqual(15);

    // A's fans reconnect to B and resume from the last seq_id they applied.
    const resumed = onA.map((old, i) => {
      const s = TestSocket.open(target(b), P, [cast.fan, cast.lena][i]!.token);
      s.send({ type: 'resume', last_seq_id: old.lastSeq() });
      return { old, s };
    });
    const streams = [
      ...resumed.map(({ old, s }) => () => [...chatMessagesIn(old.events), ...chatMessagesIn(s.events)]),
      ...onB.map((s) => () => chatMessagesIn(s.events)),
    ];
    for (const stream of streams) {
      await until('every acknowledged message at every fan', () => {
        const seen = new Set(stream().map((m) => m.id));
        return all.every((m) => seen.has(m.id));
      }, 45_000);
      const ackedIds = new Set(all.map((m) => m.id));
      expect(stream().map((m) => m.id).filter((id) => ackedIds.has(id))).toEqual(all.map((m) => m.id));
    }
    for (const { s } of resumed) expect(s.events.some((e) => e.type === 'resync')).toBe(false);

    // And they are stored: the chat a reloading app fetches has them all.
    const stored = await new PartyClient({ baseUrl: b.partyUrl, accessToken: cast.fan.token }).call('listRecentChatMessages', { params: { id: P } });
    const storedIds = new Set(stored.items.map((m) => m.id));
    expect(fromA.filter((m) => !storedIds.has(m.id))).toEqual([]);
    for (const s of [...onA, ...onB, ...resumed.map((r) => r.s)]) s.close();

    recordFigures('node-kill-cluster', {
      acknowledged: all.length,
      acknowledged_by_killed_node: fromA.length,
      calls_to_the_killed_node_that_failed: load.of('viaA', killedAt - 1).filter((x) => x.status === 0).length,
      fans: streams.length,
      lost: 0,
      duplicates: 0,
    });
  }, 150_000);

  it('without Redis, a node killed mid-burst and started again loses nothing acknowledged, numbers above its old seq_ids, and its fans get resync', async () => {
    const P = 'kill-single';
    const dbUrl = db.url;
    const first = await ServerNode.start({ DATABASE_URL: dbUrl });
    nodes.push(first);
    const cast = await setUpParty(target(first), P);
    const socket = await TestSocket.connect(target(first), P, cast.fan.token);
    let n = 0;
    const load = new Load({
      host: () => ({ method: 'POST', url: `${first.partyUrl}/api/parties/${P}/chat/messages`, token: cast.host.token, body: { text: `m ${++n}` } }),
    });
    try {
      await until('a burst', () => acked(load.answers).length >= 15);
      await first.kill9();
    } finally {
      await load.stop();
    }
    const before = acked(load.answers);
    const lastSeen = socket.lastSeq();
    socket.close();

    const port = Number(new URL(first.partyUrl).port);
    const second = await ServerNode.start({ DATABASE_URL: dbUrl }, port);
    nodes.push(second);
    const back = TestSocket.open(target(second), P, cast.fan.token);
    back.send({ type: 'resume', last_seq_id: lastSeen });
    const resync = await back.next('resync', () => true, 0, 30_000);
    expect(resync.seq_id).toBeGreaterThan(Math.max(...before.map((m) => m.seq_id)));

    const host = new PartyClient({ baseUrl: second.partyUrl, accessToken: cast.host.token });
    const after = await host.call('postChatMessage', { params: { id: P }, body: { text: 'after the restart' } });
    expect(after.seq_id).toBeGreaterThan(resync.seq_id);
    await until('the new message at the fan', () => chatMessagesIn(back.events).some((m) => m.id === after.id));
    const stored = await host.call('listRecentChatMessages', { params: { id: P } });
    const storedIds = new Set(stored.items.map((m) => m.id));
    expect(before.filter((m) => !storedIds.has(m.id))).toEqual([]);
    back.close();
    recordFigures('node-kill-single', { acknowledged_before_kill: before.length, lost: 0, last_seq_before: Math.max(...before.map((m) => m.seq_id)), resync_seq: resync.seq_id, first_seq_after: after.seq_id });
  }, 150_000);
});
