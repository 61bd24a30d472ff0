import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type LogEvent } from 'kysely';
import pg from 'pg';
import { registerChanges } from './cache.ts';
import { ALL_TABLES, TableChanges, trackingDialect } from './changes.ts';
import { FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer.ts';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';
import { cachingSqlite, namingPool } from './statements.ts';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** Every write to a table, for the read caches (`cache.ts`); `changes.connect` shares them over Redis. */
  changes: TableChanges;
  /**
   * Resolves when the database answers a trivial query within `timeoutMs`; rejects otherwise. On
   * PostgreSQL the probe uses its own connection, so a hung server cannot hold pool connections.
   */
  probe(timeoutMs: number): Promise<void>;
  /** The PostgreSQL pool's connections (null on SQLite, which has no pool). */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Told about connection errors the pool survives (a restart or failover of PostgreSQL). */
  onConnectionError?: (err: Error) => void;
  /** Told the duration of every statement (for the metrics), and whether it failed. */
  onQuery?: (durationMs: number, failed: boolean) => void;
  /**
   * Deadline of every statement (none when absent: start-up work such as migrations). PostgreSQL: the server cancels a
   * longer statement (`statement_timeout`), and the client gives up on an answer that does not
   * come (`query_timeout`, a hung or frozen server) and on a wait for a pool connection. SQLite:
   * the longest wait for the write lock (`busy_timeout`). Either way the request answers 503.
   */
  statementTimeoutMs?: number;
}

/** A new pool connection gives up after this, so requests fail fast while the database is away. */
const CONNECT_TIMEOUT_MS = 5_000;

// PostgreSQL returns int8 as string; every bigint we store is a millisecond time or a count that
// fits a JS number, so read them as numbers on both dialects.
pg.types.setTypeParser(20, (v) => Number(v));

/** Opens the database named by `url` (`sqlite:<file>`, `sqlite::memory:` or `postgres://...`). */
export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // Named statements (statements.ts) save the parse, but PostgreSQL switches a named statement to
    // a generic plan after five runs; for an IN list over a growing table (token-gate code imports)
    // that plan scanned the table on every batch. Plan each execution for its own values instead.
    const deadline = options.statementTimeoutMs;
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: Math.min(CONNECT_TIMEOUT_MS, deadline ?? CONNECT_TIMEOUT_MS),
      keepAlive: true,
      options: `-c plan_cache_mode=force_custom_plan${deadline ? ` -c statement_timeout=${deadline}` : ''}`,
      // The server's own timeout cannot fire while it is frozen: the client stops waiting as well.
      ...(deadline ? { query_timeout: deadline } : {}),
    });
    // An idle client whose server went away (restart, failover) emits 'error' on the pool; without
    // a listener that is an uncaught exception that ends the process. The pool drops that client and
    // opens a new one on the next query, so logging is all there is to do.
    pool.on('error', (err) => options.onConnectionError?.(err));
    // A client checked out of the pool (inside a transaction, between two statements) gets the same
    // error on itself, where nobody listens: handle it too. Its next statement fails (503), and the
    // pool drops it when it comes back.
    pool.on('connect', (client) => client.on('error', (err) => options.onConnectionError?.(err)));
    const changes = new TableChanges();
    changes.isUnavailable = isDatabaseUnavailable;
    // A connection lost (restart, failover): forget what was read, the database is checked again.
    pool.on('error', () => changes.written(ALL_TABLES, 'change'));
    // Recurring statements are sent as named prepared statements (parsed once per connection).
    const db = new Kysely<Database>({ dialect: trackingDialect(new PostgresDialect({ pool: namingPool(pool) }), changes), log: queryLog(options) });
    registerChanges(db, changes);
    return {
      db,
      dialect: 'postgres',
      changes,
      probe: (timeoutMs) => probePostgres(url, timeoutMs),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      close: async () => {
        await changes.close();
        await db.destroy();
      },
    };
  }
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${url}`);
  const file = url.slice('sqlite:'.length);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${options.statementTimeoutMs ?? CONNECT_TIMEOUT_MS}`);
  // 64 MiB of page cache instead of SQLite's 2 MiB: signups, posts and votes insert into indexes
  // keyed by random ids that outgrow 2 MiB within a few thousand fans (issue 16: +7-17 % req/s).
  sqlite.pragma('cache_size = -65536');
  // Checkpoints run on their own thread; the writer's own is the fallback (checkpointer.ts).
  const checkpointer = file === ':memory:' ? null : startCheckpointer(file);
  if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const changes = new TableChanges();
  // Statements are prepared once per SQL text (an LRU), not on every execution.
  const db = new Kysely<Database>({ dialect: trackingDialect(new SqliteDialect({ database: cachingSqlite(sqlite) }), changes), log: queryLog(options) });
  registerChanges(db, changes);
  return {
    db,
    dialect: 'sqlite',
    changes,
    probe: async (timeoutMs) => {
      await withTimeout(sql`select 1`.execute(db), timeoutMs, 'database');
    },
    poolStats: () => null,
    close: async () => {
      await changes.close();
      await checkpointer?.close();
      await db.destroy();
    },
  };
}

