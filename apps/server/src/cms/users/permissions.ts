import type { CmsRole } from '@fanfare/protocol';

/**
 * What each role may do. An admin may do everything; an editor runs campaigns, uploads and
 * translations but manages neither users, apps nor personal data (subscriber exports, outbox).
 */
export const PERMISSIONS = {
  'users.manage': ['admin'],
  'apps.read': ['admin', 'editor'],
  'apps.create': ['admin'],
  'apps.reload': ['admin', 'editor'],
  'campaigns.read': ['admin', 'editor'],
  'campaigns.write': ['admin', 'editor'],
  'campaigns.delete': ['admin'],
  /** Release a lock someone else holds. */
  'campaigns.breakLock': ['admin'],
  'uploads.read': ['admin', 'editor'],
  'uploads.write': ['admin', 'editor'],
  'newsletter.export': ['admin'],
  'outbox.read': ['admin'],
  'tokenGate.manage': ['admin'],
  /** Party admin actions through `X-Cms-Token` on the party API. */
  'party.admin': ['admin', 'editor'],
} as const satisfies Record<string, readonly CmsRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/** True when one of `roles` grants `permission`. */
export function can(roles: readonly CmsRole[], permission: Permission): boolean {
  const allowed: readonly CmsRole[] = PERMISSIONS[permission];
  return roles.some((r) => allowed.includes(r));
}
