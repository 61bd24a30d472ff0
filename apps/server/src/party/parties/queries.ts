import type { Db } from '../../platform/db/database.ts';
import { cached, cacheKind, onChange } from '../../platform/db/cache.ts';
import type { PartyTable } from '../../platform/db/schema.ts';
import { notFound } from '../../platform/errors.ts';

export type PartyRow = PartyTable;

/**
 * Party rows by id, read on nearly every party call (issue 16). Emptied by any change to
 * `parties` (a new party cannot change a cached one; unknown ids are not cached). Rows are frozen:
 * every caller shares them.
 */
const partyRows = cacheKind<string, Readonly<PartyRow> | null>({ max: 1000, maxAgeMs: 60_000, dependsOn: [onChange('parties')] });

export async function findParty(db: Db, id: string): Promise<PartyRow | null> {
  return cached(partyRows, db, id, async () => {
    const found = await db.selectFrom('parties').selectAll().where('id', '=', id).executeTakeFirst();
    return found ? Object.freeze(found) : null;
  });
}

/** The party, or a 404 naming it. */
export async function requireParty(db: Db, id: string): Promise<PartyRow> {
  const party = await findParty(db, id);
  if (!party) throw notFound(`Party ${id} not found`);
  return party;
}
