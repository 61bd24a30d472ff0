/**
 * What each party actor may do, by named ability: the data of the party policy (the server's
 * `party/policies.ts` decides with it). It lives in the protocol because the route table entries
 * declare the ability each call needs (`RouteDef.ability`), as CMS entries declare a permission.
 */
import type { Role } from './entities.ts';

/** A party role, or `cms`: the admin tool (an accepted `X-Cms-Token`), which stands above a party's grants. */
export type PartyActorRole = Role | 'cms';

/**
 * Which actors hold each ability. A listener is every fan without a host or admin grant in the
 * party; the server's policy further requires a signup (and the chat right) for some of them.
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
  /** Keep polls and quiz questions prepared for later, on the server (before the party, on any device). */
  'questions.prepare': ['cms', 'host', 'admin'],
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
  /** Ours (issue 47): hide items from the party's replay (and show them again). */
  'replay.moderate': ['cms', 'host', 'admin'],
} as const satisfies Record<string, readonly PartyActorRole[]>;

export type PartyAbility = keyof typeof PARTY_ABILITIES;
