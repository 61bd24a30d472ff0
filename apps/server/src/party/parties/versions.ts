import { PutPartyBody, type Party } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { isUniqueViolation } from '../../cms/shared.ts';
import { nextVersion, requireVersionSnapshot, saveVersion, type Actor } from '../../cms/editorial/versions.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { unprocessable } from '../../platform/errors.ts';
import { requireParty } from './queries.ts';
import { putParty } from './service.ts';

/** What made a party version: the first save, a later one, or a restore of an older one. */
export type PartyVersionAction = 'create' | 'edit' | 'restore';

/**
 * Keeps the party's settings as saved by a back-office caller, as the next version (the back
 * office lists them next to the audit log). Two saves at once both keep theirs: the one that lost
 * the version number takes the next.
 */
export async function savePartyVersion(ctx: ServerContext, partyId: string, party: Party, actor: Actor, action?: PartyVersionAction): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const version = await nextVersion(ctx.db, 'party', partyId);
    try {
      await saveVersion(ctx.db, 'party', partyId, version, action ?? (version === 1 ? 'create' : 'edit'), party, actor, ctx.now());
      return version;
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 5) throw e;
    }
  }
}

/**
 * The settings a saved party holds (what its diff compares), as the body of `PUT /api/parties/{id}` would set them (the
 * fields a save can change; run state, music and tracks are not settings and stay as they are).
 */
export function partySettingsOf(saved: unknown): Record<string, unknown> {
  const { name, voting_enabled, auto_start, wp_post_id, frontend, follow, login_required, starts_at, ends_at } = (saved ?? {}) as Partial<Party>;
  return { name, voting_enabled, auto_start, wp_post_id, frontend, follow, login_required, starts_at, ends_at };
}

/**
 * Puts back the settings of version `version` and saves them as a new version (`restore`), so the
 * history keeps every step. A version whose settings today's rules refuse (a limit tightened since)
 * is answered 422 with the reason, and nothing changes.
 */
export async function restorePartyVersion(ctx: ServerContext, partyId: string, version: number, actor: Actor): Promise<Party> {
  await requireParty(ctx.db, partyId);
  const stored = parseJson<unknown>(await requireVersionSnapshot(ctx.db, 'party', partyId, version), null);
  const body = PutPartyBody.safeParse(partySettingsOf(stored));
  if (!body.success) {
    const issue = body.error.issues[0];
    throw unprocessable(['path', 'version'], `Version ${version} cannot be restored: ${issue ? `${issue.path.join('.') || 'settings'}: ${issue.message}` : 'its settings are not valid today'}`);
  }
  const party = await putParty(ctx, partyId, body.data);
  await savePartyVersion(ctx, partyId, party, actor, 'restore');
  return party;
}
