/**
 * Which tables were written, told to the read caches (`cache.ts`) of this node and, through Redis,
 * of every node (issue 16: per-request lookups cached where correct, with invalidation).
 *
 * Every statement goes through the driver wrapped here, so no write can forget to invalidate:
 * the written table is read from the SQL text (`insert into`, `update`, `delete from`). A write
 * invalidates twice: when it runs (so a read racing it cannot store what it read before) and once
 * its transaction committed (so a read that saw the data before the commit is dropped). Other
 * nodes hear of committed writes over Redis pub/sub; a node whose subscription dropped clears
 * everything when it is back, since it may have missed messages.
 */
import { AliasNode, ColumnNode, TableNode } from 'kysely';
import type {
  ColumnUpdateNode,
  CompiledQuery,
  OperationNode,
  RootOperationNode,
  DatabaseConnection,
  DatabaseIntrospector,
  Dialect,
  DialectAdapter,
  Driver,
  Kysely,
  QueryCompiler,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { Logger } from 'pino';
import type { RedisPair } from '../pubsub/redis.ts';
import { writeMarks, type WriteMark } from './writeMarks.ts';

/** `insert`: rows were only added (a plain insert, `on conflict do nothing`); `change`: rows may have changed or gone. */
export type ChangeKind = 'insert' | 'change';

/** Every table, for a node that may have missed messages. */
export const ALL_TABLES = '*';

export type ChangeListener = (table: string, kind: ChangeKind) => void;

/** The tables written on this node and (with Redis) on the others. */
export class TableChanges {
  private readonly listeners = new Set<ChangeListener>();
  private outgoing = new Map<string, ChangeKind>();
  private flushing = false;
  private redis: { pair: RedisPair; channel: string; node: string; logger: Logger } | null = null;

  /** Told of a failed statement; answers whether the database looks unreachable (set by `openDatabase`). */
  isUnavailable: (err: unknown) => boolean = () => false;

  /**
   * A statement failed: while the database is unreachable the caches answer nothing, so callers
   * see the outage (503) as they would without caches, and nothing read before it is kept.
   */
  failed(err: unknown): never {
    if (this.isUnavailable(err)) this.written(ALL_TABLES, 'change');
    throw err;
  }

  /** Calls `listener` for every change; returns the unsubscribe. */
  listen(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A statement wrote `table` (it may not have committed yet): local caches only. */
  written(table: string, kind: ChangeKind): void {
    for (const l of this.listeners) l(table, kind);
  }

  /** Writes to these tables committed: local caches again, then the other nodes (batched per tick). */
  committed(tables: ReadonlyMap<string, ChangeKind>): void {
    for (const [table, kind] of tables) {
      this.written(table, kind);
      if (this.redis && this.outgoing.get(table) !== 'change') this.outgoing.set(table, kind);
    }
    if (this.redis && this.outgoing.size > 0 && !this.flushing) {
      this.flushing = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushing = false;
    const r = this.redis;
    if (!r || this.outgoing.size === 0) return;
    const message = JSON.stringify({ node: r.node, tables: [...this.outgoing] });
    this.outgoing = new Map();
    r.pair.commands.publish(r.channel, message).catch((err: unknown) => r.logger.warn({ err }, 'publishing table changes failed'));
  }

  /**
   * Shares changes with the other nodes on `pair` (its own connections; closed with the database).
   * Resolves once the subscription is active.
   */
  async connect(pair: RedisPair, logger: Logger): Promise<void> {
    const node = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    const channel = `${pair.prefix}db-changes`;
    this.redis = { pair, channel, node, logger };
    pair.subscriber.on('message', (ch: string, raw: string) => {
      if (ch !== channel) return;
      try {
        const msg = JSON.parse(raw) as { node: string; tables: [string, ChangeKind][] };
        if (msg.node === node) return;
        for (const [table, kind] of msg.tables) this.written(table, kind);
      } catch (err) {
        logger.warn({ err }, 'unreadable table-change message');
      }
    });
    // Messages published while the subscription was down are lost: forget everything cached.
    pair.subscriber.on('ready', () => this.written(ALL_TABLES, 'change'));
    await pair.subscriber.subscribe(channel);
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    this.listeners.clear();
    if (r) await r.pair.close();
  }
}

/**
 * The table a statement writes and how, read from the query's operation tree (Kysely's public
 * `CompiledQuery.query`); null for reads. Writes are built with Kysely's builder: raw `sql`
 * statements at run time only read (`changes.test.ts` keeps it so), migrations aside.
 */
export function writeOf(query: Pick<CompiledQuery, 'query'>): { table: string; kind: ChangeKind } | null {
  const node = query.query as RootOperationNode | undefined;
  switch (node?.kind) {
    case 'InsertQueryNode': {
      const table = tableName(node.into);
      // An upsert that updates, or a replace, may change rows; a plain insert (or do nothing) only adds.
      return table ? { table, kind: node.replace || node.onConflict?.updates?.length || node.onDuplicateKey ? 'change' : 'insert' } : null;
    }
    case 'UpdateQueryNode': {
      const table = tableName(node.table);
      return table ? { table, kind: onlyNumbers(table, node.updates) ? 'insert' : 'change' } : null;
    }
    case 'DeleteQueryNode': {
      const table = tableName(node.from.froms[0]);
      return table ? { table, kind: 'change' } : null;
    }
    default:
      return null;
  }
}

/**
 * Columns that number a row after its insert: a chat row is stored with seq_id 0 and numbered
 * once its event is published. Only readers by that number see the row, and only once it is
 * numbered, so an update that sets nothing else adds to what they see and changes nothing they
 * saw: it counts as an insert (the catch-up pages by seq_id outlive it).
 */
const NUMBERING_COLUMNS: ReadonlyMap<string, string> = new Map([['chat_messages', 'seq_id']]);

function onlyNumbers(table: string, updates: readonly ColumnUpdateNode[] | undefined): boolean {
  const numbering = NUMBERING_COLUMNS.get(table);
  return numbering !== undefined && !!updates?.length && updates.every((u) => ColumnNode.is(u.column) && u.column.column.name === numbering);
}

/** The table of a TableNode, possibly aliased (`update chat_messages as m`). */
function tableName(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (TableNode.is(node)) return node.table.identifier.name.toLowerCase();
  if (AliasNode.is(node)) return tableName(node.node);
  return null;
}

/** Per connection: the tables written by its open transaction (null outside one). */
interface ConnectionState {
  inner: DatabaseConnection;
  pending: Map<string, ChangeKind> | null;
  /** The write marks (`writeMarks.ts`) its open transaction ran, settled with the commit. */
  marked: Set<WriteMark>;
}

const merge = (into: Map<string, ChangeKind>, table: string, kind: ChangeKind) => {
  if (into.get(table) !== 'change') into.set(table, kind);
};

class TrackingDriver implements Driver {
  private readonly states = new WeakMap<DatabaseConnection, ConnectionState>();
  private readonly wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly changes: TableChanges,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    let wrapper = this.wrappers.get(conn);
    if (!wrapper) {
      const state: ConnectionState = { inner: conn, pending: null, marked: new Set() };
      const changes = this.changes;
      const driver = this.inner;
      wrapper = {
        async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
          const write = writeOf(query);
          if (!write) return conn.executeQuery<R>(query).catch((err: unknown) => changes.failed(err));
          changes.written(write.table, write.kind);
          // The work's first write of this transaction (or an autocommitted one) also runs its
          // marks, so each mark commits or rolls back with it.
          const marks = (writeMarks.getStore() ?? []).filter((m) => !m.committed && !state.marked.has(m));
          // An atomic mark belongs to a change: a statement that changed no row (a lost compare-and-set) takes none.
          const marksFor = (result: QueryResult<unknown>) => (result.numAffectedRows === 0n ? marks.filter((m) => !m.atomic) : marks);
          if (!state.pending && marks.some((m) => m.atomic)) {
            // An autocommitted write whose mark must not outlive it, nor it the mark: both in one transaction.
            try {
              await driver.beginTransaction(conn, {});
              let result: QueryResult<R>;
              try {
                result = await conn.executeQuery<R>(query);
                for (const mark of marksFor(result)) await conn.executeQuery(mark.query);
                await driver.commitTransaction(conn);
              } catch (err) {
                await driver.rollbackTransaction(conn).catch(() => undefined);
                throw err;
              }
              for (const mark of marksFor(result)) mark.committed = true;
              return result;
            } finally {
              changes.committed(new Map([[write.table, write.kind]]));
            }
          }
          try {
            const result = await conn.executeQuery<R>(query);
            for (const mark of marksFor(result)) {
              await conn.executeQuery(mark.query);
              if (state.pending) state.marked.add(mark);
              else mark.committed = true;
            }
            return result;
          } finally {
            if (state.pending) merge(state.pending, write.table, write.kind);
            else changes.committed(new Map([[write.table, write.kind]]));
          }
        },
        streamQuery<R>(query: CompiledQuery, chunkSize?: number) {
          return conn.streamQuery<R>(query, chunkSize);
        },
      };
      this.wrappers.set(conn, wrapper);
      this.states.set(wrapper, state);
    }
    return wrapper;
  }

  private state(conn: DatabaseConnection): ConnectionState {
    const s = this.states.get(conn);
    if (!s) throw new Error('connection not acquired through the tracking driver');
    return s;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const s = this.state(conn);
    await this.inner.beginTransaction(s.inner, settings);
    s.pending = new Map();
    s.marked = new Set();
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const s = this.state(conn);
    try {
      await this.inner.commitTransaction(s.inner);
      for (const mark of s.marked) mark.committed = true;
    } finally {
      this.settle(s);
    }
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const s = this.state(conn);
    try {
      await this.inner.rollbackTransaction(s.inner);
    } finally {
      // Nothing changed, but the write-time invalidation already dropped entries: harmless.
      this.settle(s);
    }
  }

  private settle(s: ConnectionState): void {
    const pending = s.pending;
    s.pending = null;
    s.marked = new Set();
    if (pending && pending.size > 0) this.changes.committed(pending);
  }

  async savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(this.state(conn).inner, name, compile);
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(this.state(conn).inner, name, compile);
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(this.state(conn).inner, name, compile);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection(this.state(conn).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** `dialect` with every write reported to `changes`. */
export function trackingDialect(dialect: Dialect, changes: TableChanges): Dialect {
  return {
    createDriver: () => new TrackingDriver(dialect.createDriver(), changes),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    createIntrospector: (db: Kysely<unknown>): DatabaseIntrospector => dialect.createIntrospector(db as never),
  };
}
