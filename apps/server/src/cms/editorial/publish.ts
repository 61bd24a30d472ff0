import { CAMPAIGN_LOCKED_ERROR, type Campaign, type PublishCampaignBody, type ScheduleCampaignBody } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { Job } from '../../platform/jobs.ts';
import type { Db } from '../../platform/db/database.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { conflict, notFound, unprocessable } from '../../platform/errors.ts';
import { getCampaign, requireCampaign } from '../campaigns/service.ts';
import { activeLock, selectCampaigns, toCampaign, type CampaignRecord } from '../campaigns/queries.ts';
import type { CampaignView } from './preview.ts';
import { parseSnapshot, publishLocales, rowFieldsOf, snapshotOf } from './snapshot.ts';
import { instantOf } from './timeZones.ts';
import { requireVersionSnapshot, saveVersion, type Actor } from './versions.ts';

/** The published version of a row, as visitors see the campaign; null while unpublished. */
export function publishedCampaign(ctx: ServerContext, row: CampaignRecord): Campaign | null {
  if (row.published_doc === null) return null;
  const published = parseSnapshot(row.published_doc);
  if (!published) return null;
  return toCampaign(ctx, { ...row, ...rowFieldsOf(published) });
}

/**
 * The campaign as visitors see it (its published version); 404 while it is not published. With
 * view `draft` (the editor's preview, see `campaignViewOf`), the draft.
 */
export async function requirePublishedCampaign(ctx: ServerContext, id: string, view: CampaignView = 'published'): Promise<Campaign> {
  const row = await requireCampaign(ctx.db, id);
  if (view === 'draft') return toCampaign(ctx, row);
  const published = publishedCampaign(ctx, row);
  if (!published) throw notFound('Campaign not found');
  return published;
}

/**
 * Publishes the draft as it is stored (compare-and-set on `updated_at`, so an edit saved meanwhile
 * is never published half-seen): all of it, or with `locales` only those locales' texts.
 */
export async function publishCampaign(ctx: ServerContext, actor: Actor, id: string, body: PublishCampaignBody): Promise<Campaign> {
  const row = await requireCampaign(ctx.db, id);
  const draft = snapshotOf(row);
  const published = body?.locales ? publishLocales(draft, row.published_doc ? parseSnapshot(row.published_doc) : null, body.locales) : draft;
  const now = ctx.now();
  const res = await ctx.db
    .updateTable('cms_campaigns')
    .set({
      published_doc: JSON.stringify(published),
      published_version: row.version,
      published_at: now,
      published_by: actor.name,
      // Publishing now replaces a pending scheduled publish (not a scheduled unpublish).
      publish_at: null,
      publish_locales: null,
    })
    .where('id', '=', id)
    .where('updated_at', '=', row.updated_at)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict('The campaign changed meanwhile; look at it again and publish');
  return getCampaign(ctx, id);
}

/** Takes the public page down; the draft and its history stay, and so does a scheduled publish. */
export async function unpublishCampaign(ctx: ServerContext, id: string): Promise<Campaign> {
  await requireCampaign(ctx.db, id);
  await ctx.db.updateTable('cms_campaigns').set({ published_doc: null, published_version: null, unpublish_at: null }).where('id', '=', id).execute();
  return getCampaign(ctx, id);
}

/** Sets (or with null clears) the scheduled publish and unpublish; times are read in `time_zone`. */
export async function scheduleCampaign(ctx: ServerContext, actor: Actor, id: string, body: ScheduleCampaignBody): Promise<Campaign> {
  const row = await requireCampaign(ctx.db, id);
  const now = ctx.now();
  const at = (local: string | null | undefined, current: number | null, field: 'publish_at' | 'unpublish_at'): number | null => {
    if (local === undefined) return current;
    if (local === null) return null;
    const instant = instantOf(local, body.time_zone);
    if (!Number.isFinite(instant)) throw unprocessable(['body', field], 'Not a valid date-time');
    if (instant <= now) throw unprocessable(['body', field], 'Choose a time in the future');
    return instant;
  };
  const publishAt = at(body.publish_at, row.publish_at, 'publish_at');
  const unpublishAt = at(body.unpublish_at, row.unpublish_at, 'unpublish_at');
  if (publishAt !== null && unpublishAt !== null && unpublishAt <= publishAt) throw unprocessable(['body', 'unpublish_at'], 'The unpublish must come after the publish');
  // The locales go with the publish time: given, they replace the stored ones; no publish, none.
  const locales = publishAt === null ? null : body.locales !== undefined ? (body.locales === null ? null : JSON.stringify(body.locales)) : row.publish_locales;
  await ctx.db
    .updateTable('cms_campaigns')
    .set({
      publish_at: publishAt,
      unpublish_at: unpublishAt,
      schedule_time_zone: publishAt === null && unpublishAt === null ? null : body.time_zone,
      publish_locales: locales,
      scheduled_by: actor.name,
    })
    .where('id', '=', id)
    .execute();
  return getCampaign(ctx, id);
}

