import type {
  Campaign,
  CampaignLock,
  CloneCampaignBody,
  CreateCampaignBody,
  PatchCampaignBody,
} from '@fanfare/protocol';
import { CAMPAIGN_LOCKED_ERROR } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Db } from '../../platform/db/database.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { newId } from '../../platform/tokens.ts';
import { findApp } from '../apps/service.ts';
import { iso, isUniqueViolation, msOrNull } from '../shared.ts';
import { snapshotOf } from '../editorial/snapshot.ts';
import { actorOf, saveVersion, SYSTEM_ACTOR, type Actor } from '../editorial/versions.ts';
import { can } from '../users/permissions.ts';
import { rolesOf, type CmsUserRow } from '../users/queries.ts';
import {
  EMPTY_DOC,
  activeLock,
  docOf,
  findCampaign,
  mergeDoc,
  selectCampaigns,
  toCampaign,
  type CampaignRecord,
  type CmsCampaignRow,
} from './queries.ts';

export async function listCampaigns(ctx: ServerContext, appId?: string): Promise<Campaign[]> {
  let q = selectCampaigns(ctx.db).orderBy('cms_campaigns.created_at', 'desc').orderBy('cms_campaigns.id');
  if (appId) q = q.where('cms_campaigns.app_id', '=', appId);
  return (await q.execute()).map((r) => toCampaign(ctx, r));
}

export async function requireCampaign(db: Db, id: string): Promise<CampaignRecord> {
  const row = await findCampaign(db, id);
  if (!row) throw notFound('Campaign not found');
  return row;
}

export async function getCampaign(ctx: ServerContext, id: string): Promise<Campaign> {
  return toCampaign(ctx, await requireCampaign(ctx.db, id));
}

function checkTimes(startsAt: number | null, endsAt: number | null): void {
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) throw unprocessable(['body', 'ends_at'], 'ends_at must be after starts_at');
}

const duplicateSlug = () => conflict({ message: 'This app already has a campaign with this slug', type: 'DuplicateSlugError', fields: ['slug'] });

/** Creates a campaign as a draft (version 1): visitors see nothing until it is published. */
export async function createCampaign(ctx: ServerContext, body: CreateCampaignBody, actor: Actor = SYSTEM_ACTOR): Promise<Campaign> {
  const app = await findApp(ctx.db, body.app_id);
  if (!app) throw unprocessable(['body', 'app_id'], 'No such app');
  const startsAt = msOrNull(body.starts_at);
  const endsAt = msOrNull(body.ends_at);
  checkTimes(startsAt, endsAt);
  const now = ctx.now();
  return insertCampaign(ctx, now, actor, 'create', {
    app_id: app.id,
    name: body.name,
    slug: body.slug,
    starts_at: startsAt,
    ends_at: endsAt,
    parent_id: null,
    doc: JSON.stringify(mergeDoc(EMPTY_DOC, body)),
  });
}

/** Stores a new, unpublished campaign (unlocked) and its first version; a slug taken in the app answers 409. */
async function insertCampaign(
  ctx: ServerContext,
  now: number,
  actor: Actor,
  action: 'create' | 'clone',
  fields: Pick<CmsCampaignRow, 'app_id' | 'name' | 'slug' | 'starts_at' | 'ends_at' | 'parent_id' | 'doc'>,
): Promise<Campaign> {
  const row: CmsCampaignRow = {
    id: newId(),
    ...fields,
    lock_user_id: null,
    lock_at: null,
    lock_expires_at: null,
    created_at: now,
    updated_at: now,
    published_doc: null,
    published_version: null,
    published_at: null,
    published_by: null,
    version: 1,
    publish_at: null,
    unpublish_at: null,
    schedule_time_zone: null,
    publish_locales: null,
    scheduled_by: null,
  };
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('cms_campaigns').values(row).execute();
      await saveVersion(trx, 'campaign', row.id, 1, action, snapshotOf(row), actor, now);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateSlug();
    throw e;
  }
  return getCampaign(ctx, row.id);
}

function lockedError(lock: CampaignLock) {
  return conflict({
    message: `Campaign is locked by ${lock.user_email} until ${lock.expires_at}`,
    type: CAMPAIGN_LOCKED_ERROR,
    holder: { id: lock.user_id, email: lock.user_email },
    expires_at: lock.expires_at,
  });
}

/** Refuses a write while someone other than `user` holds the campaign's lock. */
function assertWritable(row: CampaignRecord, user: CmsUserRow, now: number): void {
  const lock = activeLock(row, now);
  if (lock && lock.user_id !== user.id) throw lockedError(lock);
}

/**
 * Changes the given fields (each replaces the stored value). Refused with 409 while another user
 * holds the lock; the check is repeated inside the UPDATE so a lock taken meanwhile still wins.
 */
