import type { CmsRole, CmsUser, CmsUserState } from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import type { CmsUserTable } from '../../platform/db/tables/cms.ts';
import { parseJson } from '../../platform/db/columns.ts';
import { iso } from '../shared.ts';

export type CmsUserRow = CmsUserTable;

/** The wire shape of a user row (never the password hash). */
export function toCmsUser(row: CmsUserRow): CmsUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    roles: rolesOf(row),
    state: row.state as CmsUserState,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    must_change_password: row.must_change_password === 1,
  };
}

export function rolesOf(row: Pick<CmsUserRow, 'roles'>): CmsRole[] {
  return parseJson<CmsRole[]>(row.roles, []);
}

export async function findUserByEmail(db: Db, email: string): Promise<CmsUserRow | undefined> {
  return db.selectFrom('cms_users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<CmsUserRow | undefined> {
  return db.selectFrom('cms_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function listUsers(db: Db): Promise<CmsUserRow[]> {
  return db.selectFrom('cms_users').selectAll().orderBy('created_at').orderBy('id').execute();
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db.selectFrom('cms_users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active admins other than `exceptId`: a change must never leave the system without one. */
export async function countOtherActiveAdmins(db: Db, exceptId: string): Promise<number> {
  const rows = await db.selectFrom('cms_users').select(['id', 'roles']).where('state', '=', 'active').where('id', '!=', exceptId).execute();
  return rows.filter((r) => rolesOf(r).includes('admin')).length;
}