/** Makes a new draft version with the fields of version `version`; the history stays as it is. */
export async function restoreCampaignVersion(ctx: ServerContext, actor: Actor, id: string, version: number): Promise<Campaign> {
  const row = await requireCampaign(ctx.db, id);
  const snapshot = parseSnapshot(await requireVersionSnapshot(ctx.db, 'campaign', id, version));
  if (!snapshot) throw notFound('Version not found');
  const now = ctx.now();
  // A restore rewrites the draft: like an edit, refused while someone else holds the lock.
  const lock = activeLock(row, now);
  if (lock && lock.user_id !== actor.id) throw conflict({ message: `Campaign is locked by ${lock.user_email} until ${lock.expires_at}`, type: CAMPAIGN_LOCKED_ERROR });
  const next = Number(row.version) + 1;
  await ctx.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('cms_campaigns')
      .set({ ...rowFieldsOf(snapshot), version: next, updated_at: now })
      .where('id', '=', id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw conflict('The campaign changed meanwhile; try again');
    await saveVersion(trx, 'campaign', id, next, 'restore', snapshot, actor, now);
  });
  return getCampaign(ctx, id);
}

// ---------------------------------------------------------------------------------------------
// The scheduler's job
// ---------------------------------------------------------------------------------------------

/**
 * Told of each scheduled publish or unpublish this node made, inside its transaction (`db`): what
 * it writes there (the audit log's entry) commits with the change or not at all.
 */
export type ScheduleListener = (db: Db, event: { action: 'scheduledPublish' | 'scheduledUnpublish'; campaignId: string; actor: Actor; before: Campaign; after: Campaign }) => Promise<void>;

/**
 * Runs scheduled publishes and unpublishes. Every node runs it; each item is claimed by a
 * compare-and-set on the scheduled time (and, for a publish, on the draft's `updated_at`), so one
 * node acts once. The times are stored, so a restart picks them up at its first sweep.
 */
export function campaignScheduleJob(ctx: ServerContext, onRun?: ScheduleListener): Job {
  const actorFor = (row: CampaignRecord): Actor => ({ id: null, name: `scheduler (for ${row.scheduled_by ?? 'unknown'})` });
  /** Tells the listener, in the change's transaction (read through it: on SQLite `ctx.db` would wait for it). */
  const told = async (trx: Db, action: 'scheduledPublish' | 'scheduledUnpublish', row: CampaignRecord) => {
    if (!onRun) return;
    const after = await selectCampaigns(trx).where('cms_campaigns.id', '=', row.id).executeTakeFirstOrThrow();
    await onRun(trx, { action, campaignId: row.id, actor: actorFor(row), before: toCampaign(ctx, row), after: toCampaign(ctx, after) });
  };
  const runPublish = async (row: CampaignRecord, now: number) => {
    // A schedule that names locales publishes only theirs, as a publish now with `locales` does.
    const locales = row.publish_locales === null ? null : parseJson<string[] | null>(row.publish_locales, null);
    const published = locales?.length ? publishLocales(snapshotOf(row), row.published_doc ? parseSnapshot(row.published_doc) : null, locales) : snapshotOf(row);
    await ctx.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('cms_campaigns')
        .set({ published_doc: JSON.stringify(published), published_version: row.version, published_at: now, published_by: actorFor(row).name, publish_at: null, publish_locales: null })
        .where('id', '=', row.id)
        .where('publish_at', '=', row.publish_at)
        .where('updated_at', '=', row.updated_at)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) await told(trx, 'scheduledPublish', row);
    });
  };
  const runUnpublish = async (row: CampaignRecord, now: number) => {
    await ctx.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('cms_campaigns')
        .set({ published_doc: null, published_version: null, unpublish_at: null })
        .where('id', '=', row.id)
        .where('unpublish_at', '=', row.unpublish_at)
        .where('unpublish_at', '<=', now)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) await told(trx, 'scheduledUnpublish', row);
    });
  };
  return {
    name: 'campaign-schedule',
    readsTables: ['cms_campaigns'],
    async nextDue() {
      const row = await ctx.db
        .selectFrom('cms_campaigns')
        .select((eb) => [eb.fn.min('publish_at').as('p'), eb.fn.min('unpublish_at').as('u')])
        .executeTakeFirst();
      const times = [row?.p, row?.u].filter((v): v is number => v !== null && v !== undefined).map(Number);
      return times.length ? Math.min(...times) : null;
    },
    async runDue(now) {
      const due = await selectCampaigns(ctx.db)
        .where((eb) => eb.or([eb('cms_campaigns.publish_at', '<=', now), eb('cms_campaigns.unpublish_at', '<=', now)]))
        .limit(100)
        .execute();
      for (const row of due) {
        // A publish and an unpublish both due: the publish first, so the unpublish ends it.
        if (row.publish_at !== null && row.publish_at <= now) await runPublish(row, now);
        if (row.unpublish_at !== null && row.unpublish_at <= now) {
          const fresh = await requireCampaign(ctx.db, row.id);
          await runUnpublish(fresh, now);
        }
      }
    },
  };
}