export async function patchCampaign(ctx: ServerContext, user: CmsUserRow, id: string, patch: PatchCampaignBody): Promise<Campaign> {
  const row = await requireCampaign(ctx.db, id);
  const now = ctx.now();
  assertWritable(row, user, now);
  const startsAt = patch.starts_at !== undefined ? msOrNull(patch.starts_at) : row.starts_at;
  const endsAt = patch.ends_at !== undefined ? msOrNull(patch.ends_at) : row.ends_at;
  checkTimes(startsAt, endsAt);
  let result;
  try {
    result = await ctx.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('cms_campaigns')
        .set((eb) => ({
          name: patch.name ?? row.name,
          slug: patch.slug ?? row.slug,
          starts_at: startsAt,
          ends_at: endsAt,
          doc: JSON.stringify(mergeDoc(docOf(row), patch)),
          updated_at: now,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', id)
        .where((eb) => eb.or([eb('lock_user_id', 'is', null), eb('lock_user_id', '=', user.id), eb('lock_expires_at', '<=', now)]))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 1) {
        // The row is locked by this transaction's update: the version read is the one just made.
        const saved = await trx.selectFrom('cms_campaigns').select(['name', 'slug', 'starts_at', 'ends_at', 'doc', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
        await saveVersion(trx, 'campaign', id, Number(saved.version), 'edit', snapshotOf(saved), actorOf(user), now);
      }
      return updated;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw duplicateSlug();
    throw e;
  }
  if (Number(result.numUpdatedRows) !== 1) {
    const again = await requireCampaign(ctx.db, id);
    const lock = activeLock(again, now);
    if (lock) throw lockedError(lock);
    throw conflict('The campaign changed meanwhile; try again');
  }
  return getCampaign(ctx, id);
}

/** A free slug in the app: `base`, else `base-2`, `base-3`, ... */
async function freeSlug(db: Db, appId: string, base: string): Promise<string> {
  const taken = new Set(
    (await db.selectFrom('cms_campaigns').select('slug').where('app_id', '=', appId).where('slug', 'like', `${base}%`).execute()).map((r) => r.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; n < 10_000; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  return `${base}-${newId().toLowerCase().replace(/[^a-z0-9]/g, '')}`;
}

/** Copies a campaign (fields and times, not its lock); the copy's `parent_id` names the source. */
export async function cloneCampaign(ctx: ServerContext, id: string, body: CloneCampaignBody, actor: Actor = SYSTEM_ACTOR): Promise<Campaign> {
  const source = await requireCampaign(ctx.db, id);
  const slug = body?.slug ?? (await freeSlug(ctx.db, source.app_id, `${source.slug}-copy`.slice(0, 95)));
  const now = ctx.now();
  return insertCampaign(ctx, now, actor, 'clone', {
    app_id: source.app_id,
    name: body?.name ?? `${source.name} (copy)`.slice(0, 200),
    slug,
    starts_at: source.starts_at,
    ends_at: source.ends_at,
    parent_id: source.id,
    doc: source.doc,
  });
}

/** Deletes a campaign; refused while another user holds its lock. */
export async function deleteCampaign(ctx: ServerContext, user: CmsUserRow, id: string): Promise<void> {
  const row = await requireCampaign(ctx.db, id);
  const now = ctx.now();
  assertWritable(row, user, now);
  const res = await ctx.db
    .deleteFrom('cms_campaigns')
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lock_user_id', 'is', null), eb('lock_user_id', '=', user.id), eb('lock_expires_at', '<=', now)]))
    .executeTakeFirst();
  if (Number(res.numDeletedRows) !== 1) {
    const again = await findCampaign(ctx.db, id);
    const lock = again ? activeLock(again, now) : null;
    if (lock) throw lockedError(lock);
  }
}

/** True when the app (by name or id) has a campaign with this slug. */
export async function slugExists(ctx: ServerContext, appIdOrName: string, slug: string): Promise<boolean> {
  const app = await findApp(ctx.db, appIdOrName);
  if (!app) return false;
  const row = await ctx.db.selectFrom('cms_campaigns').select('id').where('app_id', '=', app.id).where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes or renews the campaign's edit lock for `user` until now + CMS_LOCK_TTL. Refused (409,
 * naming the holder) while someone else holds an unexpired lock.
 */
export async function acquireLock(ctx: ServerContext, user: CmsUserRow, id: string): Promise<CampaignLock> {
  const row = await requireCampaign(ctx.db, id);
  const now = ctx.now();
  const expiresAt = now + ctx.config.cms.lockTtlMs;
  const current = activeLock(row, now);
  const lockedAt = current && current.user_id === user.id ? Date.parse(current.locked_at) : now;
  const res = await ctx.db
    .updateTable('cms_campaigns')
    .set({ lock_user_id: user.id, lock_at: lockedAt, lock_expires_at: expiresAt })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lock_user_id', 'is', null), eb('lock_user_id', '=', user.id), eb('lock_expires_at', '<=', now)]))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) {
    const lock = activeLock(await requireCampaign(ctx.db, id), now);
    if (lock) throw lockedError(lock);
    throw conflict('The lock changed meanwhile; try again');
  }
  return { user_id: user.id, user_email: user.email, locked_at: iso(lockedAt), expires_at: iso(expiresAt) };
}

/** Releases the lock. Only its holder may, or an admin (breaking someone else's lock). */
export async function releaseLock(ctx: ServerContext, user: CmsUserRow, id: string): Promise<void> {
  const row = await requireCampaign(ctx.db, id);
  const now = ctx.now();
  const lock = activeLock(row, now);
  // Guards a lock against being dropped by another editor mid-edit; admins may break it.
  if (lock && lock.user_id !== user.id && !can(rolesOf(user), 'campaigns.breakLock')) throw lockedError(lock);
  await ctx.db.updateTable('cms_campaigns').set({ lock_user_id: null, lock_at: null, lock_expires_at: null }).where('id', '=', id).execute();
}
