/**
 * Hot statements written once with the Kysely builder, compiled once per database handle, and run
 * with new values. Kysely builds, freezes and compiles a query's operation tree on every execution
 * (about 0.2 ms a chat post with the caches cold inside a fan-out); its own recipe is to compile
 * once and run the compiled query (`db.executeQuery`). Only public APIs: `compile()`, the compiled
 * `parameters`, and `executeQuery`.
 */
import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './database.ts';

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** The value name behind each compiled parameter; null for a constant of the query itself. */
  slots: (string | null)[];
  names: Set<string>;
}

const MARKER = '\u0000value:';
/** Stands for a value while the query is compiled (only then: later calls bind the real values). */
const marker = (name: string): string => MARKER + name;

/**
 * Wraps `build`, which makes the query from named values. It must use every value as a value of
 * the query (compared, inserted, set), never to decide the query's shape: it is run once per
 * database handle, with markers in place of the values. Values with other names than the first
 * call's are built as usual. A transaction is a handle of its own, compiled for itself.
 */
export function queryOf<V extends object, R>(build: (db: Db, values: V) => Compilable<R>): (db: Db, values: V) => Promise<QueryResult<R>> {
  // Per statement, keyed by the handle it runs on (SQLite and PostgreSQL compile differently).
  const byDb = new WeakMap<Db, Compiled<R>>();

  function compile(db: Db, names: string[]): Compiled<R> {
    const markers = Object.fromEntries(names.map((name) => [name, marker(name)])) as V;
    const query = build(db, markers).compile();
    const slots = query.parameters.map((p) => {
      const name = typeof p === 'string' && p.startsWith(MARKER) ? p.slice(MARKER.length) : null;
      return name !== null && names.includes(name) ? name : null;
    });
    const unused = names.filter((name) => !slots.includes(name));
    if (unused.length) throw new Error(`queryOf: ${unused.join(', ')} not used as values of the query (${query.sql})`);
    return { query, slots, names: new Set(names) };
  }

  return async function run(db: Db, values: V): Promise<QueryResult<R>> {
    let compiled = byDb.get(db);
    if (!compiled) {
      compiled = compile(db, Object.keys(values));
      byDb.set(db, compiled);
    }
    if (!sameNames(compiled.names, values)) return db.executeQuery(build(db, values));
    const { query, slots } = compiled;
    const parameters = slots.map((name, i) => (name === null ? query.parameters[i] : (values as Record<string, unknown>)[name]));
    // Every hot statement passes here. Object.assign, not `{ ...x, more }`: Node 20 builds such a spread slowly (decision 0035).
    return db.executeQuery(Object.assign({}, query, { parameters }));
  };
}

function sameNames(names: Set<string>, values: object): boolean {
  let count = 0;
  for (const key in values) {
    if (!names.has(key)) return false;
    count++;
  }
  return count === names.size;
}
