/**
 * The audit log of back-office writes. It is hooked where routes are registered (`cmsRoute`,
 * `partyRoute`): every write call by a back-office caller is recorded with the caller, the call's
 * name, the entity it names, and the entity before (when the listener knows how to load it) and
 * after (the call's answer). The entry is inserted in the transaction of the call's first write
 * (a write mark, `platform/db/writeMarks.ts`), so neither commits without the other; the answer
 * is added to it once the call is done. Handlers know nothing of it.
 */
import { CMS_ROUTES, PARTY_ROUTES, type AuditEntry, type AuditLogQuery, type RouteDef } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import type { RouteHandler } from '../../platform/route.ts';
import { newId } from '../../platform/tokens.ts';
import { withWriteMark, type WriteMark } from '../../platform/db/writeMarks.ts';
import { iso } from '../shared.ts';
import type { ScheduleListener } from './publish.ts';
import type { Actor } from './versions.ts';

/** Longest before or after kept per entry (a campaign with many modules fits). */
export const AUDIT_VALUE_MAX_CHARS = 100_000;

/** Write calls that are not edits: the editor's lock heartbeat and signing out. */
const NOT_AUDITED = new Set(['lockCampaign', 'unlockCampaign', 'logout']);

const NAMES = new Map<RouteDef, string>([
  ...Object.entries(CMS_ROUTES as Record<string, RouteDef>).map(([n, d]) => [d, n] as const),
  ...Object.entries(PARTY_ROUTES as Record<string, RouteDef>).map(([n, d]) => [d, n] as const),
]);

/** Keys whose values never go into the log (tokens in answers, password fields). */
const SECRET_KEY = /token|password|secret|hash/i;

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : withoutSecrets(v)]));
}

/** The JSON kept for one side of an entry, bounded. */
export function auditValue(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = JSON.stringify(withoutSecrets(value));
  return text.length > AUDIT_VALUE_MAX_CHARS ? `${text.slice(0, AUDIT_VALUE_MAX_CHARS)}…` : text;
}

/** The kind of entity a call's path names: `/api/campaigns/:id/patch` → `campaigns`. */
export function entityTypeOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  const at = parts[0] === 'api' ? 1 : 0;
  return (parts[at] ?? 'other').replace(/\.csv$/, '').slice(0, 50);
}

export interface AuditRecord {
  actor: Actor;
  action: string;
  method: string;
  path: string;
  entityType: string;
  entityId: string | null;
  before: unknown;
  after: unknown;
}

/** The insert of one entry (`id` given: the caller may fill in its answer later). */
function auditInsert(db: Db, now: number, r: AuditRecord, id: string = newId()) {
  return db.insertInto('cms_audit_log').values({
    id,
    created_at: now,
    actor_id: r.actor.id,
    actor: r.actor.name.slice(0, 300),
    action: r.action.slice(0, 100),
    method: r.method,
    path: r.path.slice(0, 2000),
    entity_type: r.entityType,
    entity_id: r.entityId?.slice(0, 200) ?? null,
    before: auditValue(r.before),
    after: auditValue(r.after),
  });
}

/**
 * Runs `work` so that its first committed write also inserts the entry `r` (without its answer),
 * in the same transaction: a write that cannot record its entry is rolled back, and an entry
 * never stands without its write. An autocommitted first write is put in a transaction with it.
 * Answers whether some write committed, and fills in the entry's answer with `finish`.
 */
export async function withAuditEntry<T>(ctx: ServerContext, now: number, r: AuditRecord, work: () => Promise<T>): Promise<{ out: T; wrote: boolean; finish: (after: unknown, entityId: string | null) => Promise<void> }> {
  const id = newId();
  const mark: WriteMark = { query: auditInsert(ctx.db, now, { ...r, after: undefined }, id).compile(), committed: false, atomic: true };
  let wrote = false;
  const settle = () => {
    wrote = mark.committed;
    // Writes that outlive the call (batches started under it) carry no entry any more.
    mark.committed = true;
  };
  let out: T;
  try {
    out = await withWriteMark(mark, work);
  } finally {
    settle();
  }
  const finish = async (after: unknown, entityId: string | null) => {
    const value = auditValue(after);
    if (value === null && (entityId === null || r.entityId !== null)) return;
    await ctx.db
      .updateTable('cms_audit_log')
      .set({ after: value, ...(r.entityId === null && entityId !== null ? { entity_id: entityId.slice(0, 200) } : {}) })
      .where('id', '=', id)
      .execute();
  };
  return { out, wrote, finish };
}

/** Inserts one entry on its own (a call that wrote nothing, a test's fixture). */
export async function recordAudit(db: Db, now: number, r: AuditRecord): Promise<void> {
  await auditInsert(db, now, r).execute();
}

/** How a listener names its back-office caller and loads the entity a call names (for "before"). */
export interface AuditOptions<C> {
  actorOf(caller: C): Actor | null;
  /** The entity as it is now, by entity type and id; undefined when this listener does not keep one. */
  load?(entityType: string, id: string): Promise<unknown>;
}

/**
 * Entities whose answers are personal data kept elsewhere under stricter rules: a fan's data
 * export or erasure report has its own audit (`data_rights_audit`, a keyed hash, no address), so
 * this log records that the call was made, not what it answered.
 */