/** Kysely's per-statement log, handed to `onQuery` (none without it). */
function queryLog(options: OpenOptions): ((event: LogEvent) => void) | undefined {
  const onQuery = options.onQuery;
  if (!onQuery) return undefined;
  return (event) => onQuery(event.queryDurationMillis, event.level === 'error');
}

/** One short-lived connection and `select 1`, both bounded by `timeoutMs`. */
async function probePostgres(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await withTimeout(
      client.connect().then(() => client.query('select 1')),
      timeoutMs,
      'database',
    );
  } finally {
    void client.end().catch(() => undefined);
  }
}

/** Rejects with `<what> timed out` when `work` takes longer than `ms`. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

// SQLSTATE classes and socket errors that mean "the database is not there right now" (a restart,
// a failover, a network cut), as opposed to a fault in the query: 08 connection exception,
// 57P01-57P03 admin/crash shutdown and "cannot connect now", 53300 too many connections, 57014
// a statement cancelled at its deadline (statement_timeout), and pg's own "Query read timeout".
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300|57014)$/;
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'SQLITE_BUSY']);
const UNAVAILABLE_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable|Query read timeout/i;

/** True when `err` says the database is unreachable (answer 503 and let the client retry). */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.test(code) || UNAVAILABLE_CODES.has(code))) return true;
  if (UNAVAILABLE_MESSAGES.test(err.message)) return true;
  return err.cause !== undefined && err.cause !== err && isDatabaseUnavailable(err.cause);
}

/**
 * Applies every pending migration and returns the names this call applied (none when another
 * node did it first); throws with the failing migration's name. On PostgreSQL, Kysely's migrator
 * holds an advisory lock while it reads what is applied and applies the rest, so nodes starting
 * together apply each migration once (tested in `ops/concurrentStart.test.ts`).
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True for a unique-constraint violation on either dialect (two requests made the same row at once). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Takes a lock on `key` until the end of the transaction `trx`, so a rule checked by counting rows
 * and then inserting holds when requests for the same key race (on any number of nodes).
 * PostgreSQL: a transaction-scoped advisory lock. SQLite: nothing more is needed, a transaction
 * holds the database's only connection, so other statements of this process wait for it.
 */
export async function lockForTransaction(trx: Db, dialect: Dialect, key: string): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/**
 * Runs `work` while holding a lock on `key` across the cluster, so nodes that start together do
 * it one after the other (the first admin and the demo seed: each checks, then inserts). On
 * PostgreSQL a session advisory lock on a connection reserved for the purpose, waited for at most
 * a minute; `work` runs on the pool. SQLite serves one process: nothing to wait for.
 */
export async function runAlone<T>(db: Db, dialect: Dialect, key: string, work: () => Promise<T>): Promise<T> {
  if (dialect !== 'postgres') return work();
  return db.connection().execute(async (conn) => {
    // The timeout is set first (a CTE, as Kysely's migration lock does) and lasts this statement only.
    await sql`with bounded as (select set_config('lock_timeout', '60000', true)) select pg_advisory_lock(hashtextextended(${key}, 0)) from bounded`.execute(conn);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended(${key}, 0))`.execute(conn);
    }
  });
}
