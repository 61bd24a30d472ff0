import { EventEmitter } from 'node:events';
import type { CampaignLock, CampaignLockEvent } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { conflict } from '../../platform/errors.ts';
import { iso } from '../shared.ts';
import type { CmsUserRow } from '../users/queries.ts';
import { requireCampaign } from './service.ts';
import { activeLock } from './queries.ts';

/**
 * Lock announcements to the editors open on this node (the composition root makes one per server).
 * Other nodes' lock changes reach an editor through its stream's poll.
 */
export class CampaignLockEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // One listener per open editor: many editors may watch at once.
    this.emitter.setMaxListeners(0);
  }

  announce(event: CampaignLockEvent): void {
    this.emitter.emit(event.campaign_id, event);
  }

  /** Hears every announcement about the campaign until the returned function is called. */
  listen(campaignId: string, listener: (event: CampaignLockEvent) => void): () => void {
    this.emitter.on(campaignId, listener);
    return () => this.emitter.off(campaignId, listener);
  }
}

/** The lock as it is now (null when free or expired). */
export async function currentLock(ctx: ServerContext, id: string): Promise<CampaignLock | null> {
  return activeLock(await requireCampaign(ctx.db, id), ctx.now());
}

/**
 * Takes the campaign's edit lock from whoever holds it (Payload's "take over"). The previous
 * holder's editor hears it at once on the lock event stream and turns read-only; its next save
 * is refused by the lock check. Taking over one's own lock just renews it.
 */
export async function takeOverLock(ctx: ServerContext, user: CmsUserRow, id: string): Promise<CampaignLock> {
  const before = await requireCampaign(ctx.db, id);
  const now = ctx.now();
  const expiresAt = now + ctx.config.cms.lockTtlMs;
  const res = await ctx.db
    .updateTable('cms_campaigns')
    .set({ lock_user_id: user.id, lock_at: now, lock_expires_at: expiresAt })
    .where('id', '=', id)
    // Compare-and-set on the holder we saw, so two take-overs at once do not both win.
    .where((eb) => (before.lock_user_id === null ? eb('lock_user_id', 'is', null) : eb('lock_user_id', '=', before.lock_user_id)))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw conflict('The lock changed meanwhile; try again');
  const lock: CampaignLock = { user_id: user.id, user_email: user.email, locked_at: iso(now), expires_at: iso(expiresAt) };
  ctx.campaignLocks.announce({ campaign_id: id, lock, reason: 'taken_over' });
  return lock;
}
