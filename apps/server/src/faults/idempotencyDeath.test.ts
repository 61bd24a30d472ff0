import { PartyClient } from '@fanfare/client';
import SQLite from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STALE_MS } from '../platform/idempotency.ts';
import { DB_TARGETS, type TestServer } from '../test/harness.ts';
import { setUpParty, type LiveFan } from '../test/liveParty.ts';
import { ServerNode, freshPostgres } from './services.ts';

const P = 'idem-death';
const target = (node: ServerNode) => ({ partyUrl: node.partyUrl }) as TestServer;
/** The preload that kills the node right before a statement (`FAULT_DIE_AT_SQL`). */
const DIE_AT_STATEMENT = fileURLToPath(new URL('./dieAtStatement.ts', import.meta.url));
/** The statement that marks a key `stored` (with the handler's first write). */
const MARK_SQL = String.raw`^update "idempotency_keys" set "state" = (\?|\$1) where`;
/** The statement that keeps the answer (`done`), after the handler's write committed. */
const ANSWER_SQL = String.raw`^update "idempotency_keys" set "state" = (\?|\$1), "status"`;

interface Answer {
  status: number;
  body: unknown;
  replayed: boolean;
}

async function post(url: string, token: string, body: unknown, key: string): Promise<Answer> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, replayed: res.headers.get('idempotency-replayed') === 'true' };
  } catch {
    // The node died with the request in flight: no answer.
    return { status: 0, body: null, replayed: false };
  }
}

describe.each(DB_TARGETS)('a node that dies in the middle of an idempotent chat post on %s', (db) => {
  const nodes: ServerNode[] = [];
  let dataDir = '';
  let pgDb: { url: string; close: () => Promise<void> } | null = null;
  let cast: { fan: LiveFan; host: LiveFan };
  let env: Record<string, string>;

  /** The pending timeout has passed for every key (their claims are made older than STALE_MS). */
  async function ageKeys(): Promise<void> {
    if (pgDb) {
      const client = new pg.Client({ connectionString: pgDb.url });
      await client.connect();
      try {
        await client.query('update idempotency_keys set created_at = created_at - $1', [STALE_MS + 1000]);
      } finally {
        await client.end();
      }
      return;
    }
    const file = new SQLite(path.join(dataDir, 'fanfare.sqlite'));
    try {
      file.prepare('update idempotency_keys set created_at = created_at - ?').run(STALE_MS + 1000);
    } finally {
      file.close();
    }
  }

  /** A node on the test's data; with `dieAt`, it kills itself right before that statement. */
  async function startNode(dieAt?: string): Promise<ServerNode> {
    const node = dieAt ? await ServerNode.start({ ...env, FAULT_DIE_AT_SQL: dieAt }, undefined, ['--import', DIE_AT_STATEMENT]) : await ServerNode.start(env);
    nodes.push(node);
    return node;
  }

  /** Posts `text` with `key` as `poster` to a node that dies at `dieAt`; the node is gone after. */
  async function postAndDie(dieAt: string, poster: LiveFan, text: string, key: string): Promise<void> {
    const doomed = await startNode(dieAt);
    const first = await post(`${doomed.partyUrl}/api/parties/${P}/chat/messages`, poster.token, { text }, key);
    expect(first.status, `the node answered instead of dying: ${JSON.stringify(first.body)}`).toBe(0);
    await doomed.exited;
    expect(doomed.alive).toBe(false);
    await ageKeys();
  }

  async function storedWith(node: ServerNode, text: string): Promise<string[]> {
    const client = new PartyClient({ baseUrl: node.partyUrl, accessToken: cast.host.token });
    const page = await client.call('listChatMessages', { params: { id: P }, query: { limit: 200 } });
    return page.items.filter((m) => m.text === text).map((m) => m.id);
  }

  beforeAll(async () => {
    if (db === 'postgres') {
      pgDb = await freshPostgres();
      env = { DATABASE_URL: pgDb.url };
    } else {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-idem-death-'));
      env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    }
    const setup = await startNode();
    cast = await setUpParty(target(setup), P);
    await setup.stop();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await pgDb?.close();
  }, 60_000);

  // The host's post is one autocommitted statement on both databases, a fan's on SQLite: the two
  // paths where the write and the key's mark could commit apart.
  it.each([
    ['host', 'killed between store and mark, host'],
    ['fan', 'killed between store and mark, fan'],
  ] as const)('killed between storing a post and marking its key (%s): the retry after the pending timeout stores one message, and its answer is the one replayed after', async (who, text) => {
    const poster = cast[who];
    const key = `death-mark-${who}`;
    await postAndDie(MARK_SQL, poster, text, key);

    const back = await startNode();
    const url = `${back.partyUrl}/api/parties/${P}/chat/messages`;
    const retry = await post(url, poster.token, { text }, key);
    expect([retry.status, retry.replayed], JSON.stringify(retry.body)).toEqual([201, false]);
    expect(await storedWith(back, text)).toEqual([(retry.body as { id: string }).id]);
    // From now on the key answers that first answer and creates nothing.
    expect(await post(url, poster.token, { text }, key)).toEqual({ ...retry, replayed: true });
    expect(await storedWith(back, text)).toHaveLength(1);
    await back.stop();
  }, 120_000);

  it('killed after the post committed but before its answer was kept: the retry creates nothing and answers 409 {detail}', async () => {
    const text = 'killed before the answer was kept';
    const key = 'death-answer';
    await postAndDie(ANSWER_SQL, cast.host, text, key);

    const back = await startNode();
    expect(await storedWith(back, text)).toHaveLength(1);
    const retry = await post(`${back.partyUrl}/api/parties/${P}/chat/messages`, cast.host.token, { text }, key);
    expect(retry.status).toBe(409);
    expect(retry.body).toHaveProperty('detail');
    expect(await storedWith(back, text)).toHaveLength(1);
    await back.stop();
  }, 120_000);
});
