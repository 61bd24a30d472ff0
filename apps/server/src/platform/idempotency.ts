/**
 * Safe retries (issue 43, decision 0043): a creating call whose table entry says `idempotent`
 * accepts an `Idempotency-Key` header. The same key from the same caller within 24 hours gets the
 * first attempt's answer (status and body, with `Idempotency-Replayed: true`) and creates nothing
 * new.
 *
 * - The key is claimed (a `pending` row) before the handler runs; the handler's first committed
 *   write also marks the row `stored`, in that write's own transaction (`db/writeMarks.ts`; a
 *   single autocommitted statement gets a transaction around both), so a retry after a 503 that
 *   came after the write finds it and does not write again, and a node that dies between the
 *   write and the mark leaves neither.
 * - The answer is kept (`done`) before it is sent: any answer below 500 except 429, and a 5xx
 *   answer of an attempt that stored something. An attempt that stored nothing and failed (5xx,
 *   429) gives its key back, so the retry runs afresh.
 * - A duplicate that arrives while the first attempt runs waits for its answer (up to
 *   `WAIT_MS`), then gets 409 with `Retry-After`. A key reused for another call or body gets 422.
 * - The caller is the fan, back-office user or account token of the guard, or for anonymous
 *   calls the client address; only a SHA-256 of caller and key is stored.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Db } from './db/database.ts';
import type { Job } from './jobs.ts';
import { withWriteMark, type WriteMark } from './db/writeMarks.ts';
import { HttpError, badRequest } from './errors.ts';

/** How long a key's first answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** How long a duplicate waits for the first attempt's answer before it gets 409. */
export const WAIT_MS = 5_000;
/**
 * A `pending` row this old belongs to an attempt that died (a node killed mid-request): it stored
 * nothing, so a retry may take the key over. Far beyond every request deadline.
 */
export const STALE_MS = 120_000;
/** How often the scheduler purges expired keys. */
const PURGE_EVERY_MS = 10 * 60_000;
/** A stored answer is at most this long (creating calls answer a few hundred bytes). */
const MAX_BODY_CHARS = 256 * 1024;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotency-replayed';
/** What a key may be: 1 to 255 visible ASCII characters (a UUID is typical). */
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/** A request's claim on its key, from `claim` to `finish`. */
export interface Claim {
  keyHash: string;
  mark: WriteMark;
}

/** The first attempt's answer, to send again instead of running the handler. */
export interface Replay {
  status: number;
  body: string | null;
  contentType: string | null;
}

/** Sends a replayed answer. */
export function sendReplay(reply: FastifyReply, replay: Replay): FastifyReply {
  void reply.code(replay.status).header(REPLAYED_HEADER, 'true');
  if (replay.contentType) void reply.type(replay.contentType);
  return reply.send(replay.body ?? undefined);
}

interface Deps {
  db: Db;
  now: () => number;
  logger: Logger;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Who calls, as a guard settled it: a fan (`id`, or `fan` of `cms_or_bearer`), a back-office user
 * (`id`, or `cms`), a campaign account's token (hashed), or else the client address.
 */
export function subjectOf(caller: unknown, req: FastifyRequest): string {
  if (caller && typeof caller === 'object') {
    const c = caller as { id?: unknown; fan?: { id?: unknown } | null; cms?: { id?: unknown } | null; token?: unknown };
    if (c.fan && typeof c.fan.id === 'string') return `fan:${c.fan.id}`;
    if (c.cms && typeof c.cms.id === 'string') return `cms:${c.cms.id}`;
    if (typeof c.id === 'string') return `id:${c.id}`;
    if (typeof c.token === 'string') return `token:${sha256(c.token)}`;
  }
  return `address:${req.ip}`;
}

/** The request's key, null without one; 400 for a malformed or repeated header. */
export function keyOf(req: FastifyRequest): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !KEY_SHAPE.test(raw)) throw badRequest('Idempotency-Key must be one header of 1 to 255 visible ASCII characters');
  return raw;
}

