import { afterAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, openMigratedDatabase } from '../../test/harness.ts';
import { type DatabaseHandle, type Db } from './database.ts';
import { queryOf } from './queryOf.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const open = (target: 'sqlite' | 'postgres'): Promise<DatabaseHandle> => openMigratedDatabase(target, cleanups);

const fan = (id: string, name: string, at: number) => ({ id, display_name: name, premium: 0, created_at: at, updated_at: at });

describe.each(DB_TARGETS)('queries built once and run with new values (%s)', (target) => {
  it('query building on the hot paths: an insert and a select built once give what the builder gives, with each call’s own values', async () => {
    const { db } = await open(target);
    let builds = 0;
    const insertFan = queryOf((d: Db, row: ReturnType<typeof fan>) => {
      builds++;
      return d.insertInto('fans').values(row);
    });
    const namesSince = queryOf((d: Db, v: { since: number; pattern: string }) => {
      builds++;
      // A constant of the query (premium 0) stays a parameter of its own between the values.
      return d.selectFrom('fans').select(['id', 'display_name']).where('created_at', '>', v.since).where('premium', '=', 0).where('display_name', 'like', v.pattern).orderBy('id');
    });
    for (const [i, name] of ['ada', 'alan', 'grace', 'anita'].entries()) await insertFan(db, fan(`f${i}`, name, 100 + i));
    const viaReuse = (await namesSince(db, { since: 100, pattern: 'a%' })).rows;
    const viaBuilder = await db.selectFrom('fans').select(['id', 'display_name']).where('created_at', '>', 100).where('premium', '=', 0).where('display_name', 'like', 'a%').orderBy('id').execute();
    expect(viaReuse).toEqual(viaBuilder);
    expect(viaReuse.map((r) => r.display_name)).toEqual(['alan', 'anita']);
    expect((await namesSince(db, { since: 0, pattern: 'g%' })).rows.map((r) => r.display_name)).toEqual(['grace']);
    // Each query was built once (with markers); the later runs only bound new values.
    expect(builds).toBe(2);
  });

  it('query building on the hot paths: inside a transaction a built-once insert is rolled back with it', async () => {
    const { db } = await open(target);
    const insertFan = queryOf((d: Db, row: ReturnType<typeof fan>) => d.insertInto('fans').values(row));
    await insertFan(db, fan('kept', 'kept', 1));
    await expect(
      db.transaction().execute(async (trx) => {
        await insertFan(trx, fan('gone', 'gone', 2));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await db.selectFrom('fans').select('id').execute()).map((r) => r.id)).toEqual(['kept']);
  });

  it('query building on the hot paths: values with other names are built as usual; a value that does not reach the query is refused', async () => {
    const { db } = await open(target);
    const insertFan = queryOf((d: Db, row: Partial<ReturnType<typeof fan>> & { id: string; display_name: string }) =>
      d.insertInto('fans').values({ premium: 0, created_at: 0, updated_at: 0, ...row }),
    );
    await insertFan(db, { id: 'a', display_name: 'a', premium: 0, created_at: 5, updated_at: 5 });
    // Fewer names than the first call: built for this call, not bound into the first call's SQL.
    await insertFan(db, { id: 'b', display_name: 'b' });
    const rows = await db.selectFrom('fans').select(['id', 'created_at']).orderBy('id').execute();
    expect(rows.map((r) => [r.id, Number(r.created_at)])).toEqual([
      ['a', 5],
      ['b', 0],
    ]);
    // `all` decides the query's shape instead of being a value of it: refused when the query is first compiled.
    const shaped = queryOf((d: Db, v: { id: string; all: boolean }) => (v.all ? d.selectFrom('fans').selectAll() : d.selectFrom('fans').selectAll().where('id', '=', v.id)));
    await expect(shaped(db, { id: 'a', all: false })).rejects.toThrow(/all not used as values of the query/);
  });
});
