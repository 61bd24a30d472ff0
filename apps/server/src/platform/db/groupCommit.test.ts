import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql, type Generated } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { commitPromptly, groupCommitDialect, type GroupCommitDriver } from './groupCommit.ts';

interface Tables {
  notes: { id: Generated<number>; body: string };
}

const opened: { db: Kysely<Tables>; reader: SQLite.Database; dir: string }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    o.reader.close();
    await o.db.destroy();
    fs.rmSync(o.dir, { recursive: true, force: true });
  }
});

/** A grouped Kysely on a WAL file, and a second connection that sees only what is committed. */
function open(grouping = true) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fanfare-group-commit-'));
  const file = path.join(dir, 'db.sqlite');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.exec('create table notes (id integer primary key, body text not null unique)');
  // RAISE(ROLLBACK) ends the whole transaction, as an I/O error would.
  sqlite.exec(`create trigger fail_all before insert on notes when new.body = 'abort' begin select raise(rollback, 'aborted'); end`);
  let driver!: GroupCommitDriver;
  const db = new Kysely<Tables>({ dialect: groupCommitDialect(new SqliteDialect({ database: sqlite }), () => sqlite.inTransaction, () => grouping, (d) => (driver = d)) });
  const reader = new SQLite(file, { readonly: true });
  const committed = () => (reader.prepare('select body from notes order by id').all() as { body: string }[]).map((r) => r.body);
  opened.push({ db, reader, dir });
  return { db, committed, stats: () => driver.stats, inTransaction: () => sqlite.inTransaction };
}

const insertUnit = (db: Kysely<Tables>, body: string) =>
  db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ body }).execute();
    return body;
  });

describe('SQLite group commit (issue 16: SQLite writes at 2,000 req/s)', () => {
  it('units queued in the same turn share one COMMIT, and each is committed when its transaction resolves', async () => {
    const { db, committed, stats } = open();
    const seenAtResolve: boolean[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        insertUnit(db, `note ${i}`).then((body) => {
          // Told it succeeded: another connection must already see it.
          seenAtResolve.push(committed().includes(body));
        }),
      ),
    );
    expect(seenAtResolve).toEqual(Array(20).fill(true));
    expect(committed()).toHaveLength(20);
    expect(stats().units).toBe(20);
    expect(stats().groups).toBeLessThan(5);
  });

  it('a statement outside a unit resolves only after its group committed', async () => {
    const { db, committed } = open();
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        db
          .insertInto('notes')
          .values({ body: `plain ${i}` })
          .execute()
          .then(() => committed().includes(`plain ${i}`)),
      ),
    );
    expect(results).toEqual([true, true, true, true, true]);
  });

  it('a unit that fails undoes only its own writes; the others of its group are committed', async () => {
    const { db, committed } = open();
    await insertUnit(db, 'taken');
    const outcomes = await Promise.allSettled([
      insertUnit(db, 'first'),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ body: 'half done' }).execute();
        await trx.insertInto('notes').values({ body: 'taken' }).execute(); // unique violation
      }),
      insertUnit(db, 'last'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(committed()).toEqual(['taken', 'first', 'last']);
  });

  it('when SQLite ends the shared transaction, every unit of the group fails and nothing of it is stored', async () => {
    const { db, committed, stats } = open();
    const outcomes = await Promise.allSettled([insertUnit(db, 'before'), insertUnit(db, 'abort'), insertUnit(db, 'after')]);
    expect(outcomes[0]!.status).toBe('rejected');
    expect(outcomes[1]!.status).toBe('rejected');
    expect(committed()).not.toContain('before');
    expect(committed()).not.toContain('abort');
    expect(stats().failedGroups).toBe(1);
    // The connection is usable afterwards.
    await insertUnit(db, 'later');
    expect(committed()).toContain('later');
  });

  it('reads see committed data, and a read while a group is open waits for its COMMIT', async () => {
    const { db } = open();
    const write = insertUnit(db, 'soon');
    const read = sql<{ n: number }>`select count(*) as n from notes`.execute(db);
    const [, rows] = await Promise.all([write, read]);
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('commitPromptly commits its statement (and the open group) without waiting for the turn to end', async () => {
    const { db, committed, stats } = open();
    const grouped = insertUnit(db, 'grouped');
    let promptDone = false;
    const prompt = commitPromptly(() => db.insertInto('notes').values({ body: 'prompt' }).execute()).then(() => {
      promptDone = true;
      // Told it succeeded: another connection sees it, and the unit queued before it too.
      return committed();
    });
    await new Promise<void>((resolve) => queueMicrotask(() => process.nextTick(resolve)));
    expect(promptDone).toBe(true);
    expect(await prompt).toEqual(['grouped', 'prompt']);
    await grouped;
    expect(stats().groups).toBe(1);
  });

  it('without grouping (another handle of this process has the file open) every unit commits at once', async () => {
    const { db, committed, stats } = open(false);
    await Promise.all(Array.from({ length: 6 }, (_, i) => insertUnit(db, `alone ${i}`)));
    expect(committed()).toHaveLength(6);
    expect(stats().groups).toBe(6);
  });

  it('closing commits the open group first', async () => {
    const { db, committed, inTransaction } = open();
    const pending = db.insertInto('notes').values({ body: 'at close' }).execute();
    // Close once the insert ran and waits for its group's COMMIT (queued for the next turn).
    for (let i = 0; i < 1000 && !inTransaction(); i++) await Promise.resolve();
    expect(inTransaction()).toBe(true);
    const closing = db.destroy();
    await pending;
    await closing;
    expect(committed()).toContain('at close');
  });
});
