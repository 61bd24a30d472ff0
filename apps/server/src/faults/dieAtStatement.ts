/**
 * A preload for fault tests (`node --import <this file>`): the process kills itself with SIGKILL
 * right before it sends the first statement whose SQL matches `FAULT_DIE_AT_SQL` (a regular
 * expression), so a test can stop a node between two statements of one request, as a crash or
 * an OOM kill would. Without the variable it does nothing. Both drivers are patched below the
 * server's code (better-sqlite3's `prepare`, pg's `Client#query`): nothing in the server knows.
 */
import { createRequire } from 'node:module';

const pattern = process.env.FAULT_DIE_AT_SQL;

if (pattern) {
  const matches = new RegExp(pattern);
  const dieIfMatched = (sql: unknown) => {
    if (typeof sql === 'string' && matches.test(sql)) process.kill(process.pid, 'SIGKILL');
  };
  // The server's own copies of the drivers: resolved from its sources, as its imports resolve them.
  const require = createRequire(new URL('../platform/db/database.ts', import.meta.url));
  const sqlite = require('better-sqlite3') as { prototype: { prepare: (sql: string) => unknown } };
  const prepare = sqlite.prototype.prepare;
  sqlite.prototype.prepare = function (this: unknown, sql: string) {
    dieIfMatched(sql);
    return prepare.call(this, sql);
  };
  const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    dieIfMatched(typeof first === 'object' && first !== null ? (first as { text?: unknown }).text : first);
    return query.apply(this, args);
  };
}
