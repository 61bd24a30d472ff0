import type { Db } from '../../platform/db/database.ts';
import { cached, cacheKind, onChange } from '../../platform/db/cache.ts';
import type { PartyTable } from '../../platform/db/schema.ts';
import { notFound } from '../../platform/errors.ts';

export type PartyRow = PartyTable;

/**
 * Party rows by id for the hot read paths (issue 16: GET party, chat post and recent, votes,
 * signups). Emptied by any change to `parties` on this node at once, on other nodes as soon as
 * Redis tells them (unknown ids are not cached). Rows are frozen: every caller shares them.
 * Paths that decide a write from the row (start, stop, compare-and-set) read it fresh with
 * `findParty`: another node's cache may lag by the pub/sub delay.
 */
const partyRows = cacheKind<string, Readonly<PartyRow> | null>({ max: 1000, maxAgeMs: 60_000, dependsOn: [onChange('parties')] });

export async function findParty(db: Db, id: string): Promise<PartyRow | null> {
  return (await db.selectFrom('parties').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The party row through the read cache (hot read paths only; see `partyRows`). */
export async function findPartyCached(db: Db, id: string): Promise<PartyRow | null> {
  return cached(partyRows, db, id, async () => {
    const found = await findParty(db, id);
    return found ? Object.freeze(found) : null;
  });
}

/** `requireParty` through the read cache (hot read paths only). */
export async function requirePartyCached(db: Db, id: string): Promise<PartyRow> {
  const party = await findPartyCached(db, id);
  if (!party) throw notFound(`Party ${id} not found`);
  return party;
}

/** The party, or a 404 naming it. */
export async function requireParty(db: Db, id: string): Promise<PartyRow> {
  const party = await findParty(db, id);
  if (!party) throw notFound(`Party ${id} not found`);
  return party;
}
