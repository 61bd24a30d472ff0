/**
 * Group commit for SQLite (issue 16: SQLite writes at 2,000 req/s and more).
 *
 * SQLite has one connection, and every COMMIT writes its WAL frames and header on the event loop:
 * a fifth of a signup's or a chat post's CPU. Here the writes that queue for the connection in
 * the same turn of the event loop share one transaction:
 * - the first write of a turn opens it (`begin immediate`);
 * - each unit of work (a Kysely transaction) runs inside it as a savepoint, so a unit that fails
 *   undoes only its own writes;
 * - a statement outside a unit runs in it as is (SQLite undoes a failed statement by itself);
 * - one COMMIT ends the group once the connection has no more takers (`setImmediate`).
 *
 * Nothing is answered before it is committed: a unit's `commit`, and any statement run while a
 * group is open, resolve only after the group's COMMIT, and all of them fail if it fails. The
 * connection is handed on before that wait, which is what lets the next write join the group.
 * Writes made on the way to answering a COMMIT can commit at once (`commitPromptly`): a chat post
 * is answered in the turn its write commits, as without the group.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { CompiledQuery, type DatabaseConnection, type Dialect, type DialectAdapter, type Driver, type QueryCompiler, type QueryResult, type TransactionSettings } from 'kysely';

/** Set inside `commitPromptly`: statements there commit their group at once. */
const promptly = new AsyncLocalStorage<true>();

/**
 * Runs `fn` with its statements committed as soon as they ran (with whatever else the open group
 * holds), not at the end of the event loop's turn. For a write made after a COMMIT's answer, in
 * the check phase: waiting there would cost a whole turn of the loop, and under the fan-out's
 * write sweeps one turn is 150-250 ms. Anywhere else (and on PostgreSQL) it just runs `fn`.
 */
export function commitPromptly<T>(fn: () => Promise<T>): Promise<T> {
  return promptly.run(true, fn);
}

/** The savepoint each unit of work runs in (units never overlap: one holds the connection at a time). */
const UNIT = 'fanfare_unit';
/** How long closing waits for a unit of work that still holds the connection. */
const DESTROY_WAIT_MS = 2_000;

/** A FIFO lock on the one connection. */
class Mutex {
  private locked = false;
  private readonly waiters: (() => void)[] = [];

  lock(): Promise<void> {
    if (!this.locked) {
      this.locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  unlock(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.locked = false;
  }
}

/** The open shared transaction and everyone waiting for its COMMIT. */
class Group {
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (err: unknown) => void;
  units = 0;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Waiters attach their own handlers; a group nobody waited for must not be an unhandled rejection.
    this.done.catch(() => undefined);
  }
}

/** Counts kept for tests and the REST bench: how many units shared how many commits. */
export interface GroupCommitStats {
  groups: number;
  units: number;
  failedGroups: number;
}

/** One hold of the connection, from `acquireConnection` to its release (possibly early). */
class Lease implements DatabaseConnection {
  held = true;
  inUnit = false;

  constructor(private readonly driver: GroupCommitDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.driver.stream<R>(this, query, chunkSize);
  }
}

const isRead = (query: CompiledQuery): boolean => query.query?.kind === 'SelectQueryNode' || /^\s*select\b/i.test(query.sql);

export class GroupCommitDriver implements Driver {
  private conn!: DatabaseConnection;
  private readonly mutex = new Mutex();
  private group: Group | null = null;
  private commitQueued = false;
  readonly stats: GroupCommitStats = { groups: 0, units: 0, failedGroups: 0 };

  constructor(
    private readonly inner: Driver,
    /** Whether SQLite still has a transaction open (an I/O error or RAISE(ROLLBACK) ends it at once). */
    private readonly inTransaction: () => boolean,
    /** False commits every unit at once (see `groupCommitDialect`). */
    private readonly grouping: () => boolean = () => true,
  ) {}

  async init(): Promise<void> {
    await this.inner.init();
    // The inner driver's one connection is ours for good; this driver's mutex guards it.
    this.conn = await this.inner.acquireConnection();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return new Lease(this);
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    this.release(conn as Lease);
  }

  async beginTransaction(conn: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const lease = conn as Lease;
    await this.hold(lease);
    await this.open();
    await this.conn.executeQuery(CompiledQuery.raw(`savepoint ${UNIT}`));
    lease.inUnit = true;
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const lease = conn as Lease;
    lease.inUnit = false;
    const group = this.group!;
    try {
      await this.conn.executeQuery(CompiledQuery.raw(`release ${UNIT}`));
    } catch (err) {
      this.failIfEnded(err);
      throw err;
    }
    group.units++;
    await this.waitForCommit(lease, group);
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    const lease = conn as Lease;
    lease.inUnit = false;
    if (!this.inTransaction()) return this.failIfEnded(new Error('The transaction was rolled back by SQLite'));
    await this.conn.executeQuery(CompiledQuery.raw(`rollback to ${UNIT}`));
    await this.conn.executeQuery(CompiledQuery.raw(`release ${UNIT}`));
  }

