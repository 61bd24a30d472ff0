/**
 * What each party actor may do, by named ability: the one place that decides authorization in a
 * party, for the REST handlers and the socket alike (the party-side twin of
 * `cms/users/permissions.ts`). Identity (who calls) is settled first by the route guards
 * (`party/route.ts`) or the socket's token check; this module answers what that caller may do in
 * one party.
 */
import type { Role, StartAllowed } from '@fanfare/protocol';
import type { ServerContext } from '../context.ts';
import { toBool } from '../platform/db/columns.ts';
import { forbidden, unauthorized } from '../platform/errors.ts';
import type { Fan } from './auth/sessions.ts';
import { membershipOf, roleOf } from './auth/membership.ts';
import { requireParty, type PartyRow } from './parties/queries.ts';
import { startAllowedOf } from './parties/service.ts';

/** A party role, or `cms`: the admin tool (an accepted `X-Cms-Token`), which stands above a party's grants. */
export type PartyActorRole = Role | 'cms';

/**
 * Which actors hold each ability. A listener is every fan without a host or admin grant in the
 * party; abilities marked in `NEEDS` further require the fan's signup (and chat right).
 */
export const PARTY_ABILITIES = {
  /** Create or edit the party's settings (`PUT /api/parties/{id}`). */
  'party.edit': ['cms'],
  /** Start or resume the timeline; a fan's role must also be in the party's `partyStartAllowed`. */
  'party.start': ['cms', 'host', 'admin'],
  /** Pause the timeline (spec 6 lists it among the CMS actions; the app's host controls too). */
  'party.stop': ['cms', 'host', 'admin'],
  /** End the party now. */
  'party.end': ['cms', 'host', 'admin'],
  /** Receive the party's live events on the socket. */
  'party.listen': ['listener', 'host', 'admin'],
  /**
   * Read a login-required party's live data over REST (chat, player status, scoreboard; issue 10):
   * its signed-up fans, its hosts and admins, the admin tool. Open parties are readable by any fan.
   */
  'live.read': ['cms', 'listener', 'host', 'admin'],
  /** Send a quick reaction on the playing track (it reaches every fan of the party). */
  'reactions.send': ['listener', 'host', 'admin'],
  /** Choose the party's music. */
  'tracks.edit': ['cms'],
  'tracks.vote': ['listener', 'host', 'admin'],
  /** Post text, stickers, photos and videos to the chat (and upload chat media). */
  'chat.post': ['listener', 'host', 'admin'],
  /** Post beyond the per-fan rate limit. */
  'chat.postUnlimited': ['host', 'admin'],
  /** Switch the party-wide slow mode (issue 10). */
  'chat.slowMode': ['host', 'admin'],
  /** Post while slow mode is on, without waiting its interval. */
  'chat.ignoreSlowMode': ['host', 'admin'],
  /** Delete anyone's message (everyone may delete their own). */
  'chat.deleteAny': ['cms', 'host', 'admin'],
  /** Block and unblock fans; hosts and admins themselves cannot be blocked. */
  'chat.moderate': ['cms', 'host', 'admin'],
  /** Delete every message of the party. */
  'chat.clear': ['cms'],
  /** Plan scheduled messages. */
  'chat.schedule': ['cms'],
  /** Start and stop fake chat traffic (the load generator). */
  'chat.fakeTraffic': ['cms'],
  'popups.create': ['cms', 'host', 'admin'],
  'polls.create': ['cms', 'host', 'admin'],
  'polls.answer': ['listener', 'host', 'admin'],
  'quiz.create': ['cms', 'host', 'admin'],
  'quiz.answer': ['listener', 'host', 'admin'],
  /** Read and post the quiz scoreboard. */
  'quiz.scoreboard': ['cms', 'host', 'admin'],
  /** The user list, with e-mails: personal data. */
  'users.list': ['host', 'admin'],
  /** Remove every user of the party. */
  'users.remove': ['cms'],
  /** Upload one's own profile picture (storage is spent only on the party's own fans; issue 10). */
  'users.uploadOwn': ['listener', 'host', 'admin'],
  /** Upload a profile picture for someone else. */
  'users.uploadFor': ['cms'],
  /** Give and revoke host/admin grants. */
  'grants.manage': ['cms'],
  /** Ours (issue 14): watch the party's aggregated figures (the dashboard socket, `view=dashboard`). */
  'party.dashboard': ['cms', 'host', 'admin'],
  /** Ours (issue 14): the recap of the party and its CSV exports (chat log, results, fans with their e-mails). */
  'party.recap': ['cms'],
} as const satisfies Record<string, readonly PartyActorRole[]>;

export type PartyAbility = keyof typeof PARTY_ABILITIES;

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
  if (need && !actor.isSignedUp) return 'Sign up for this party first';
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
 * Guards one action in a party: the party must exist (404) and the fan must hold `ability` in it
 * (403 with the reason). Returns the party and the fan's actor for the handler.
 */
export async function authorizeFan(ctx: ServerContext, partyId: string, fan: Fan, ability: PartyAbility): Promise<{ party: PartyRow; actor: FanActor }> {
  const party = await requireParty(ctx.db, partyId);
  const actor = await fanActor(ctx, party, fan);
  const reason = denial(actor, ability);
  if (reason) throw forbidden(reason);
  return { party, actor };
}

/**
 * Guards an action that either the admin tool or a fan may take (`cms_or_bearer` routes): the route
 * guard has checked the CMS token when one was sent; a fan must hold `ability` in the party.
 */
export async function authorizeCmsOrFan(ctx: ServerContext, partyId: string, caller: { cms: unknown; fan: Fan | null }, ability: PartyAbility): Promise<PartyRow> {
  if (caller.fan) return (await authorizeFan(ctx, partyId, caller.fan, ability)).party;
  if (!caller.cms) throw unauthorized('Missing credentials');
  const party = await requireParty(ctx.db, partyId);
  const reason = denial(cmsActor(party), ability);
  if (reason) throw forbidden(reason);
  return party;
}

/**
 * True when `role` holds `ability` by role alone, for checks about a fan other than the caller or
 * without their signup at hand (rate-limit exemption, whether a fan can be blocked).
 */
export function roleHas(role: PartyActorRole, ability: PartyAbility): boolean {
  const roles: readonly PartyActorRole[] = PARTY_ABILITIES[ability];
  return roles.includes(role);
}
