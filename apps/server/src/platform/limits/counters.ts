import type { Logger } from 'pino';
import type { Db } from '../db/database.ts';
import { HttpError } from '../errors.ts';

/** How long a finished window's row is kept before a sweep removes it. */
export const KEEP_WINDOWS_MS = 24 * 3600_000;
/** How often each process sweeps old windows. */
const SWEEP_EVERY_MS = 60_000;

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
  if (Number(row.count) <= limit.max) return;
  const retryAfterMs = windowStart + limit.windowMs - now;
  throw new HttpError(429, {
    message: `Too many requests: at most ${limit.max} ${limit.what}. Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
    type: 'RateLimited',
    retry_after_ms: retryAfterMs,
  });
}

/** Deletes the windows that finished more than KEEP_WINDOWS_MS before `now`. */
export async function sweepRateCounters(db: Db, now: number): Promise<void> {
  await db.deleteFrom('rate_counters').where('window_start', '<', now - KEEP_WINDOWS_MS).execute();
}

/**
 * Sweeps old windows every SWEEP_EVERY_MS, whichever listeners the process runs (both surfaces
 * count). The composition root starts one per process; the returned closer stops it and waits
 * for a sweep under way, so the database closes after it.
 */
export function sweepRateCountersEvery(db: Db, now: () => number, logger: Logger): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => sweepRateCounters(db, now())).catch((err: unknown) => logger.warn({ err }, 'rate counter sweep failed'));
  }, SWEEP_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
