/**
 * Prepared statements reused across executions (issue 16: Kysely's SQLite driver prepares every
 * statement on every execution, with query building 43 % of a chat post's CPU).
 *
 * SQLite: the driver asks `database.prepare(sql)` for each query; we hand it the better-sqlite3
 * database behind an LRU of prepared statements keyed by SQL text. PostgreSQL: Kysely sends each
 * query unnamed (parsed and planned every time); we give the SQL texts that recur a name, so each
 * pool connection parses them once (`pg` remembers the names it prepared per connection).
 */
import { createHash } from 'node:crypto';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type pg from 'pg';

/** A small LRU map: `get` refreshes, `set` evicts the least recently used past `max`. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  /**
   * The most recently used key, which a hit need not move: a hot key read on every request (one
   * party's row) would otherwise be deleted and set again each time, and the map's table rebuilt
   * over and over for the tombstones.
   */
  private newest: K | undefined;

  constructor(readonly max: number) {}

  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, v);
      this.newest = key;
    }
    return v;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
  }

  get size(): number {
    return this.map.size;
  }
}

/** Prepared statements kept per SQLite database (texts past this are re-prepared when they come back). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/** What Kysely's SqliteDialect needs of the database: `prepare` and `close`. */
export interface PreparingDatabase {
  prepare(sql: string): Statement;
  close(): void;
  /** Statements prepared (cache misses) so far; for tests. */
  readonly prepared: number;
  /** Statements kept now (at most the cache's size); for tests. */
  readonly cached: number;
}

/**
 * The database with `prepare` answered from an LRU of statements by SQL text. Safe because Kysely
 * runs one statement at a time on the single SQLite connection and reads each result completely
 * (`all`/`run`) before the next; the only exception, streaming with `iterate`, is unused here, and
 * a statement busy iterating is never handed out again (`busy`).
 */
export function cachingSqlite(db: SqliteDatabase, max = SQLITE_STATEMENT_CACHE_SIZE): PreparingDatabase {
  const cache = new Lru<string, Statement>(max);
  let prepared = 0;
  return {
    prepare(sql: string): Statement {
      const hit = cache.get(sql);
      if (hit && !hit.busy) return hit;
      prepared++;
      const stmt = db.prepare(sql);
      cache.set(sql, stmt);
      return stmt;
    },
    close: () => {
      cache.clear();
      db.close();
    },
    get prepared() {
      return prepared;
    },
    get cached() {
      return cache.size;
    },
  };
}

/** Distinct SQL texts given a statement name; past this they are sent unnamed (each connection keeps its named ones). */
export const PG_NAMED_STATEMENTS_MAX = 400;

/**
 * A pool whose clients send recurring SQL texts as named prepared statements. A text is named from
 * its second execution on (one-off texts, e.g. an IN list of a rare length, stay unnamed) and only
 * while fewer than `max` texts have names, so the statements each connection keeps stay bounded.
 */
export function namingPool(pool: pg.Pool, max = PG_NAMED_STATEMENTS_MAX): Pick<pg.Pool, 'connect' | 'end'> {
  const seen = new Lru<string, number>(4 * max);
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const named = names.get(text);
    if (named) return named;
    const count = (seen.get(text) ?? 0) + 1;
    seen.set(text, count);
    if (count < 2 || names.size >= max) return undefined;
    const name = `k${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    names.set(text, name);
    return name;
  };
  const patched = new WeakSet<pg.PoolClient>();
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    if (!patched.has(client)) {
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      const run = (text: unknown, values?: unknown, ...rest: unknown[]): unknown => {
        if (typeof text === 'string' && Array.isArray(values) && rest.length === 0) {
          const name = nameOf(text);
          if (name) return query({ name, text, values });
        }
        return query(text, values, ...rest);
      };
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const result = run(...(args as [unknown, unknown?, ...unknown[]]));
        if (!(result instanceof Promise)) return result;
        return result.catch((err: unknown) => {
          // The statement passed its deadline with no answer (a hung server): the connection is
          // still busy with it, so end it. The rollback that follows fails at once instead of
          // waiting out a second deadline, and the pool drops the client when it is released.
          if (err instanceof Error && err.message === 'Query read timeout') void (client as unknown as pg.Client).end().catch(() => undefined);
          throw err;
        });
      };
    }
    return client;
  };
  return { connect: connect as pg.Pool['connect'], end: () => pool.end() };
}
