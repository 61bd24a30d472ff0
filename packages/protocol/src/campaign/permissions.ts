import type { CmsRole } from './entities.ts';

/**
 * What each back-office role may do. The server enforces it (apps/server cms/users/guards.ts);
 * the back office reads the same table to hide what a role may not do, so an editor never sees
 * an admin action. An admin may do everything; an editor runs campaigns, uploads and
 * translations but manages neither users, apps nor personal data (subscriber exports, outbox).
 */
export const CMS_PERMISSIONS = {
  'users.manage': ['admin'],
  'apps.read': ['admin', 'editor'],
  'apps.create': ['admin'],
  'apps.reload': ['admin', 'editor'],
  'campaigns.read': ['admin', 'editor'],
  'campaigns.write': ['admin', 'editor'],
  'campaigns.delete': ['admin'],
  /** Release a lock someone else holds. */
  'campaigns.breakLock': ['admin'],
  /** Publish, schedule, unpublish and restore a version: what visitors see. */
  'campaigns.publish': ['admin', 'editor'],
  /** Browse and export the audit log of back-office writes (it holds every entity's before and after). */
  'audit.read': ['admin'],
  'uploads.read': ['admin', 'editor'],
  'uploads.write': ['admin', 'editor'],
  'newsletter.export': ['admin'],
  'outbox.read': ['admin'],
  'tokenGate.manage': ['admin'],
  /** Export or erase a fan's or visitor's data found by e-mail (GDPR art. 15, 17, 20); audited. */
  'dataRights.manage': ['admin'],
  /** Party admin actions through `X-Cms-Token` on the party API. */
  'party.admin': ['admin', 'editor'],
} as const satisfies Record<string, readonly CmsRole[]>;

export type CmsPermission = keyof typeof CMS_PERMISSIONS;

/** True when one of `roles` grants `permission`. */
export function cmsRolesCan(roles: readonly CmsRole[], permission: CmsPermission): boolean {
  const allowed: readonly CmsRole[] = CMS_PERMISSIONS[permission];
  return roles.some((r) => allowed.includes(r));
}
