import { CMS_PERMISSIONS, cmsRolesCan, type CmsPermission, type CmsRole } from '@fanfare/protocol';

/**
 * What each role may do: one table in the protocol, enforced here and read by the back office to
 * hide what a role may not do.
 */
export const PERMISSIONS = CMS_PERMISSIONS;

export type Permission = CmsPermission;

/** True when one of `roles` grants `permission`. */
export function can(roles: readonly CmsRole[], permission: Permission): boolean {
  return cmsRolesCan(roles, permission);
}