  async savepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint!(this.conn, name, compile);
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint!(this.conn, name, compile);
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint!(this.conn, name, compile);
  }

  /**
   * Commits what is open, then closes the database: a clean shutdown loses no answered write. A
   * unit still holding the connection after `DESTROY_WAIT_MS` is abandoned (its writes are undone).
   */
  async destroy(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const locked = await Promise.race([
      this.mutex.lock().then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DESTROY_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (locked) this.commitOpenGroup();
    await this.inner.releaseConnection(this.conn);
    await this.inner.destroy();
  }

  /** A statement through `lease`: inside its unit, at once; outside, it also waits for the open group's COMMIT. */
  async execute<R>(lease: Lease, query: CompiledQuery): Promise<QueryResult<R>> {
    await this.hold(lease);
    if (lease.inUnit) return this.conn.executeQuery<R>(query);
    if (!this.group && isRead(query)) return this.conn.executeQuery<R>(query);
    await this.open();
    const group = this.group!;
    let result: QueryResult<R>;
    try {
      result = await this.conn.executeQuery<R>(query);
    } catch (err) {
      this.failIfEnded(err);
      throw err;
    }
    group.units++;
    await this.waitForCommit(lease, group);
    return result;
  }

  async *stream<R>(lease: Lease, query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    await this.hold(lease);
    yield* this.conn.streamQuery<R>(query, chunkSize);
  }

  /** A lease released early (while its statement waited for the COMMIT) takes the lock again before another statement. */
  private async hold(lease: Lease): Promise<void> {
    if (lease.held) return;
    await this.mutex.lock();
    lease.held = true;
  }

  private release(lease: Lease): void {
    if (!lease.held) return;
    lease.held = false;
    this.mutex.unlock();
  }

  private async open(): Promise<void> {
    if (this.group) return;
    // `immediate`: the write lock is taken now, so a busy database fails here, not halfway through a unit.
    await this.conn.executeQuery(CompiledQuery.raw('begin immediate'));
    this.group = new Group();
  }

  /** Hands the connection on, lets the group's COMMIT run once nobody else is queued, and waits for it. */
  private async waitForCommit(lease: Lease, group: Group): Promise<void> {
    if (!this.grouping() || promptly.getStore()) this.commitOpenGroup();
    this.release(lease);
    if (this.group && !this.commitQueued) {
      this.commitQueued = true;
      setImmediate(() => void this.commitWhenFree());
    }
    await group.done;
  }

  private async commitWhenFree(): Promise<void> {
    this.commitQueued = false;
    await this.mutex.lock();
    try {
      this.commitOpenGroup();
    } finally {
      this.mutex.unlock();
    }
  }

  private commitOpenGroup(): void {
    const group = this.group;
    if (!group) return;
    this.group = null;
    try {
      // Kysely's SQLite connection runs statements synchronously behind a resolved promise.
      void this.conn.executeQuery(CompiledQuery.raw('commit')).catch(() => undefined);
      if (this.inTransaction()) throw new Error('COMMIT did not end the transaction');
      this.stats.groups++;
      this.stats.units += group.units;
      group.resolve();
    } catch (err) {
      this.endFailed(group, err);
    }
  }

  /** After a failed statement: if SQLite ended the whole transaction, every write of the group is gone. */
  private failIfEnded(err: unknown): void {
    const group = this.group;
    if (group && !this.inTransaction()) {
      this.group = null;
      this.endFailed(group, err);
    }
  }

  private endFailed(group: Group, err: unknown): void {
    if (this.inTransaction()) {
      try {
        void this.conn.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
      } catch {
        // The transaction is gone either way.
      }
    }
    this.stats.failedGroups++;
    group.reject(err);
  }
}

/**
 * `dialect` (SQLite) with group commit; `inTransaction` reads the raw handle's `inTransaction`.
 * `grouping` is asked at each commit: while another handle of this process has the same file open
 * (two nodes in one test process), a group would hold the write lock through a turn of the event
 * loop, and the other handle's busy wait, on the same thread, would stall the process.
 */
export function groupCommitDialect(dialect: Dialect, inTransaction: () => boolean, grouping: () => boolean, onDriver?: (driver: GroupCommitDriver) => void): Dialect {
  return {
    createDriver: () => {
      const driver = new GroupCommitDriver(dialect.createDriver(), inTransaction, grouping);
      onDriver?.(driver);
      return driver;
    },
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}
