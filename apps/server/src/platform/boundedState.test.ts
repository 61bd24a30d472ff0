/**
 * What a fuzz run's thousands of distinct values reach in the server's memory stays within a
 * bound set by the code, not by the traffic. The heap snapshots of `bench/fuzzmem` name these as
 * the long-lived structures that took new objects during a run: the SQLite statement cache, the
 * read caches, and the request-latency series of the metrics. Each is driven here far past its
 * bound with distinct inputs and must stay at it.
 */
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.ts';
import { TableCache, onWrite } from './db/cache.ts';
import { TableChanges } from './db/changes.ts';
import { cachingSqlite } from './db/statements.ts';

const TOKEN = 'metrics-token-for-the-scraper-0123';

describe('caches filled with distinct inputs stay within their bounds', () => {
  it('the SQLite statement cache keeps at most its size, the newest texts, however many distinct statements run', () => {
    const db = cachingSqlite(new SQLite(':memory:'), 20);
    try {
      for (let i = 0; i < 500; i++) db.prepare(`select ${i} as n`).get();
      expect(db.cached).toBe(20);
      const prepared = db.prepared;
      db.prepare('select 499 as n');
      expect(db.prepared).toBe(prepared);
      db.prepare('select 0 as n');
      expect(db.prepared).toBe(prepared + 1);
      expect(db.cached).toBe(20);
    } finally {
      db.close();
    }
  });

  it('a read cache keeps at most `max` entries however many distinct keys are read', async () => {
    const cache = new TableCache<string, number>(new TableChanges(), { max: 50, maxAgeMs: 60_000, dependsOn: [onWrite('chat_messages')] });
    for (let i = 0; i < 1000; i++) expect(await cache.get(`key-${i}`, async () => i)).toBe(i);
    expect(cache.size).toBe(50);
  });
});

describe('request metrics under distinct URLs', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The request-latency series of the party listener, one line each. */
  async function latencySeries(): Promise<string[]> {
    const text = await (await fetch(`${t.partyUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    return text.split('\n').filter((line) => line.startsWith('fanfare_http_request_duration_seconds_count{'));
  }

  /** Unknown paths, unknown party ids and odd query strings, each one distinct. */
  async function distinctRequests(tag: string, n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      for (const url of [`/api/no-such-${tag}-${i}`, `/api/parties/party-${tag}-${i}?x=${tag}-${i}`, `/no/page/${tag}/${i}`]) {
        await (await fetch(`${t.partyUrl}${url}`)).arrayBuffer();
      }
    }
  }

  it('are labelled by route pattern: more distinct URLs add no series, and no URL becomes a label', async () => {
    // The scrape is a request too: its own series exists from the first scrape on.
    await latencySeries();
    await distinctRequests('flood1', 100);
    const after = await latencySeries();
    expect(after.length).toBeGreaterThan(0);
    await distinctRequests('flood2', 200);
    const again = await latencySeries();
    expect(again.map((line) => line.replace(/ \S+$/, ''))).toEqual(after.map((line) => line.replace(/ \S+$/, '')));
    expect(again.filter((line) => /flood/.test(line))).toEqual([]);
  });
});
