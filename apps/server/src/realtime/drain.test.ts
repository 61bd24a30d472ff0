import { CloseCode } from '@fanfare/protocol';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config.ts';
import { createPostgresDatabase, dropRedisKeys, startTestServer, type TestServer } from '../test/harness.ts';
import { TestSocket, closeTestServer, publishEvent, setUpParty, waitFor, type LiveFan } from '../test/liveParty.ts';
import { DRAIN_MAX_MS, drainPace } from './sockets.ts';

const RUN = Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
const P = 'drain';
/** 12 sockets at 20 a second: a drain of 0.6 s, in 12 slices of 1. */
const DRAIN_PER_SECOND = 20;
const SOCKETS_PER_FAN = 3;

describe('rolling restart: how a drain paces its closes', () => {
  it('closes everything at once at rate 0, and on a single node by default', () => {
    expect(drainPace(5_000, 0)).toEqual({ ticks: 1, perTick: 5_000 });
    expect(drainPace(0, 1_000)).toEqual({ ticks: 1, perTick: 0 });
    expect(loadConfig({}).live.socketDrainPerSecond).toBe(0);
  });

  it('spreads a cluster node\'s sockets at 1,000 a second by default, within DRAIN_MAX_MS', () => {
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }).live.socketDrainPerSecond).toBe(1_000);
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', SOCKET_DRAIN_PER_SECOND: '0' }).live.socketDrainPerSecond).toBe(0);
    // 5,000 sockets: 5 s in 100 slices of 50 ms.
    expect(drainPace(5_000, 1_000)).toEqual({ ticks: 100, perTick: 50 });
    // 100,000 sockets would take 100 s: the drain ends within DRAIN_MAX_MS, in bigger slices.
    const big = drainPace(100_000, 1_000);
    expect(big.ticks).toBe(DRAIN_MAX_MS / 50);
    expect(big.ticks * big.perTick).toBeGreaterThanOrEqual(100_000);
    // Every socket is in a slice, none twice.
    for (const n of [1, 7, 12, 999, 5_001]) {
      const { ticks, perTick } = drainPace(n, 40);
      expect(ticks * perTick).toBeGreaterThanOrEqual(n);
      expect((ticks - 1) * perTick).toBeLessThan(n);
    }
  });
});

/** Sends the start of a request on a connection opened before the drain; the rest is sent later. */
async function openRequest(url: string, firstLine: string): Promise<{ finish(rest: string): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const sock = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  // A request under way is not an idle connection: closing the listener leaves it open.
  sock.write(`${firstLine}\r\nHost: ${hostname}\r\n`);
  let answer = '';
  sock.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  return {
    async finish(rest: string) {
      sock.write(`${rest}\r\n`);
      await waitFor('an answer', () => /\r\n\r\n/.test(answer) && answer);
      sock.destroy();
      return answer;
    },
  };
}

describe.runIf(RUN)('rolling restart: a SIGTERM drains a cluster node\'s sockets to the others', () => {
  let pg: { url: string; drop: () => Promise<void> };
  let a: TestServer;
  let b: TestServer;
  let aClosed = false;
  const prefix = `fanfare-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  let fans: LiveFan[];

  beforeAll(async () => {
    pg = await createPostgresDatabase();
    const env = { DATABASE_URL: pg.url, REDIS_URL: process.env.TEST_REDIS_URL!, REDIS_KEY_PREFIX: prefix, SOCKET_BATCH_MS: '10' };
    a = await startTestServer({ env: { ...env, SOCKET_DRAIN_PER_SECOND: String(DRAIN_PER_SECOND) } });
    b = await startTestServer({ env });
    const cast = await setUpParty(a, P);
    fans = [cast.fan, cast.lena, cast.host, cast.admin];
  }, 60_000);

  afterAll(async () => {
    if (!aClosed && a) await closeTestServer(a);
    if (b) await closeTestServer(b);
    await pg?.drop();
    await dropRedisKeys(prefix);
  });

  it('closes the sockets with 4001 in slices, turns new ones away with 503 and Retry-After, says draining on /readyz, and every fan resumes on the other node without a gap', async () => {
    const onA = await Promise.all(fans.flatMap((f) => Array.from({ length: SOCKETS_PER_FAN }, () => TestSocket.connect(a, P, f.token))));
    await publishEvent(b.server.ctx, P, { type: 'votes_changed', track_id: 'before', votes: 1 });
    await waitFor('every socket has the event', () => onA.every((s) => s.seenThrough() > 0));
    const seqBeforeDrain = Math.max(...onA.map((s) => s.lastSeq()));
    const upgrade = await openRequest(a.partyUrl, `GET /api/parties/${P}?access_token=${encodeURIComponent(fans[0]!.token)} HTTP/1.1`);
    const readiness = await openRequest(a.partyUrl, 'GET /readyz HTTP/1.1');
    const closedAt = new Map<TestSocket, number>();
    for (const s of onA) s.ws.on('close', () => closedAt.set(s, performance.now()));

    const closing = closeTestServer(a);
    aClosed = true;
    // B goes on publishing while A drains: the fans that left early must get these on B.
    for (let i = 0; i < 5; i++) await publishEvent(b.server.ctx, P, { type: 'votes_changed', track_id: `during-${i}`, votes: i });
    await waitFor('the drain to start', () => closedAt.size > 0);

    // The listener is closed: a new connection is refused, so a proxy tries the next node.
    const { hostname, port } = new URL(a.partyUrl);
    const refused = await new Promise<string>((resolve) => net.connect(Number(port), hostname).once('connect', () => resolve('connected')).once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error')));
    expect(refused).toBe('ECONNREFUSED');
    // On a connection that was already open (a proxy's pool), an upgrade gets 503 with a retry hint.
    const refusal = await upgrade.finish('Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n');
    expect(refusal).toMatch(/^HTTP\/1\.1 503 /);
    expect(refusal).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refusal).toContain('"detail"');
    const ready = await readiness.finish('');
    expect(ready).toMatch(/^HTTP\/1\.1 503 /);
    expect(ready).toContain('"node":"draining"');

    await closing;
    for (const s of onA) expect(s.closed?.code).toBe(CloseCode.SERVER_SHUTDOWN);
    // In slices, not all at once: the last of 12 slices is due 550 ms after the first.
    const times = [...closedAt.values()];
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(11 * 50 * 0.8);

    const resumed = onA.map((s, i) => {
      const again = TestSocket.open(b, P, fans[Math.floor(i / SOCKETS_PER_FAN)]!.token);
      again.send({ type: 'resume', last_seq_id: s.lastSeq() });
      return { before: s, again };
    });
    const head = await b.server.ctx.hub.head(P);
    await waitFor('every fan at the head on B', () => resumed.every((r) => r.again.events.some((e) => e.type === 'hello') && Math.max(r.before.lastSeq(), r.again.seenThrough()) >= head));
    // A draining node goes on serving the fans it still has: the last ones left with B's events.
    expect(onA.some((s) => s.lastSeq() > seqBeforeDrain)).toBe(true);
    for (const { before, again } of resumed) {
      const seqs = [...before.sequenced(), ...again.sequenced().filter((e) => e.seq_id > before.lastSeq())].map((e) => e.seq_id);
      const from = seqs[0]!;
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => from + i));
      expect(seqs.at(-1)).toBe(head);
      again.close();
    }
  }, 60_000);
});
