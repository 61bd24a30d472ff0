import { AsyncLocalStorage } from 'node:async_hooks';
import type { CompiledQuery } from 'kysely';

/**
 * A statement to run with the first committed write of some work, in the same transaction (a
 * retried call must find that its first attempt stored something, even when that attempt then
 * answered 503 or its process died). The tracking driver (`changes.ts`) runs `query` on the
 * writing connection right after the work's first write that changes rows in each transaction;
 * a write that would autocommit gets a transaction of its own around it and the mark. It sets
 * `committed` once that transaction commits.
 */
export interface WriteMark {
  readonly query: CompiledQuery;
  committed: boolean;
  /**
   * The mark must commit or roll back with the write, never apart: an autocommitted write is then
   * run in a transaction of its own with the mark, and a write that changed no row takes none
   * (the audit entry of a back-office write; an idempotency key marked stored).
   */
  readonly atomic?: boolean;
}

/** The marks of the work running in this async context, outermost first (none outside `withWriteMark`). */
export const writeMarks = new AsyncLocalStorage<readonly WriteMark[]>();

/** Runs `work` so that its first committed write also runs `mark.query` (see `WriteMark`), besides any outer mark. */
export function withWriteMark<T>(mark: WriteMark, work: () => Promise<T>): Promise<T> {
  return writeMarks.run([...(writeMarks.getStore() ?? []), mark], work);
}
