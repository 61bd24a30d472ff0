import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { statusOf } from '../../../cms/editorial/snapshot.ts';
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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-editorial-'));
  const database = openDatabase(`sqlite:${path.join(dir, 'db.sqlite')}`);
  cleanups.push(async () => (await database.close(), fs.rmSync(dir, { recursive: true, force: true })));
  return database;
}

describe.each(DB_TARGETS)('migration 016 (%s)', (target) => {
  it('campaigns that were public before the editorial workflow stay public, as version 1', async () => {
    const { db } = await open(target);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('015_data_rights')).error).toBeUndefined();
    // Rows as a database before migration 016 holds them (raw SQL: today's types know the new columns).
    await sql`INSERT INTO cms_apps (id, name, title, config, created_at, updated_at) VALUES ('a', 'fan-pages', 'Fan pages', '{}', 0, 0)`.execute(db);
    await sql`INSERT INTO cms_campaigns (id, app_id, name, slug, doc, created_at, updated_at) VALUES ('c', 'a', 'Live page', 'live', ${JSON.stringify({ test: false })}, 0, 5)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const row = await db.selectFrom('cms_campaigns').selectAll().where('id', '=', 'c').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ version: 1, published_version: 1, published_by: 'system', publish_at: null });
    expect(statusOf(row)).toBe('published');
    const versions = await db.selectFrom('cms_versions').select(['version', 'action', 'actor']).where('entity_id', '=', 'c').execute();
    expect(versions).toEqual([{ version: 1, action: 'create', actor: 'system' }]);
  });
});
