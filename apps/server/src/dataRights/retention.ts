/**
 * Retention (docs/SECURITY.md): newsletter signups never confirmed are deleted with their consents
 * and links after `RETENTION_UNCONFIRMED_NEWSLETTER_DAYS`; uploads nothing refers to after
 * `RETENTION_UNUSED_UPLOAD_HOURS` (file and record). Run by the server's scheduler every hour.
 */
import type { ServerContext } from '../context.ts';
import type { Job } from '../platform/jobs.ts';
import { sweepUnusedUploads } from '../party/uploads/quota.ts';

/** Ours: how often the retention sweep runs (the periods themselves are configured). */
export const RETENTION_SWEEP_EVERY_MS = 3_600_000;

/** Rows deleted per statement: bounded work per pass. */
const BATCH = 500;

/** One retention pass; returns what went. Deletes are conditional, so every node may run it. */
export async function runRetention(ctx: ServerContext): Promise<{ unconfirmedSignups: number; unusedUploads: number }> {
  const cutoff = ctx.now() - ctx.config.retention.unconfirmedNewsletterMs;
  let unconfirmedSignups = 0;
  for (;;) {
    const stale = await ctx.db
      .selectFrom('cms_newsletter_subscribers')
      .select('id')
      .where('state', '=', 'pending')
      .where('created_at', '<', cutoff)
      .orderBy('created_at')
      .limit(BATCH)
      .execute();
    if (stale.length === 0) break;
    // Consents cascade: a consent never confirmed proves nothing worth keeping.
    const deleted = await ctx.db
      .deleteFrom('cms_newsletter_subscribers')
      .where('id', 'in', stale.map((s) => s.id))
      .where('state', '=', 'pending')
      .executeTakeFirst();
    unconfirmedSignups += Number(deleted.numDeletedRows);
    if (stale.length < BATCH) break;
  }
  await ctx.db.deleteFrom('cms_newsletter_confirmations').where('created_at', '<', cutoff).execute();
  // In-app browser handovers live minutes; new ones sweep expired ones too, this covers quiet times.
  await ctx.db.deleteFrom('cms_handovers').where('expires_at', '<=', ctx.now()).execute();
  let unusedUploads = 0;
  for (let n = await sweepUnusedUploads(ctx); n > 0; n = await sweepUnusedUploads(ctx)) unusedUploads += n;
  return { unconfirmedSignups, unusedUploads };
}

/** The scheduler's retention job: due at start-up, then every RETENTION_SWEEP_EVERY_MS. */
export function retentionJob(ctx: ServerContext): Job {
  let nextAt = ctx.now();
  return {
    name: 'retention',
    readsTables: [],
    nextDue: async () => nextAt,
    runDue: async (now) => {
      if (now < nextAt) return;
      nextAt = now + RETENTION_SWEEP_EVERY_MS;
      const purged = await runRetention(ctx);
      if (purged.unconfirmedSignups || purged.unusedUploads) ctx.logger.info(purged, 'retention: purged');
    },
  };
}
