import { afterAll, describe, expect, it } from 'vitest';
import { DB_TARGETS, openMigratedDatabase } from '../../test/harness.ts';
import { type DatabaseHandle } from '../db/database.ts';
import { consumeAllowance, KEEP_WINDOWS_MS, sweepRateCounters } from './counters.ts';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

const open = (target: 'sqlite' | 'postgres'): Promise<DatabaseHandle> => openMigratedDatabase(target, cleanups);

const LIMIT = { max: 2, windowMs: 60_000, what: 'tries a minute' };

describe.each(DB_TARGETS)('rate counters (%s)', (target) => {
  it('refuses past the allowance with 429 and a retry time, and the sweep keeps the windows of the last day', async () => {
    const { db } = await open(target);
    const now = 10 * KEEP_WINDOWS_MS;
    const old = now - KEEP_WINDOWS_MS - LIMIT.windowMs;
    await consumeAllowance(db, 'login:a', LIMIT, old);
    await consumeAllowance(db, 'login:a', LIMIT, now);
    await consumeAllowance(db, 'login:a', LIMIT, now);
    const refused = await consumeAllowance(db, 'login:a', LIMIT, now).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 429, detail: { type: 'RateLimited', retry_after_ms: LIMIT.windowMs } });

    await sweepRateCounters(db, now);
    const rows = await db.selectFrom('rate_counters').select(['window_start', 'count']).where('key', '=', 'login:a').execute();
    expect(rows.map((r) => [Number(r.window_start), Number(r.count)])).toEqual([[now - (now % LIMIT.windowMs), 3]]);
  });
});
