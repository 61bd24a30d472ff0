/**
 * Read caches kept correct by the writes that change them (issue 16). A cache names the tables
 * its values are read from; any write to one of them (on this node, or on another through Redis:
 * see `changes.ts`) empties it. A value read while such a write ran is not stored, so a cache
 * never keeps what the database had before a write it was told about.
 *
 * Only the database handle's own `db` caches: inside a transaction (`trx`) reads go to the
 * database, which shows the transaction its own writes.
 */
import type { Db } from './database.ts';
import { ALL_TABLES, type ChangeKind, type TableChanges } from './changes.ts';
import { Lru } from './statements.ts';

/** A table a cache reads, and whether added rows can change its values (`insert`) or only changed/deleted ones (`change`). */
export type Dependency = { table: string; on: 'insert' | 'change' };

/** Tables whose plain inserts leave values keyed by an existing row as they were. */
export const onChange = (table: string): Dependency => ({ table, on: 'change' });
/** Tables whose every write may change the cached values (e.g. a new signup row). */
export const onWrite = (table: string): Dependency => ({ table, on: 'insert' });

export interface CacheOptions<V = unknown, K = unknown> {
  /** Entries kept (least recently used dropped first). */
  max: number;
  /** Entries older than this are read again: a bound on staleness should a change message be lost. */
  maxAgeMs: number;
  dependsOn: Dependency[];
  /**
   * Which loaded values are stored (default: all but null). Leaving out values that an insert could
   * change lets a cache depend on that table with `onChange` instead of `onWrite`.
   */
  keep?: (value: V, key: K) => boolean;
}

/** Where each `Db` reports its writes (set by `openDatabase`). */
const changesByDb = new WeakMap<Db, TableChanges>();

export function registerChanges(db: Db, changes: TableChanges): void {
  changesByDb.set(db, changes);
}

/** The change feed of a database handle's `db`; undefined for a transaction or a foreign `Db`. */
export function changesOf(db: Db): TableChanges | undefined {
  return changesByDb.get(db);
}

/** Turns the read caches off (tests that compare a cached read with the database, benchmarks of the uncached path). */
let enabled = process.env.FANFARE_READ_CACHE !== 'off';
export function setReadCaches(on: boolean): void {
  enabled = on;
}

interface Entry<V> {
  value: V;
  at: number;
}

export class TableCache<K, V> {
  private readonly entries: Lru<K, Entry<V>>;
  private generation = 0;
  /** Loads under way, with the generation they started in: a burst of the same miss shares one. */
  private readonly loading = new Map<K, { generation: number; value: Promise<V> }>();
  private readonly tables: Map<string, 'insert' | 'change'>;
  hits = 0;
  misses = 0;

  constructor(
    changes: TableChanges,
    private readonly options: CacheOptions<V, K>,
  ) {
    this.entries = new Lru(options.max);
    this.tables = new Map(options.dependsOn.map((d) => [d.table, d.on]));
    changes.listen((table, kind) => this.changed(table, kind));
  }

  private changed(table: string, kind: ChangeKind): void {
    const on = this.tables.get(table);
    if (table !== ALL_TABLES && (on === undefined || (on === 'change' && kind === 'insert'))) return;
    this.generation++;
    this.entries.clear();
  }

  /**
   * The cached value of `key`, else `load()`'s: stored unless a relevant write ran meanwhile, and
   * unless it is null (what is missing may be inserted in a moment, and inserts need not empty a cache).
   */
  async get(key: K, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.options.maxAgeMs) {
      this.hits++;
      return hit.value;
    }
    this.misses++;
    const generation = this.generation;
    // A load that started with no write since reads what this one would: join it (a reconnect
    // storm's thousands of identical catch-up reads become one query per write).
    const under = this.loading.get(key);
    if (under && under.generation === generation) return under.value;
    const value = load();
    this.loading.set(key, { generation, value });
    try {
      const loaded = await value;
      const keep = loaded !== null && (this.options.keep?.(loaded, key) ?? true);
      if (keep && generation === this.generation) this.entries.set(key, { value: loaded, at: now });
      return loaded;
    } finally {
      if (this.loading.get(key)?.value === value) this.loading.delete(key);
    }
  }

  /** Entries kept now (at most `max`). */
  get size(): number {
    return this.entries.size;
  }

  /** Drops one key (e.g. a value this node knows it just made wrong). */
  delete(key: K): void {
    this.entries.delete(key);
  }
}

/** Per `db` one cache of each kind: `cacheFor(db, MY_CACHE)` is undefined when `db` does not cache. */
export function cacheKind<K, V>(options: CacheOptions<V, K>): (db: Db) => TableCache<K, V> | undefined {
  const caches = new WeakMap<TableChanges, TableCache<K, V>>();
  return (db) => {
    if (!enabled) return undefined;
    const changes = changesOf(db);
    if (!changes) return undefined;
    let cache = caches.get(changes);
    if (!cache) {
      cache = new TableCache<K, V>(changes, options);
      caches.set(changes, cache);
    }
    return cache;
  };
}

/** `load()` through the cache of `db` when it has one, else straight. */
export function cached<K, V>(kind: (db: Db) => TableCache<K, V> | undefined, db: Db, key: K, load: () => Promise<V>): Promise<V> {
  const cache = kind(db);
  return cache ? cache.get(key, load) : load();
}

