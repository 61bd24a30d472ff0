import { START_ALLOWED_DEFAULT, type Role, type StartAllowed } from '@fanfare/protocol';

/** Host or admin: moderation and party controls (spec 6). */
export function isHostOrAdmin(role: Role | null | undefined): boolean {
  return role === 'host' || role === 'admin';
}

/** Start permission follows startAllowed: host, admin, or both (spec 4 and 6). */
export function canStart(role: Role | null | undefined, startAllowed: StartAllowed | undefined): boolean {
  const allowed = startAllowed ?? START_ALLOWED_DEFAULT;
  if (role === 'host') return allowed === 'host' || allowed === 'both';
  if (role === 'admin') return allowed === 'admin' || allowed === 'both';
  return false;
}