const CONTENT_NOT_KEPT = new Set(['data-rights']);

const isWrite = (def: RouteDef) => def.method !== 'GET' && (def.auth === 'cms' || def.auth === 'cms_optional' || def.auth === 'cms_or_bearer');

/**
 * `handler`, recording each call in the audit log when the entry is a back-office write: in the
 * transaction of its first write (`withAuditEntry`), so a write whose entry cannot be stored
 * fails and is rolled back. A call that failed before any write records nothing; one that failed
 * after a write keeps the entry of that write, without an answer. A call that wrote nothing to the
 * database (its effect is elsewhere, e.g. a mail) is recorded after it succeeded; a failure to
 * record that one, or to add the answer to an entry, is logged, not answered.
 */
export function audited<R extends RouteDef, C>(ctx: ServerContext, def: R, handler: RouteHandler<R, C>, opts: AuditOptions<C>): RouteHandler<R, C> {
  const name = NAMES.get(def);
  if (!name || !isWrite(def) || NOT_AUDITED.has(name)) return handler;
  const entityType = entityTypeOf(def.path);
  return async (req, reply, caller) => {
    const actor = opts.actorOf(caller);
    if (!actor) return handler(req, reply, caller);
    const id = (req.params as { id?: unknown }).id;
    const entityId = typeof id === 'string' ? id : null;
    const before = entityId && opts.load ? await opts.load(entityType, entityId).catch(() => undefined) : undefined;
    const record: AuditRecord = { actor, action: name, method: def.method, path: req.url, entityType, entityId, before, after: undefined };
    const { out, wrote, finish } = await withAuditEntry(ctx, ctx.now(), record, () => handler(req, reply, caller));
    if (reply.statusCode >= 400) return out;
    const answer = out === reply || CONTENT_NOT_KEPT.has(entityType) ? undefined : out;
    const answerId = answer && typeof answer === 'object' && 'id' in answer && typeof answer.id === 'string' ? answer.id : null;
    try {
      if (wrote) await finish(answer, answerId);
      else await recordAudit(ctx.db, ctx.now(), { ...record, entityId: entityId ?? answerId, after: answer });
    } catch (err) {
      ctx.logger.error({ err, action: name }, 'audit: could not record a write');
    }
    return out;
  };
}

/**
 * Records each scheduled publish and unpublish the scheduler ran, naming who scheduled it, in the
 * transaction of the change: a refused entry rolls the change back (the next sweep tries again).
 */
export function auditScheduledRun(ctx: ServerContext): ScheduleListener {
  return async (db, { action, campaignId, actor, before, after }) => {
    await recordAudit(db, ctx.now(), { actor, action, method: 'JOB', path: `/api/campaigns/${campaignId}/schedule`, entityType: 'campaigns', entityId: campaignId, before, after });
  };
}

// ---------------------------------------------------------------------------------------------
// Reading the log
// ---------------------------------------------------------------------------------------------

type AuditFilter = Pick<AuditLogQuery, 'actor' | 'entity_type' | 'entity_id'>;

function filtered(db: Db, q: AuditFilter) {
  let query = db.selectFrom('cms_audit_log');
  // Case-insensitive on both databases (PostgreSQL's LIKE is case-sensitive).
  if (q.actor) query = query.where((eb) => eb(eb.fn<string>('lower', ['actor']), 'like', `%${q.actor!.toLowerCase().replace(/[%_\\]/g, '')}%`));
  if (q.entity_type) query = query.where('entity_type', '=', q.entity_type);
  if (q.entity_id) query = query.where('entity_id', '=', q.entity_id);
  return query;
}

type AuditRow = Awaited<ReturnType<typeof auditRows>>[number];
function auditRows(db: Db, q: AuditFilter, offset: number, limit: number) {
  return filtered(db, q).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
}

/** The entries after `after` in the log's order (newest first): a cursor that entries written meanwhile cannot shift. */
function auditRowsAfter(db: Db, q: AuditFilter, after: Pick<AuditRow, 'created_at' | 'id'> | null, limit: number) {
  let query = filtered(db, q).selectAll();
  if (after) {
    query = query.where((eb) => eb.or([eb('created_at', '<', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  created_at: iso(Number(r.created_at)),
  actor_id: r.actor_id,
  actor: r.actor,
  action: r.action,
  method: r.method,
  path: r.path,
  entity_type: r.entity_type,
  entity_id: r.entity_id,
  before: r.before,
  after: r.after,
});

export async function auditPage(db: Db, q: AuditFilter & { page: number; page_size: number }) {
  const total = await filtered(db, q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await auditRows(db, q, (q.page - 1) * q.page_size, q.page_size);
  return { items: rows.map(toEntry), total: Number(total.n), page: q.page, page_size: q.page_size };
}

/**
 * Every matching entry, newest first, a page at a time (for the CSV export). Pages follow the last
 * entry sent, not an offset: entries written while a long export runs neither repeat nor hide one.
 */
export async function* auditEntries(db: Db, q: AuditFilter, pageSize = 500): AsyncGenerator<AuditEntry> {
  let after: AuditRow | null = null;
  for (;;) {
    const rows: AuditRow[] = await auditRowsAfter(db, q, after, pageSize);
    for (const r of rows) yield toEntry(r);
    if (rows.length < pageSize) return;
    after = rows.at(-1)!;
  }
}
