import type { Db } from '../../platform/db/database.ts';
import type { PartyTable } from '../../platform/db/schema.ts';
import { notFound } from '../../platform/errors.ts';

export type PartyRow = PartyTable;

export async function findParty(db: Db, id: string): Promise<PartyRow | null> {
  return (await db.selectFrom('parties').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The party, or a 404 naming it. */
export async function requireParty(db: Db, id: string): Promise<PartyRow> {
  const party = await findParty(db, id);
  if (!party) throw notFound(`Party ${id} not found`);
  return party;
}
