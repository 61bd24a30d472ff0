/**
 * Queries built once and run many times with new values (issue 16). Kysely builds, freezes and
 * compiles a query's operation tree on every execution: on the chat post path, with the caches
 * cold inside the fan-out, about 0.23 ms a post (decision 0017). Kysely's own recipe for this is to compile once and execute the compiled query
 * (`db.executeQuery`); this finds where each value goes in the compiled parameters, so the query is
 * still written with the builder.
 */
import type { Compilable, CompiledQuery, DialectAdapter, QueryResult } from 'kysely';
import type { Db } from './database.ts';

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** The value name behind each compiled parameter; null for a constant of the query itself. */
  slots: (string | null)[];
  names: Set<string>;
}

const MARKER = '\u0000reused:';
/** Stands for a value while the query is compiled (only then: later calls bind the real values). */
const marker = (name: string): string => MARKER + name;

/**
 * Wraps `build`, which makes the query from named values. It must use every value as a value of the
 * query (compared, inserted, set), never to decide the query's shape: it is run once per dialect
 * adapter, with markers in place of the values. Values with other names than the first call's are
 * built as usual. The adapter (read through Kysely's internal `getExecutor`) is the one object a
 * database and its transactions share, and it differs between SQLite and PostgreSQL.
 */
export function reusedQuery<V extends object, R>(build: (db: Db, values: V) => Compilable<R>) {
  const byAdapter = new WeakMap<DialectAdapter, Compiled<R>>();

  function compile(db: Db, names: string[]): Compiled<R> {
    const markers = Object.fromEntries(names.map((name) => [name, marker(name)])) as V;
    const query = build(db, markers).compile();
    const slots = query.parameters.map((p) => {
      const name = typeof p === 'string' && p.startsWith(MARKER) ? p.slice(MARKER.length) : null;
      return name !== null && names.includes(name) ? name : null;
    });
    const unused = names.filter((name) => !slots.includes(name));
    if (unused.length) throw new Error(`reusedQuery: ${unused.join(', ')} not used as values of the query (${query.sql})`);
    return { query, slots, names: new Set(names) };
  }

  return async function run(db: Db, values: V): Promise<QueryResult<R>> {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      compiled = compile(db, Object.keys(values));
      byAdapter.set(adapter, compiled);
    }
    if (!sameNames(compiled.names, values)) return db.executeQuery(build(db, values));
    const { query, slots } = compiled;
    const parameters = slots.map((name, i) => (name === null ? query.parameters[i] : (values as Record<string, unknown>)[name]));
    // Every hot statement passes here. Object.assign, not `{ ...x, more }`: Node 20 builds such a spread slowly (about 1 µs a key, decision 0023).
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
