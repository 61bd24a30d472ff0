import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, DB_TARGETS } from '../../../test/harness.ts';
import { openDatabase, type DatabaseHandle } from '../database.ts';
import { migrations } from './index.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

async function open(target: 'sqlite' | 'postgres'): Promise<DatabaseHandle> {
  if (target === 'postgres') {
    const pg = await createPostgresDatabase();
    const database = openDatabase(pg.url);
    cleanups.push(async () => (await database.close(), await pg.drop()));
    return database;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-votes-'));
  const database = openDatabase(`sqlite:${path.join(dir, 'db.sqlite')}`);
  cleanups.push(async () => (await database.close(), fs.rmSync(dir, { recursive: true, force: true })));
  return database;
}

describe.each(DB_TARGETS)('migration 011 (%s)', (target) => {
  it('an existing database gets each track’s vote count from the votes already stored; triggers keep it with every later vote row', async () => {
    const { db } = await open(target);
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
    });
    expect((await migrator.migrateTo('010_timeline_segments')).error).toBeUndefined();
    // Rows as a database before migration 011 holds them (raw SQL: today's types know the new column).
    await sql`INSERT INTO parties (id, name, starts_at, created_at, updated_at) VALUES ('p', 'Party', 0, 0, 0)`.execute(db);
    for (const id of ['f1', 'f2', 'f3']) await sql`INSERT INTO fans (id, display_name, created_at, updated_at) VALUES (${id}, ${id}, 0, 0)`.execute(db);
    for (const [i, t] of ['a', 'b', 'c'].entries()) {
      await sql`INSERT INTO party_tracks (party_id, track_id, position, name, album, duration_ms, service) VALUES ('p', ${t}, ${i}, ${t}, 'x', 1000, 'spotify')`.execute(
        db,
      );
    }
    for (const [t, f] of [
      ['a', 'f1'],
      ['a', 'f2'],
      ['a', 'f3'],
      ['b', 'f2'],
    ]) {
      await sql`INSERT INTO track_votes (party_id, track_id, fan_id, created_at) VALUES ('p', ${t}, ${f}, 0)`.execute(db);
    }
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const counts = await db.selectFrom('party_tracks').select(['track_id', 'votes']).where('party_id', '=', 'p').orderBy('track_id').execute();
    expect(counts.map((r) => [r.track_id, Number(r.votes)])).toEqual([
      ['a', 3],
      ['b', 1],
      ['c', 0],
    ]);
  });
});
