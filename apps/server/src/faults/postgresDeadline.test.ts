import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness.ts';
import { setUpParty, type LiveFan } from '../test/liveParty.ts';
import { recordFigures, send } from './load.ts';
import { PrivatePostgres, ServerNode, until } from './services.ts';

const P = 'pg-deadline';
/** The deadline the node is started with (DB_STATEMENT_TIMEOUT_MS). */
const DEADLINE_MS = 2_000;
const target = (node: ServerNode) => ({ partyUrl: node.partyUrl }) as TestServer;

/** The postmaster and every backend it started: freezing all of them is a hung database. */
function postgresProcesses(postmaster: number): number[] {
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent pid (after the command in parentheses).
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [postmaster, ...children];
}

describe('every query has a deadline: a frozen PostgreSQL answers 503 in time', () => {
  let pg: PrivatePostgres;
  let node: ServerNode;
  let fans: LiveFan[];

  beforeAll(async () => {
    pg = await PrivatePostgres.start();
    node = await ServerNode.start({ DATABASE_URL: pg.url, DB_STATEMENT_TIMEOUT_MS: String(DEADLINE_MS) });
    const cast = await setUpParty(target(node), P);
    fans = [cast.fan, cast.lena, cast.host, cast.admin];
  }, 180_000);

  afterAll(async () => {
    await node?.stop();
    pg?.destroy();
  }, 60_000);

  it('with PostgreSQL and its backends frozen (SIGSTOP), every chat post and read in flight is answered within DB_STATEMENT_TIMEOUT_MS + 1 s: 503 {detail}', async () => {
    // Posts work before the freeze (and warm the pool's connections).
    for (const f of fans) {
      expect((await send('warm', { method: 'POST', url: `${node.partyUrl}/api/parties/${P}/chat/messages`, token: f.token, body: { text: 'before' } })).status).toBe(201);
    }
    const frozen = postgresProcesses(pg.postmasterPid());
    for (const pid of frozen) process.kill(pid, 'SIGSTOP');
    const timings: { status: number; ms: number; detail: unknown }[] = [];
    try {
      const one = async (i: number) => {
        const f = fans[i % fans.length]!;
        const started = Date.now();
        const answer =
          i % 3 === 2
            ? await send('read', { method: 'GET', url: `${node.partyUrl}/api/parties/${P}/chat/messages?limit=10`, token: f.token })
            : await send('post', { method: 'POST', url: `${node.partyUrl}/api/parties/${P}/chat/messages`, token: f.token, body: { text: `frozen ${i}` } });
        const detail = typeof answer.body === 'object' && answer.body !== null ? (answer.body as { detail?: unknown }).detail : undefined;
        timings.push({ status: answer.status, ms: Date.now() - started, detail });
      };
      // 24 requests in flight at once: more than the pool's 10 connections, so some wait for one.
      await Promise.all(Array.from({ length: 24 }, (_, i) => one(i)));
    } finally {
      for (const pid of frozen) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Gone already.
        }
      }
    }
    // The goal's bound: the deadline plus one second for the answer to travel on a loaded machine.
    const late = timings.filter((x) => x.ms > DEADLINE_MS + 1_000);
    expect(late, JSON.stringify(timings)).toEqual([]);
    // The answer-from-memory reads may still succeed; whatever touched the database answered 503 {detail}.
    expect(timings.filter((x) => x.status !== 503 && x.status !== 200).map((x) => x.status)).toEqual([]);
    expect(timings.filter((x) => x.status === 503).every((x) => typeof x.detail === 'string')).toBe(true);
    expect(timings.some((x) => x.status === 503)).toBe(true);
    recordFigures('postgres-deadline', { deadline_ms: DEADLINE_MS, answers: timings.length, answers_503: timings.filter((x) => x.status === 503).length, slowest_ms: Math.max(...timings.map((x) => x.ms)) });

    // Thawed, the node serves again without a restart.
    await until('a post to succeed after the thaw', async () => (await send('after', { method: 'POST', url: `${node.partyUrl}/api/parties/${P}/chat/messages`, token: fans[0]!.token, body: { text: 'after' } })).status === 201);
    expect(node.alive).toBe(true);
  }, 120_000);
});
