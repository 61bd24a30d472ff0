import { describe, expect, it } from 'vitest';
import { PARTY_ABILITIES, WAITING_ROOM_READ_ONLY_DETAIL, type PartyAbility } from '@fanfare/protocol';
import type { PartyRow } from './parties/queries.ts';
import { can, denial, denialIn, roleHas, type PartyActor } from './policies.ts';

const actor = (role: PartyActor['role'], more: Partial<PartyActor> = {}): PartyActor => ({
  role,
  isSignedUp: true,
  canChat: true,
  startAllowed: 'both',
  ...more,
});

/** The actors of the matrix, each a column. */
const ACTORS = {
  cms: actor('cms'),
  admin: actor('admin'),
  host: actor('host'),
  listener: actor('listener'),
  blocked: actor('listener', { canChat: false }),
  stranger: actor('listener', { isSignedUp: false, canChat: false }),
} as const;
type Column = keyof typeof ACTORS;

/**
 * The expected matrix, written out (not derived from `PARTY_ABILITIES`), so any change of who may
 * do what fails here and is reviewed on purpose. `blocked` is a signed-up listener without chat
 * right; `stranger` a logged-in fan without a signup for the party.
 */
const EXPECTED: Record<PartyAbility, Column[]> = {
  'party.edit': ['cms'],
  'party.start': ['cms', 'admin', 'host'],
  'party.stop': ['cms', 'admin', 'host'],
  'party.end': ['cms', 'admin', 'host'],
  'party.listen': ['admin', 'host', 'listener', 'blocked'],
  'live.read': ['cms', 'admin', 'host', 'listener', 'blocked'],
  'reactions.send': ['admin', 'host', 'listener', 'blocked'],
  'tracks.edit': ['cms'],
  'tracks.vote': ['admin', 'host', 'listener', 'blocked'],
  'chat.post': ['admin', 'host', 'listener'],
  'chat.postUnlimited': ['admin', 'host'],
  'chat.slowMode': ['admin', 'host'],
  'chat.ignoreSlowMode': ['admin', 'host'],
  'chat.deleteAny': ['cms', 'admin', 'host'],
  'chat.moderate': ['cms', 'admin', 'host'],
  'chat.clear': ['cms'],
  'chat.schedule': ['cms'],
  'chat.fakeTraffic': ['cms'],
  'popups.create': ['cms', 'admin', 'host'],
  'polls.create': ['cms', 'admin', 'host'],
  'polls.answer': ['admin', 'host', 'listener', 'blocked'],
  'quiz.create': ['cms', 'admin', 'host'],
  'quiz.answer': ['admin', 'host', 'listener', 'blocked'],
  'questions.prepare': ['cms', 'admin', 'host'],
  'quiz.scoreboard': ['cms', 'admin', 'host'],
  'users.list': ['admin', 'host'],
  'users.remove': ['cms'],
  'users.uploadOwn': ['admin', 'host', 'listener', 'blocked'],
  'users.uploadFor': ['cms'],
  'grants.manage': ['cms'],
  'party.dashboard': ['cms', 'admin', 'host'],
  'party.recap': ['cms'],
  'replay.moderate': ['cms', 'admin', 'host'],
};

