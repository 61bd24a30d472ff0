import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../platform/db/database.ts';
import { connectRedis } from '../platform/pubsub/redis.ts';
import { createPostgresDatabase, DB_TARGETS, dropRedisKeys } from '../test/harness.ts';
import { LocalPartyHub, type PartyHub } from './hub.ts';
import { RedisPartyHub } from './redisHub.ts';
import { databaseSeqBlocks, SEQ_BLOCK_SIZE } from './seqBlocks.ts';

const P = 'seq-party';
const logger = pino({ level: 'silent' });
const vote = (i: number) => ({ type: 'votes_changed' as const, track_id: `t${i}`, votes: i });

async function openTarget(target: 'sqlite' | 'postgres'): Promise<{ database: DatabaseHandle; drop: () => Promise<void> }> {
  if (target === 'postgres') {
    const pg = await createPostgresDatabase();
    const database = openDatabase(pg.url);
    await migrateToLatest(database.db);
    return { database, drop: async () => (await database.close(), await pg.drop()) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-seq-'));
  const database = openDatabase(`sqlite:${path.join(dir, 'db.sqlite')}`);
  await migrateToLatest(database.db);
  return { database, drop: async () => (await database.close(), fs.rmSync(dir, { recursive: true, force: true })) };
}

async function emitMany(hub: PartyHub, n: number): Promise<number[]> {
  const seqs: number[] = [];
  for (let i = 0; i < n; i++) seqs.push((await hub.emit(P, vote(i))).seq_id);
  return seqs;
}

describe.each(DB_TARGETS)('a party\'s seq_id never goes backwards (%s)', (target) => {
  it('without Redis, a restarted process numbers above everything the previous one handed out, and a resume from before gets resync', async () => {
    const { database, drop } = await openTarget(target);
    try {
      const first = new LocalPartyHub(Date.now, {}, databaseSeqBlocks(database.db));
      const before = await emitMany(first, 5);
      expect(before).toEqual([1, 2, 3, 4, 5]);
      await first.close();

      const second = new LocalPartyHub(Date.now, {}, databaseSeqBlocks(database.db));
      const head = await second.head(P);
      expect(head).toBeGreaterThanOrEqual(5);
      const after = await emitMany(second, 3);
      expect(after[0]).toBeGreaterThan(5);
      expect(after).toEqual([after[0]!, after[0]! + 1, after[0]! + 2]);
      // The events before the restart are gone from this process: not a silent empty replay.
      expect((await second.history(P, 5)).complete).toBe(false);
      expect((await second.history(P, head)).complete).toBe(true);
      await second.close();
    } finally {
      await drop();
    }
  });

  it('a block runs out and the next one follows without a gap or a repeat', async () => {
    const { database, drop } = await openTarget(target);
    try {
      const hub = new LocalPartyHub(Date.now, {}, databaseSeqBlocks(database.db, 3));
      const seqs = await Promise.all(Array.from({ length: 10 }, (_, i) => hub.emit(P, vote(i)).then((e) => e.seq_id)));
      expect([...seqs].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      await hub.close();
    } finally {
      await drop();
    }
  });
});

const REDIS = process.env.TEST_REDIS_URL;
describe.runIf(REDIS && process.env.TEST_DATABASE_URL)('the Redis hub\'s seq_id survives Redis losing its data', () => {
  const prefix = `fanfare-seq-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  afterAll(async () => {
    await dropRedisKeys(prefix, REDIS!);
  });

  it('after the counter is lost, numbering resumes above every earlier seq_id and a resume from before gets resync', async () => {
    const { database, drop } = await openTarget('postgres');
    const hub = new RedisPartyHub(connectRedis(REDIS!, prefix, logger), Date.now, logger, {}, databaseSeqBlocks(database.db));
    try {
      const before = await emitMany(hub, 5);
      expect(before).toEqual([1, 2, 3, 4, 5]);
      // What a Redis restart without persistence leaves: none of the party's keys.
      await dropRedisKeys(prefix, REDIS!);

      expect(await hub.head(P)).toBeGreaterThanOrEqual(5);
      const after = await emitMany(hub, 3);
      expect(after[0]).toBeGreaterThan(5);
      expect(after[0]).toBeLessThanOrEqual(5 + SEQ_BLOCK_SIZE + 1);
      expect((await hub.history(P, 5)).complete).toBe(false);
      const fromNew = await hub.history(P, after[0]! - 1);
      expect(fromNew.complete).toBe(true);
      expect(fromNew.events.map((e) => e.event.seq_id)).toEqual(after);
    } finally {
      await hub.close();
      await drop();
    }
  });
});

describe.runIf(REDIS)('the Redis hub serves a burst of resumes from shared reads of the log', () => {
  const prefix = `fanfare-burst-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  afterAll(async () => {
    await dropRedisKeys(prefix, REDIS!);
  });

  it('200 resumes from different seq_ids at once cost a handful of reads, and each gets exactly the events after its own', async () => {
    const { database, drop } = await openTarget('sqlite');
    const hub = new RedisPartyHub(connectRedis(REDIS!, prefix, logger), Date.now, logger, {}, databaseSeqBlocks(database.db));
    try {
      const seqs = await emitMany(hub, 30);
      const before = hub.resumeReadsMade;
      const from = Array.from({ length: 200 }, (_, i) => seqs[i % 30]!);
      const answers = await Promise.all(from.map((after) => hub.history(P, after)));
      // One read starts at once; every resume arriving while it runs waits for the second.
      expect(hub.resumeReadsMade - before).toBeLessThanOrEqual(2);
      answers.forEach((h, i) => {
        expect(h.complete).toBe(true);
        expect(h.events.map((e) => e.event.seq_id)).toEqual(seqs.filter((s) => s > from[i]!));
      });
      // A resume from before the log's start still gets resync, not a partial replay.
      const later = await hub.history(P, -1);
      expect(later.complete).toBe(false);
      expect(later.events).toEqual([]);
    } finally {
      await hub.close();
      await drop();
    }
  });
});
