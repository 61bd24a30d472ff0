import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartyClient } from '@fanfare/client';
import type { TestServer } from '../test/harness.ts';
import { TEST_CMS_TOKEN } from '../test/harness.ts';
import { TestSocket, setUpParty, type LiveFan } from '../test/liveParty.ts';
import { Load, recordFigures, send, type Answer } from './load.ts';
import { PrivatePostgres, PrivateRedis, ServerNode, chatMessagesIn, until } from './services.ts';

const P = 'pg-fault';
/** setUpParty and TestSocket only need the party URL of a node. */
const target = (node: ServerNode) => ({ partyUrl: node.partyUrl }) as TestServer;
const ok = (a: Answer) => a.status >= 200 && a.status < 300;
const detailOf = (a: Answer) => (typeof a.body === 'object' && a.body !== null && 'detail' in a.body ? (a.body as { detail: unknown }).detail : undefined);

describe('faults: PostgreSQL restarts and hangs under load', () => {
  let pg: PrivatePostgres;
  let redis: PrivateRedis;
  const nodes: ServerNode[] = [];
  let host: LiveFan;
  let admin: LiveFan;

  beforeAll(async () => {
    // One after the other: if the second fails, afterAll still stops the first.
    pg = await PrivatePostgres.start();
    redis = await PrivateRedis.start();
    const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url };
    // One after the other: the first applies the migrations.
    nodes.push(await ServerNode.start(env));
    nodes.push(await ServerNode.start(env));
    ({ host, admin } = await setUpParty(target(nodes[0]!), P));
  }, 180_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await redis?.destroy();
    pg?.destroy();
  }, 60_000);

  it('both nodes answer 503 {detail} while PostgreSQL is down, recover by themselves when it is back, and never die; /readyz follows; the timeline tick and scheduled messages keep running', async () => {
    const [a, b] = nodes as [ServerNode, ServerNode];
    const cms = new PartyClient({ baseUrl: a.partyUrl, cmsToken: TEST_CMS_TOKEN });
    await cms.call('startParty', { params: { id: P } });
    const fanSocket = await TestSocket.connect(target(b), P, host.token);

    let n = 0;
    let databaseDown = false;
    const load = new Load({
      chatA: () => ({ method: 'POST', url: `${a.partyUrl}/api/parties/${P}/chat/messages`, token: host.token, body: { text: `a ${++n}` } }),
      chatB: () => ({ method: 'POST', url: `${b.partyUrl}/api/parties/${P}/chat/messages`, token: admin.token, body: { text: `b ${++n}` } }),
      readA: () => ({ method: 'GET', url: `${a.partyUrl}/api/parties/${P}` }),
      readB: () => ({ method: 'GET', url: `${b.partyUrl}/api/parties/${P}/chat/recent`, token: host.token }),
    });
    try {
      await until('load to run on both nodes', () => ['chatA', 'chatB', 'readA', 'readB'].every((w) => load.of(w).filter(ok).length >= 5));

      const downAt = Date.now();
      pg.stopServer('fast');
      databaseDown = true;
      for (const w of ['chatA', 'chatB', 'readA', 'readB']) {
        await until(
          () => `${w} to see the database gone; its answers since: ${JSON.stringify(load.of(w, downAt).slice(-3))}; nodes alive: ${nodes.map((x) => x.alive)} ${nodes.map((x) => (x.alive ? '' : x.output.slice(-3000))).join('\n')}`,
          () => load.of(w, downAt).some((x) => x.status === 503),
        );
      }
      for (const node of nodes) {
        const ready = await send('probe', { method: 'GET', url: `${node.partyUrl}/readyz` });
        expect(ready.status).toBe(503);
        expect(detailOf(ready)).toMatch(/database/);
      }

      pg.startServer();
      databaseDown = false;
      const upAt = Date.now();
      const recoveredAt: Record<string, number> = {};
      for (const w of ['chatA', 'chatB', 'readA', 'readB']) {
        await until(() => `${w} to recover; its answers since: ${JSON.stringify(load.of(w, upAt).slice(-3))}`, () => load.of(w, upAt).some(ok), 45_000);
        recoveredAt[w] = load.of(w, upAt).find(ok)!.at;
      }
      for (const node of nodes) await until('readyz to be 200 again', async () => (await send('probe', { method: 'GET', url: `${node.partyUrl}/readyz` })).status === 200);
      await load.stop();

      // No process died, and no answer was anything but success or 503 with a detail.
      expect(nodes.every((node) => node.alive)).toBe(true);
      const failures = load.answers.filter((x) => !ok(x));
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((x) => x.status !== 503).map((x) => `${x.worker} ${x.status} ${JSON.stringify(x.body)}`)).toEqual([]);
      expect(failures.every((x) => typeof detailOf(x) === 'string')).toBe(true);

      // Background work survived: a scheduled message is posted, and the tick stops a party at ends_at.
      await cms.call('postScheduledMessage', { params: { id: P }, body: { text: 'after the restart', post_at: new Date(Date.now() + 500).toISOString() } });
      await until('the scheduled message', () => chatMessagesIn(fanSocket.events).some((m) => m.text === 'after the restart'));
      await cms.call('putParty', { params: { id: P }, body: { starts_at: new Date(Date.now() - 60_000).toISOString(), ends_at: new Date(Date.now() + 1_000).toISOString() } });
      await fanSocket.next('party_stopped', () => true, 0, 30_000);

      recordFigures('postgres-restart', {
        outage_ms: upAt - downAt,
        recovery_ms_after_database_back: Object.fromEntries(Object.entries(recoveredAt).map(([w, at]) => [w, at - upAt])),
        answers: load.answers.length,
        answers_503: failures.length,
        answers_other_errors: failures.filter((x) => x.status !== 503).length,
        processes_died: nodes.filter((node) => !node.alive).length,
      });
    } finally {
      await load.stop();
      fanSocket.close();
      // A failure half-way must not leave the next test without a database.
      if (databaseDown) pg.startServer();
    }
  }, 150_000);

  it('a hung database makes /readyz answer 503 within its timeout instead of hanging', async () => {
    const node = nodes[0]!;
    const pid = pg.postmasterPid();
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const ready = await send('probe', { method: 'GET', url: `${node.partyUrl}/readyz` });
      expect(ready.status).toBe(503);
      expect(detailOf(ready)).toMatch(/database/);
      recordFigures('postgres-hang', { readyz_answer_ms: Date.now() - started });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await until('readyz to be 200 again', async () => (await send('probe', { method: 'GET', url: `${node.partyUrl}/readyz` })).status === 200);
    expect(node.alive).toBe(true);
  }, 60_000);
});