export function idempotency({ db, now, logger }: Deps) {
  /**
   * Claims the request's key, or finds the first attempt's answer to replay, or refuses (409
   * while it runs, 422 for another request under the same key). Null without a key.
   */
  async function claim(name: string, req: FastifyRequest, caller: unknown): Promise<{ claim: Claim } | { replay: Replay } | null> {
    const key = keyOf(req);
    if (key === null) return null;
    const keyHash = sha256(`${subjectOf(caller, req)}\n${key}`);
    const fingerprint = sha256(`${name}\n${req.url}\n${req.body === undefined ? '' : JSON.stringify(req.body)}`);
    let waited = 0;
    let step = 20;
    for (let takeovers = 0; takeovers < 3; ) {
      const at = now();
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ key_hash: keyHash, fingerprint, state: 'pending', status: null, body: null, content_type: null, created_at: at, expires_at: at + IDEMPOTENCY_TTL_MS })
        .onConflict((oc) => oc.column('key_hash').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) {
        const query = db.updateTable('idempotency_keys').set({ state: 'stored' }).where('key_hash', '=', keyHash).where('state', '=', 'pending').compile();
        return { claim: { keyHash, mark: { query, committed: false, atomic: true } } };
      }
      const row = await db.selectFrom('idempotency_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      if (!row) continue;
      const expired = Number(row.expires_at) <= at;
      if (expired || (row.state === 'pending' && at - Number(row.created_at) > STALE_MS)) {
        takeovers++;
        await db.deleteFrom('idempotency_keys').where('key_hash', '=', keyHash).where('created_at', '=', row.created_at).where('state', '=', row.state).execute();
        continue;
      }
      if (row.fingerprint !== fingerprint) {
        throw new HttpError(422, [{ loc: ['header', 'Idempotency-Key'], msg: 'This Idempotency-Key was used for a different request; use a new key for a new action', type: 'idempotency_key_reused' }]);
      }
      if (row.state === 'done') return { replay: { status: row.status ?? 200, body: row.body, contentType: row.content_type } };
      if (row.state === 'stored' && at - Number(row.created_at) > STALE_MS) {
        throw new HttpError(409, 'The first attempt with this Idempotency-Key stored its work but its answer was lost; reload to see it');
      }
      if (waited >= WAIT_MS) {
        throw new HttpError(409, 'A request with this Idempotency-Key is still in progress; retry shortly', { 'Retry-After': '1' });
      }
      await sleep(step);
      waited += step;
      step = Math.min(step * 2, 250);
    }
    throw new HttpError(409, 'This Idempotency-Key is being taken over by another request; retry shortly', { 'Retry-After': '1' });
  }

  /** Runs the handler so that its first committed write marks the claim `stored`. */
  function run<T>(claimed: Claim | null, work: () => Promise<T>): Promise<T> {
    return claimed ? withWriteMark(claimed.mark, work) : work();
  }

  /** Keeps the answer (before it is sent), or gives the key back (see the module's comment). */
  async function finish(claimed: Claim, reply: FastifyReply, payload: unknown): Promise<void> {
    // Writes that outlive the request (batches started under it) mark nothing any more.
    claimed.mark.committed = true;
    const status = reply.statusCode;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? null : undefined;
    const contentType = reply.getHeader('content-type');
    const answer = { state: 'done' as const, status, body: body ?? null, content_type: typeof contentType === 'string' ? contentType : null };
    try {
      const failed = status >= 500 || status === 429 || body === undefined || (body !== null && body.length > MAX_BODY_CHARS);
      if (!failed) {
        await db.updateTable('idempotency_keys').set(answer).where('key_hash', '=', claimed.keyHash).execute();
        return;
      }
      // Failed: keep the answer only when the attempt stored something, else give the key back.
      const kept = await db
        .updateTable('idempotency_keys')
        .set(body === undefined || (body !== null && body.length > MAX_BODY_CHARS) ? { ...answer, body: null, content_type: null } : answer)
        .where('key_hash', '=', claimed.keyHash)
        .where('state', '=', 'stored')
        .executeTakeFirst();
      if (Number(kept.numUpdatedRows) === 0) await db.deleteFrom('idempotency_keys').where('key_hash', '=', claimed.keyHash).where('state', '=', 'pending').execute();
    } catch (err) {
      // The database is away: a pending key is taken over after STALE_MS; a stored one answers 409.
      logger.warn({ err }, 'keeping an idempotent answer failed');
    }
  }

  return { claim, run, finish };
}

export type Idempotency = ReturnType<typeof idempotency>;

/** Deletes keys past their 24 hours. */
export async function purgeIdempotencyKeys(db: Db, at: number): Promise<number> {
  const deleted = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', at).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** The scheduler's purge of expired keys: due at start-up, then every PURGE_EVERY_MS. */
export function idempotencyPurgeJob(deps: { db: Db; now: () => number }): Job {
  let nextAt = deps.now();
  return {
    name: 'idempotency-purge',
    readsTables: [],
    nextDue: async () => nextAt,
    runDue: async (at) => {
      if (at < nextAt) return;
      nextAt = at + PURGE_EVERY_MS;
      await purgeIdempotencyKeys(deps.db, at);
    },
  };
}
