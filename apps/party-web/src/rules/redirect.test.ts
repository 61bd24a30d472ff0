import { describe, expect, it } from 'vitest';
import { isAdminPreview, redirectFrom, redirectTarget, waitingRoomOpensAtMs } from './redirect.ts';

const start = Date.parse('2030-01-01T20:00:00Z');
const party = (over: Partial<{ ends_at: string | null; minutes: number }> = {}) => ({
  starts_at: new Date(start).toISOString(),
  ends_at: over.ends_at === undefined ? new Date(start + 3600_000).toISOString() : over.ends_at,
  frontend: over.minutes === undefined ? {} : { partyIsWaitingRoomMinutes: over.minutes },
});

describe('redirect rule: Pre before start minus waiting room, End after the end (spec 2)', () => {
  it('opens the waiting room 30 minutes before the start by default', () => {
    expect(waitingRoomOpensAtMs(party())).toBe(start - 30 * 60_000);
    expect(waitingRoomOpensAtMs(party({ minutes: 5 }))).toBe(start - 5 * 60_000);
  });
  it('goes to Pre before the waiting room opens', () => {
    expect(redirectTarget(party(), start - 31 * 60_000, false)).toBe('/pre');
    expect(redirectTarget(party(), start - 30 * 60_000, false)).toBeNull();
  });
  it('goes to End once the end time has passed', () => {
    expect(redirectTarget(party(), start + 3600_000, false)).toBe('/end');
    expect(redirectTarget(party({ ends_at: null }), start + 99 * 3600_000, false)).toBeNull();
  });
  it('the replay stays open after the end (the ended party’s other page); before the end a fan goes to the entry, Pre or nowhere else', () => {
    expect(redirectFrom('/replay', party(), start + 2 * 3600_000, false)).toBeNull();
    expect(redirectFrom('/replay', party(), start, false)).toBe('/');
    expect(redirectFrom('/replay', party(), start - 99 * 3600_000, false)).toBe('/pre');
    expect(redirectFrom('/replay', party(), start, true)).toBeNull();
  });
  it('never redirects an admin', () => {
    expect(redirectTarget(party(), start - 99 * 3600_000, true)).toBeNull();
    expect(redirectTarget(party(), start + 99 * 3600_000, true)).toBeNull();
    expect(redirectFrom('/pre', party(), start, true)).toBeNull();
  });
  it('spec 2: the admin preview flag (?admin=true) lets the editor preview any screen', () => {
    expect(isAdminPreview('?admin=true')).toBe(true);
    expect(isAdminPreview('?x=1&admin=1')).toBe(true);
    expect(isAdminPreview('')).toBe(false);
    expect(isAdminPreview('?admin=false')).toBe(false);
    const preview = isAdminPreview('?admin=true');
    expect(redirectFrom('/player', party(), start - 99 * 3600_000, preview)).toBeNull();
    expect(redirectFrom('/pre', party(), start, preview)).toBeNull();
    expect(redirectFrom('/end', party(), start - 99 * 3600_000, preview)).toBeNull();
  });
  it('does not redirect to the screen already shown, and leaves Pre once the room opens', () => {
    expect(redirectFrom('/pre', party(), start - 40 * 60_000, false)).toBeNull();
    expect(redirectFrom('/player', party(), start - 40 * 60_000, false)).toBe('/pre');
    expect(redirectFrom('/pre', party(), start, false)).toBe('/');
    expect(redirectFrom('/waiting', party(), start, false)).toBeNull();
  });

  it('a grant link works at any time before the end: a host, or a holder of a grant link, is not sent to Pre but still to End', () => {
    const start = Date.parse(party().starts_at);
    const dayBefore = start - 24 * 3600_000;
    expect(redirectTarget(party(), dayBefore, false, true)).toBeNull();
    expect(redirectFrom('/pre', party(), dayBefore, false, true)).toBe('/');
    expect(redirectFrom('/waiting', party(), dayBefore, false, true)).toBeNull();
    expect(redirectFrom('/waiting', party(), dayBefore, false, false)).toBe('/pre');
    expect(redirectTarget(party(), start + 3600_000, false, true)).toBe('/end');
  });
});
