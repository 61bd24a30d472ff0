import type { Db } from '../db/database.ts';
import { HttpError } from '../errors.ts';

/** How long a finished window's row is kept before a sweep removes it. */
const KEEP_WINDOWS_MS = 24 * 3600_000;
/** Each process sweeps old windows at most this often (per database). */
const SWEEP_EVERY_MS = 60_000;
const lastSweep = new WeakMap<object, number>();

/** One limit: at most `max` per `windowMs` for each key. */
export interface CountedLimit {
  max: number;
  windowMs: number;
  /** Said in the 429's detail, e.g. "uploads per minute". */
  what: string;
}

/**
 * Counts one request under `key` in the current fixed window and refuses it (429 `{detail}`) past
 * `limit.max`. The count is one upsert in the database, so parallel requests on any node and any
 * token of the same fan, account or address share one allowance; a refused request still counts,
 * so hammering does not help.
 */
export async function consumeAllowance(db: Db, key: string, limit: CountedLimit, now: number): Promise<void> {
  const windowStart = now - (now % limit.windowMs);
  const row = await db
    .insertInto('rate_counters')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) => oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })))
    .returning('count')
    .executeTakeFirstOrThrow();
  if ((lastSweep.get(db) ?? 0) + SWEEP_EVERY_MS <= now) {
    lastSweep.set(db, now);
    await db.deleteFrom('rate_counters').where('window_start', '<', now - KEEP_WINDOWS_MS).execute();
  }
  if (Number(row.count) <= limit.max) return;
  const retryAfterMs = windowStart + limit.windowMs - now;
  throw new HttpError(429, {
    message: `Too many requests: at most ${limit.max} ${limit.what}. Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    type: 'RateLimited',
    retry_after_ms: retryAfterMs,
  });
}
