/**
 * What each party actor may do, by named ability: the one place that decides authorization in a
 * party, for the REST handlers and the socket alike (the party-side twin of
 * `cms/users/permissions.ts`). Identity (who calls) is settled first by the route guards
 * (`party/route.ts`) or the socket's token check; this module answers what that caller may do in
 * one party.
 */
import { PARTY_ABILITIES, WAITING_ROOM_READ_ONLY_DETAIL, type PartyAbility, type PartyActorRole, type Role, type StartAllowed } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import { toBool } from '../platform/db/columns.ts';
import type { Fan } from './auth/sessions.ts';
import { membershipOf, roleOf } from './auth/membership.ts';
import type { PartyRow } from './parties/queries.ts';
import { startAllowedOf, storedSettingsOf } from './parties/service.ts';

/**
 * Fan state an ability needs beyond the role: a signup for the party (`signup`; `listenerSignup`:
 * only a listener needs one, a host or admin grant is enough), and not being blocked (`chatRight`).
 */
const NEEDS: Partial<Record<PartyAbility, 'signup' | 'listenerSignup' | 'chatRight'>> = {
  'party.listen': 'signup',
  'live.read': 'listenerSignup',
  'reactions.send': 'signup',
  'users.uploadOwn': 'signup',
  'tracks.vote': 'signup',
  'chat.post': 'chatRight',
  'polls.answer': 'signup',
  'quiz.answer': 'signup',
};

/** The 403 detail of a missing signup, where the ability has its own. */
const SIGNUP_DETAIL: Partial<Record<PartyAbility, string>> = {
  'live.read': 'Sign up for this party to read its chat, player status and scoreboard',
};

/**
 * Abilities every fan holds in a party open to anonymous signup (not `login_required`): its live
 * data is as public as its signup (spec 6: a login is needed to read it, a signup only where the
 * party asks for a login).
 */
const HELD_IN_OPEN_PARTIES: ReadonlySet<PartyAbility> = new Set(['live.read']);

/**
 * What a listener may not do while a read-only waiting room waits for the start: speak in the
 * chat in any form. Reading stays open; hosts and admins keep every right.
 */
const CLOSED_IN_READ_ONLY_WAITING_ROOM: ReadonlySet<PartyAbility> = new Set(['chat.post', 'reactions.send', 'polls.answer', 'quiz.answer']);

/** Who acts in one party. */
export interface PartyActor {
  role: PartyActorRole;
  /** The fan has signed up for the party (always true for the CMS). */
  isSignedUp: boolean;
  /** The fan may chat (not blocked; always true for the CMS). */
  canChat: boolean;
  /** The party's `partyStartAllowed`. */
  startAllowed: StartAllowed;
}

/** True when `actor` holds `ability` (role, then the fan state the ability needs, then start rules). */
export function can(actor: PartyActor, ability: PartyAbility): boolean {
  return denial(actor, ability) === null;
}

/** Why `actor` may not use `ability` (the 403 detail), or null when they may. */
export function denial(actor: PartyActor, ability: PartyAbility): string | null {
  const roles: readonly PartyActorRole[] = PARTY_ABILITIES[ability];
  if (!roles.includes(actor.role)) {
    if (roles.length === 1 && roles[0] === 'cms') return 'Only the admin tool (CMS token) may do this';
    return roles.includes('listener') ? 'You may not do this in this party' : "Only the party's hosts and admins may do this";
  }
  // The party's own setting narrows who of its hosts and admins may start (spec 4 and 6).
  if (ability === 'party.start' && actor.role !== 'cms' && !mayStart(actor.startAllowed, actor.role)) return 'Your role may not start this party';
  if (actor.role === 'cms') return null;
  const need = NEEDS[ability];
  if (need === 'listenerSignup' && actor.role !== 'listener') return null;
  if (need && !actor.isSignedUp) return SIGNUP_DETAIL[ability] ?? 'Sign up for this party first';
  if (need === 'chatRight' && !actor.canChat) return 'You are blocked from this chat';
  return null;
}

/** True when `role` may start a party whose `partyStartAllowed` is `allowed` (spec 4 and 6). */
export function mayStart(allowed: StartAllowed, role: Role): boolean {
  return allowed === 'both' ? role === 'host' || role === 'admin' : role === allowed;
}

/** A fan acting in a party (never the admin tool). */
export type FanActor = PartyActor & { role: Role };

/** A fan's actor in a party: role from grants, signup and chat right from the signup row (cached: `auth/membership.ts`). */
export async function fanActor(ctx: ServerContext, party: PartyRow, fan: Fan): Promise<FanActor> {
  const m = await membershipOf(ctx.db, party.id, fan);
  const signup = m.signup;
  return { role: roleOf(m), isSignedUp: Boolean(signup), canChat: signup ? toBool(signup.can_chat) : false, startAllowed: startAllowedOf(party) };
}

/** The admin tool's actor in a party. */
export function cmsActor(party: PartyRow): PartyActor {
  return { role: 'cms', isSignedUp: true, canChat: true, startAllowed: startAllowedOf(party) };
}

/**
 * Why the caller may not use `ability` in `party` (the 403 detail), or null: `denial` plus the
 * party's own rules. The actor is read only when the party's rules leave the question open (an
 * open party's chat is read without a membership lookup).
 */
export async function denialIn(party: PartyRow, ability: PartyAbility, actorOf: () => PartyActor | Promise<PartyActor>): Promise<string | null> {
  if (HELD_IN_OPEN_PARTIES.has(ability) && !toBool(party.login_required)) return null;
  const actor = await actorOf();
  return denial(actor, ability) ?? waitingRoomDenial(party, ability, actor.role);
}

/**
 * Why a read-only waiting room refuses `ability` to `role` (the 403 detail), or null: only before
 * the start (`started_at` null), only listeners, only the abilities that speak in the chat.
 */
export function waitingRoomDenial(party: Pick<PartyRow, 'started_at' | 'frontend'>, ability: PartyAbility, role: PartyActorRole): string | null {
  if (role !== 'listener' || party.started_at != null || !CLOSED_IN_READ_ONLY_WAITING_ROOM.has(ability)) return null;
  return storedSettingsOf(party).waitingRoomReadOnly === true ? WAITING_ROOM_READ_ONLY_DETAIL : null;
}

/**
 * True when `role` holds `ability` by role alone, for checks about a fan other than the caller or
 * without their signup at hand (rate-limit exemption, whether a fan can be blocked).
 */
export function roleHas(role: PartyActorRole, ability: PartyAbility): boolean {
  const roles: readonly PartyActorRole[] = PARTY_ABILITIES[ability];
  return roles.includes(role);
}
