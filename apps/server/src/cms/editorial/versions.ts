import type { EntityVersion, VersionDiff } from '@fanfare/protocol';
import type { Db } from '../../platform/db/database.ts';
import { notFound } from '../../platform/errors.ts';
import { iso } from '../shared.ts';
import { diffValues } from './diff.ts';

/** Who made a write: a back-office user, or the server itself (the demo seed, the scheduler). */
export interface Actor {
  id: string | null;
  /** The user's e-mail, or what acted (`scheduler`, `system`). */
  name: string;
}

export const SYSTEM_ACTOR: Actor = { id: null, name: 'system' };

export const actorOf = (user: { id: string; email: string }): Actor => ({ id: user.id, name: user.email });

/** The kinds of entity whose versions are kept. */
export type VersionedEntity = 'campaign' | 'party';

/** Stores version `version` of an entity (the caller took the number in the same transaction). */
export async function saveVersion(
  db: Db,
  entity: VersionedEntity,
  entityId: string,
  version: number,
  action: string,
  snapshot: unknown,
  actor: Actor,
  now: number,
): Promise<void> {
  await db
    .insertInto('cms_versions')
    .values({ entity_type: entity, entity_id: entityId, version, action, snapshot: JSON.stringify(snapshot), actor_id: actor.id, actor: actor.name, created_at: now })
    .execute();
}

/** The next version number of an entity (for those without a version counter on their row). */
export async function nextVersion(db: Db, entity: VersionedEntity, entityId: string): Promise<number> {
  const row = await db
    .selectFrom('cms_versions')
    .select((eb) => eb.fn.max('version').as('v'))
    .where('entity_type', '=', entity)
    .where('entity_id', '=', entityId)
    .executeTakeFirst();
  return Number(row?.v ?? 0) + 1;
}

/** Every version of an entity, newest first. */
export async function listVersions(db: Db, entity: VersionedEntity, entityId: string, publishedVersion: number | null = null): Promise<EntityVersion[]> {
  const rows = await db
    .selectFrom('cms_versions')
    .select(['version', 'action', 'actor_id', 'actor', 'created_at'])
    .where('entity_type', '=', entity)
    .where('entity_id', '=', entityId)
    .orderBy('version', 'desc')
    .execute();
  return rows.map((r) => ({
    version: Number(r.version),
    action: r.action,
    actor_id: r.actor_id,
    actor: r.actor,
    created_at: iso(Number(r.created_at)),
    published: publishedVersion !== null && Number(r.version) === publishedVersion,
  }));
}

/** The stored JSON of one version, or undefined. */
export async function versionSnapshot(db: Db, entity: VersionedEntity, entityId: string, version: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('cms_versions')
    .select('snapshot')
    .where('entity_type', '=', entity)
    .where('entity_id', '=', entityId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row?.snapshot;
}

/** The stored JSON of one version; 404 when the entity has no such version. */
export async function requireVersionSnapshot(db: Db, entity: VersionedEntity, entityId: string, version: number): Promise<string> {
  const stored = await versionSnapshot(db, entity, entityId, version);
  if (stored === undefined) throw notFound('Version not found');
  return stored;
}

/**
 * The fields that differ between versions `from` and `to` of an entity (404 when either is
 * missing). `view` picks what an editor compares from a stored snapshot (e.g. a party's settings,
 * without its clock-driven fields); the whole snapshot by default.
 */
export async function versionDiff(
  db: Db,
  entity: VersionedEntity,
  entityId: string,
  from: number,
  to: number,
  view: (snapshot: unknown) => unknown = (s) => s,
): Promise<VersionDiff> {
  const [a, b] = await Promise.all([requireVersionSnapshot(db, entity, entityId, from), requireVersionSnapshot(db, entity, entityId, to)]);
  return { from, to, changes: diffValues(view(JSON.parse(a)), view(JSON.parse(b))) };
}
