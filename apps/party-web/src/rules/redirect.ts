import { WAITING_ROOM_DEFAULT_MINUTES, type Party } from '@fanfare/protocol';

/** The party times the redirect rule reads. */
export type PartyTimes = Pick<Party, 'starts_at' | 'ends_at' | 'frontend'>;

/** When the waiting room opens: start minus the waiting-room lead time (default 30 min, spec 3). */
export function waitingRoomOpensAtMs(party: PartyTimes): number {
  const minutes = party.frontend.partyIsWaitingRoomMinutes ?? WAITING_ROOM_DEFAULT_MINUTES;
  return Date.parse(party.starts_at) - minutes * 60_000;
}

/**
 * The admin preview flag (spec 2: "the admin flag lets the editor preview"): `?admin=true` (or
 * `admin=1`) in the address makes the redirect rule treat the page as an admin's, so the editor can
 * show Pre, Waiting, Player or End whatever the time. It changes only which screen shows: every
 * call is still authorised by the server.
 */
export const ADMIN_PREVIEW_PARAM = 'admin';

export function isAdminPreview(search: string): boolean {
  const value = new URLSearchParams(search).get(ADMIN_PREVIEW_PARAM);
  return value === 'true' || value === '1';
}

/** True once the end time has passed. */
export function hasEnded(party: PartyTimes, nowMs: number): boolean {
  return party.ends_at !== null && nowMs >= Date.parse(party.ends_at);
}

/**
 * The redirect rule (spec 2): unless the user is an admin, before the waiting room opens the app
 * goes to Pre, after the end time it goes to End. Null means: stay. Admins are never redirected.
 * A host (or a visitor holding a grant link not yet confirmed by a login, `mayPrepare`) is not
 * sent to Pre: a grant link works at any time before the end, so the host can log in, see the
 * role confirmed and prepare in the waiting room the day before.
 */
export function redirectTarget(party: PartyTimes, nowMs: number, isAdmin: boolean, mayPrepare = false): '/pre' | '/end' | null {
  if (isAdmin) return null;
  if (hasEnded(party, nowMs)) return '/end';
  if (nowMs < waitingRoomOpensAtMs(party) && !mayPrepare) return '/pre';
  return null;
}

/**
 * Where a redirect leads from `path`, or null to stay: the rule's target unless already there.
 * A fan on Pre whose waiting room has opened (or who may prepare) goes back to the entry page.
 */
export function redirectFrom(path: string, party: PartyTimes, nowMs: number, isAdmin: boolean, mayPrepare = false): string | null {
  const target = redirectTarget(party, nowMs, isAdmin, mayPrepare);
  // The replay (issue 47) is the ended party's other page; before the end there is none to show.
  if (path === '/replay') return target === '/end' || isAdmin ? null : (target ?? '/');
  if (target) return path === target ? null : target;
  if (!isAdmin && path === '/pre') return '/';
  if (!isAdmin && path === '/end') return '/';
  return null;
}
