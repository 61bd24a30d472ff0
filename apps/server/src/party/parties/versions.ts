import type { Party } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { isUniqueViolation } from '../../cms/shared.ts';
import { nextVersion, saveVersion, type Actor } from '../../cms/editorial/versions.ts';

/**
 * Keeps the party's settings as saved by a back-office caller, as the next version (the back
 * office lists them next to the audit log). Two saves at once both keep theirs: the one that lost
 * the version number takes the next.
 */
export async function savePartyVersion(ctx: ServerContext, partyId: string, party: Party, actor: Actor): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const version = await nextVersion(ctx.db, 'party', partyId);
    try {
      await saveVersion(ctx.db, 'party', partyId, version, version === 1 ? 'create' : 'edit', party, actor, ctx.now());
      return;
    } catch (e) {
      if (!isUniqueViolation(e) || attempt >= 5) throw e;
    }
  }
}
