import type { Compilable, QueryResult } from 'kysely';
import type { Db } from './database.ts';

/**
 * A hot statement written once with the builder, named, and run with new values:
 * `db.executeQuery` answers rows and affected-row counts alike, on a database or a transaction.
 */
export function queryOf<V, R>(build: (db: Db, values: V) => Compilable<R>): (db: Db, values: V) => Promise<QueryResult<R>> {
  return (db, values) => db.executeQuery(build(db, values));
}