describe('party policies: the ability matrix', () => {
  it('names every ability of the matrix and no other', () => {
    expect(Object.keys(PARTY_ABILITIES).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [ability, allowed] of Object.entries(EXPECTED) as [PartyAbility, Column[]][]) {
    it(`${ability}: ${allowed.join(', ')}`, () => {
      const granted = (Object.keys(ACTORS) as Column[]).filter((c) => can(ACTORS[c], ability));
      expect(granted).toEqual(allowed);
    });
  }

  it('spec 4/6 start follows partyStartAllowed for fans; the CMS token may always start', () => {
    const start = (role: PartyActor['role'], startAllowed: PartyActor['startAllowed']) => can(actor(role, { startAllowed }), 'party.start');
    expect([start('host', 'host'), start('admin', 'host'), start('cms', 'host')]).toEqual([true, false, true]);
    expect([start('host', 'admin'), start('admin', 'admin'), start('cms', 'admin')]).toEqual([false, true, true]);
    expect([start('host', 'both'), start('admin', 'both'), start('listener', 'both')]).toEqual([true, true, false]);
  });

  it('a refusal says why: signup first, blocked, hosts and admins only, admin tool only, start role', () => {
    expect(denial(ACTORS.stranger, 'chat.post')).toMatch(/Sign up/);
    expect(denial(ACTORS.blocked, 'chat.post')).toMatch(/blocked/);
    expect(denial(ACTORS.listener, 'polls.create')).toMatch(/hosts and admins/);
    expect(denial(ACTORS.admin, 'grants.manage')).toMatch(/CMS token/);
    expect(denial(actor('admin', { startAllowed: 'host' }), 'party.start')).toMatch(/may not start/);
  });

  it('listening-party §6: live data of a login-required party: a host or admin grant reads without a signup, a listener needs one', () => {
    const unsigned = { isSignedUp: false, canChat: false };
    expect((['admin', 'host', 'listener'] as const).map((r) => can(actor(r, unsigned), 'live.read'))).toEqual([true, true, false]);
    expect(denial(actor('listener', unsigned), 'live.read')).toMatch(/Sign up/);
    // The socket stays for signed-up fans only, whatever their role.
    expect((['admin', 'host'] as const).map((r) => can(actor(r, unsigned), 'party.listen'))).toEqual([false, false]);
  });

  it('uploading one\'s own profile picture and sending reactions need a signup in the party, whatever the role', () => {
    for (const ability of ['users.uploadOwn', 'reactions.send'] as const) {
      expect((['admin', 'host', 'listener'] as const).map((r) => can(actor(r, { isSignedUp: false }), ability))).toEqual([false, false, false]);
      expect(denial(ACTORS.stranger, ability)).toMatch(/Sign up/);
    }
  });

  it('slow mode is switched by hosts and admins, who also post through it', () => {
    expect(denial(ACTORS.listener, 'chat.slowMode')).toMatch(/hosts and admins/);
    expect((['admin', 'host', 'listener'] as const).map((r) => roleHas(r, 'chat.ignoreSlowMode'))).toEqual([true, true, false]);
  });

  it('by role alone: hosts and admins post without the rate limit and cannot be blocked (they moderate)', () => {
    expect((['admin', 'host', 'listener'] as const).map((r) => roleHas(r, 'chat.postUnlimited'))).toEqual([true, true, false]);
    expect((['admin', 'host', 'listener'] as const).map((r) => roleHas(r, 'chat.moderate'))).toEqual([true, true, false]);
  });

  it("listening-party §6: a party's live data needs a signup only where the party asks for a login", async () => {
    const party = (loginRequired: boolean) => ({ login_required: loginRequired ? 1 : 0 }) as unknown as PartyRow;
    const stranger = () => ACTORS.stranger;
    expect(await denialIn(party(false), 'live.read', stranger)).toBeNull();
    expect(await denialIn(party(true), 'live.read', stranger)).toBe('Sign up for this party to read its chat, player status and scoreboard');
    // Other abilities keep their rules in an open party.
    expect(await denialIn(party(false), 'chat.post', stranger)).toMatch(/Sign up/);
  });

  it('a read-only waiting room: listeners read but do not post, react or answer until the start; hosts and admins do', async () => {
    const party = (readOnly: boolean, startedAt: number | null) => ({ login_required: 1, started_at: startedAt, frontend: JSON.stringify({ waitingRoomReadOnly: readOnly }) }) as unknown as PartyRow;
    const speaking = ['chat.post', 'reactions.send', 'polls.answer', 'quiz.answer'] as const;
    for (const ability of speaking) {
      expect(await denialIn(party(true, null), ability, () => ACTORS.listener)).toBe(WAITING_ROOM_READ_ONLY_DETAIL);
      expect(await denialIn(party(true, null), ability, () => ACTORS.host)).toBeNull();
      expect(await denialIn(party(true, null), ability, () => ACTORS.admin)).toBeNull();
      expect(await denialIn(party(true, 1_700_000_000_000), ability, () => ACTORS.listener)).toBeNull();
      expect(await denialIn(party(false, null), ability, () => ACTORS.listener)).toBeNull();
    }
    // Reading stays open, and a blocked fan still hears why first.
    expect(await denialIn(party(true, null), 'live.read', () => ACTORS.listener)).toBeNull();
    expect(await denialIn(party(true, null), 'chat.post', () => ACTORS.blocked)).toMatch(/blocked/);
  });
});
