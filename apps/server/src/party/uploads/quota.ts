/**
 * Issue 10, uploads: each file a fan uploads to a party is recorded, so a fan and a party have a
 * storage quota (413 beyond it), and files that nothing refers to after UNUSED_UPLOAD_TTL_MS (an
 * upload never used in a signup, a chat message or a grant) are deleted by `sweepUnusedUploads`.
 */
import type { ServerContext } from '../../context.ts';
import { lockForTransaction } from '../../platform/db/database.ts';
import { payloadTooLarge } from '../../platform/errors.ts';

/** Ours: an upload nothing refers to is kept this long (time to finish a signup or a post); `RETENTION_UNUSED_UPLOAD_HOURS` overrides. */
export const UNUSED_UPLOAD_TTL_MS = 24 * 3600_000;

/** Ours: at most this many unused uploads are swept per pass (bounded work on the upload path). */
const SWEEP_BATCH = 100;

export interface UploadOwner {
  partyId: string;
  fanId: string;
}

/**
 * Reserves `size` bytes of the fan's and the party's quota for the upload stored under `key`, or
 * answers 413 when they would exceed either. The check and the record are one transaction under a
 * lock on the party, so parallel uploads (on any number of nodes) cannot together pass the quota:
 * PostgreSQL takes an advisory lock, SQLite's transaction holds its only connection. Store the
 * file after this, and `releaseUpload` when storing fails.
 */
export async function reserveUpload(ctx: ServerContext, owner: UploadOwner, key: string, size: number): Promise<void> {
  const { uploadQuotaPerFanBytes, uploadQuotaPerPartyBytes } = ctx.config.abuse;
  await ctx.db.transaction().execute(async (trx) => {
    await lockForTransaction(trx, ctx.dialect, `upload-quota:${owner.partyId}`);
    const usage = async (byFan: boolean) => {
      let q = trx.selectFrom('party_uploads').select((eb) => eb.fn.sum<number | string | null>('size').as('total')).where('party_id', '=', owner.partyId);
      if (byFan) q = q.where('fan_id', '=', owner.fanId);
      return Number((await q.executeTakeFirst())?.total ?? 0);
    };
    if ((await usage(true)) + size > uploadQuotaPerFanBytes) {
      throw payloadTooLarge(`Upload quota reached: at most ${uploadQuotaPerFanBytes} bytes per fan in this party`);
    }
    if ((await usage(false)) + size > uploadQuotaPerPartyBytes) {
      throw payloadTooLarge(`This party's upload quota is reached (${uploadQuotaPerPartyBytes} bytes)`);
    }
    await trx.insertInto('party_uploads').values({ storage_key: key, party_id: owner.partyId, fan_id: owner.fanId, size, created_at: ctx.now() }).execute();
  });
}

/** Gives back a reservation whose file could not be stored. */
export async function releaseUpload(ctx: ServerContext, key: string): Promise<void> {
  await ctx.db.deleteFrom('party_uploads').where('storage_key', '=', key).execute();
}

/**
 * Stores `bytes` under `key` for a fan's upload: reserves the quota first (413 beyond it), then
 * writes the file, then sweeps old unused uploads in the background.
 */
export async function storeFanUpload(ctx: ServerContext, owner: UploadOwner, key: string, bytes: Uint8Array): Promise<void> {
  await reserveUpload(ctx, owner, key, bytes.length);
  try {
    await ctx.storage.put(key, bytes);
  } catch (err) {
    await releaseUpload(ctx, key).catch(() => undefined);
    throw err;
  }
  void sweepUnusedUploads(ctx).catch((err: unknown) => ctx.logger.warn({ err }, 'sweeping unused uploads failed'));
}

/**
 * Deletes uploads older than UNUSED_UPLOAD_TTL_MS that no chat message, signup or grant refers
 * to, file and record. Returns how many went. Runs on the upload path, in bounded batches.
 */
export async function sweepUnusedUploads(ctx: ServerContext): Promise<number> {
  const stale = await ctx.db
    .selectFrom('party_uploads')
    .select(['storage_key', 'party_id'])
    .where('created_at', '<', ctx.now() - (ctx.config.retention?.unusedUploadMs ?? UNUSED_UPLOAD_TTL_MS))
    .orderBy('created_at')
    .limit(SWEEP_BATCH)
    .execute();
  let removed = 0;
  for (const upload of stale) {
    const urls = [`${ctx.config.publicUrl}/uploads/${upload.storage_key}`, `/uploads/${upload.storage_key}`];
    const inChat = await ctx.db
      .selectFrom('chat_messages')
      .select('id')
      .where('party_id', '=', upload.party_id)
      .where((eb) => eb.or([eb('photo', 'in', urls), eb('video', 'in', urls)]))
      .executeTakeFirst();
    const inProfile = await ctx.db.selectFrom('party_users').select('fan_id').where('profile_picture', 'in', urls).executeTakeFirst();
    const inGrant = await ctx.db.selectFrom('grants').select('id').where('profile_picture', 'in', urls).executeTakeFirst();
    const inFan = await ctx.db.selectFrom('fans').select('id').where('profile_picture', 'in', urls).executeTakeFirst();
    if (inChat || inProfile || inGrant || inFan) {
      // In use: it stays, and is no longer a sweep candidate.
      await ctx.db.updateTable('party_uploads').set({ created_at: Number.MAX_SAFE_INTEGER }).where('storage_key', '=', upload.storage_key).execute();
      continue;
    }
    await ctx.storage.delete(upload.storage_key);
    await ctx.db.deleteFrom('party_uploads').where('storage_key', '=', upload.storage_key).execute();
    removed++;
  }
  return removed;
}
