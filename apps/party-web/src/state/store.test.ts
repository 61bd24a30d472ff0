import { describe, expect, it } from 'vitest';
import { chatFixture, partyFixture, partyTrackFixture, partyUserFixture } from '../test/fixtures.ts';
import { CHAT_MAX_KEPT, createPartyStore, roleOf } from './store.ts';

function store() {
  const s = createPartyStore('demo', () => 1_000_000);
  s.getState().setParty(partyFixture());
  s.getState().set({ user: partyUserFixture({ id: 'me', premium: false, service: 'spotify' }), tracks: [partyTrackFixture('a', 0)] });
  return s;
}

describe('party_changed rule: updates starts_at, ends_at and voting_enabled and re-runs the redirect rule (spec 4)', () => {
  it('stores the new times and bumps the version the redirect guard watches', () => {
    const s = store();
    s.getState().applyEvent({ type: 'party_changed', seq_id: 1, server_time_ms: 1, starts_at: '2031-01-01T00:00:00.000Z', ends_at: null, voting_enabled: false });
    const { party, partyVersion } = s.getState();
    expect(party).toMatchObject({ starts_at: '2031-01-01T00:00:00.000Z', ends_at: null, voting_enabled: false });
    expect(partyVersion).toBe(1);
  });
  it('follows the read-only waiting room switch, and keeps it when an event does not say', () => {
    const s = store();
    s.getState().applyEvent({ type: 'party_changed', seq_id: 1, server_time_ms: 1, starts_at: '2031-01-01T00:00:00.000Z', ends_at: null, voting_enabled: true, waiting_room_read_only: true });
    expect(s.getState().party?.frontend.waitingRoomReadOnly).toBe(true);
    s.getState().applyEvent({ type: 'party_changed', seq_id: 2, server_time_ms: 1, starts_at: '2031-01-01T00:00:00.000Z', ends_at: null, voting_enabled: true });
    expect(s.getState().party?.frontend.waitingRoomReadOnly).toBe(true);
  });
  it('stores ends_at from party_ended (spec 4: end returns ends_at, which is stored)', () => {
    const s = store();
    s.getState().applyEvent({ type: 'party_ended', seq_id: 2, server_time_ms: 1, ends_at: '2020-01-01T00:00:00.000Z' });
    expect(s.getState().party?.ends_at).toBe('2020-01-01T00:00:00.000Z');
    expect(s.getState().partyVersion).toBe(1);
  });
});

describe('live events: votes, chat right, results', () => {
  it('applies votes_changed, user_can_chat and poll_results', () => {
    const s = store();
    s.getState().applyEvent({ type: 'votes_changed', seq_id: 3, server_time_ms: 1, track_id: 'a', votes: 7 });
    expect(s.getState().tracks[0]!.votes).toBe(7);
    s.getState().applyEvent({ type: 'user_can_chat', seq_id: 4, server_time_ms: 1, user_id: 'me', can_chat: false });
    expect(s.getState().user?.can_chat).toBe(false);
    s.getState().applyEvent({ type: 'poll_results', seq_id: 5, server_time_ms: 1, poll_id: 'p', results: [1, 2], closed: true });
    expect(s.getState().polls.p).toEqual({ results: [1, 2], closed: true });
  });
  it('clears the chat on chat_cleared', () => {
    const s = store();
    s.getState().applyChat([chatFixture({ id: 'x' })]);
    s.getState().applyEvent({ type: 'chat_cleared', seq_id: 6, server_time_ms: 1 });
    expect(s.getState().messages).toEqual([]);
  });
});

describe('popup rule in the store: only newer than page load, only for the fans it targets (spec 3 and 4)', () => {
  const popup = (id: string, timestamp_ms: number, extra: object = {}) =>
    chatFixture({ id, type: 'popup', sender: null, text: null, popup: { free_only: false, message: 'Hi', is_closeable: true, is_restart: false, timestamp_ms, ...extra } });
  it('shows a popup newer than the page load and drops an older one', () => {
    const s = store();
    s.getState().applyChat([popup('old', 999_000), popup('new', 1_000_500)]);
    expect(s.getState().popups.map((p) => p.id)).toEqual(['new']);
    expect(s.getState().messages).toEqual([]);
  });
  it('respects service and free_only targeting', () => {
    const s = store();
    s.getState().applyChat([popup('apple', 2_000_000, { service: 'apple' }), popup('free', 2_000_000, { free_only: true })]);
    expect(s.getState().popups.map((p) => p.id)).toEqual(['free']);
  });
});

describe('roles (spec 6): from the party profile, else from the grants of the system profile', () => {
  it('reads the role', () => {
    expect(roleOf({ partyId: 'demo', user: partyUserFixture({ role: 'host' }), systemUser: null })).toBe('host');
    expect(roleOf({ partyId: 'demo', user: null, systemUser: { id: 'f', service: 'spotify', service_user_id: 'x', display_name: 'x', email: null, country: null, premium: false, profile_picture: null, grants: [{ party_id: 'demo', role: 'admin' }] } })).toBe('admin');
    expect(roleOf({ partyId: 'demo', user: null, systemUser: null })).toBe('listener');
  });
});

describe('chat memory bound (ours): at most CHAT_MAX_KEPT entries stay in memory', () => {
  it('drops the oldest beyond the bound', () => {
    const s = store();
    s.getState().applyChat(Array.from({ length: CHAT_MAX_KEPT + 10 }, (_, i) => chatFixture({ id: `m${i}` })));
    expect(s.getState().messages).toHaveLength(CHAT_MAX_KEPT);
    expect(s.getState().messages[0]!.id).toBe('m10');
  });
});

describe('reaction bursts: flown-off bursts leave the page and ids never repeat', () => {
  it('drops a burst by id, and the next burst takes a fresh id rather than the dropped one', () => {
    const s = store();
    s.getState().addReactions({ type: 'reactions', track_id: 'a', counts: { fire: 2, heart: 1 } });
    expect(s.getState().reactionBursts.map((b) => b.id)).toEqual([1, 2]);
    s.getState().dropReactionBurst(2);
    s.getState().dropReactionBurst(1);
    expect(s.getState().reactionBursts).toEqual([]);
    s.getState().addReactions({ type: 'reactions', track_id: 'a', counts: { fire: 1 } });
    expect(s.getState().reactionBursts).toEqual([{ id: 3, reaction: 'fire', count: 1 }]);
  });
});
