import { describe, expect, it } from 'vitest';
import type { PlayerStatus } from '@fanfare/protocol';
import { trackFixture } from '../test/fixtures.ts';
import { IN_SYNC_TOLERANCE_MS, isAlbumFinished, readOffset, syncPhase } from './sync.ts';

const track = trackFixture('t1');

describe('offset indicator: "in sync" or "N ms behind/ahead" from the clock-synced timeline', () => {
  it(`is in sync within IN_SYNC_TOLERANCE_MS (${IN_SYNC_TOLERANCE_MS} ms), else names the rounded offset and its direction`, () => {
    expect(readOffset(null)).toEqual({ kind: 'unknown' });
    expect(readOffset(IN_SYNC_TOLERANCE_MS)).toEqual({ kind: 'in_sync' });
    expect(readOffset(-IN_SYNC_TOLERANCE_MS)).toEqual({ kind: 'in_sync' });
    expect(readOffset(3_204)).toEqual({ kind: 'behind', ms: 3_200 });
    expect(readOffset(-76)).toEqual({ kind: 'ahead', ms: 80 });
  });
});

describe('status pill: tells the truth (offline, reconnecting, catching up, live)', () => {
  const live = { kind: 'live' } as const;
  it('offline wins while the browser has no network, even when the old socket still looks live', () => {
    expect(syncPhase({ connection: live, isOnline: false, isCatchingUp: false })).toBe('offline');
  });
  it('a second connect attempt or a backoff is reconnecting; a first is connecting', () => {
    expect(syncPhase({ connection: { kind: 'connecting', attempt: 1 }, isOnline: true, isCatchingUp: false })).toBe('connecting');
    expect(syncPhase({ connection: { kind: 'connecting', attempt: 2 }, isOnline: true, isCatchingUp: false })).toBe('reconnecting');
    expect(syncPhase({ connection: { kind: 'reconnecting', failures: 1, delayMs: 400, closeCode: 1006 }, isOnline: true, isCatchingUp: true })).toBe('reconnecting');
  });
  it('live socket and a realigning player is catching up; otherwise live; no pill when idle or in error', () => {
    expect(syncPhase({ connection: live, isOnline: true, isCatchingUp: true })).toBe('catching_up');
    expect(syncPhase({ connection: live, isOnline: true, isCatchingUp: false })).toBe('live');
    expect(syncPhase({ connection: { kind: 'idle' }, isOnline: true, isCatchingUp: false })).toBeNull();
    expect(syncPhase({ connection: { kind: 'error', reason: 'policy_violation', closeCode: 1008 }, isOnline: true, isCatchingUp: false })).toBeNull();
  });
});

describe('finished album: the timeline stopped at the end of the last track', () => {
  const end: PlayerStatus = { track, progress_ms: track.duration_ms, is_paused: true, timestamp_ms: 1 };
  it('is finished when paused at the end and every other track has played', () => {
    expect(isAlbumFinished(end, [{ id: 't1', played: true }, { id: 't2', played: true }])).toBe(true);
  });
  it('is not finished while a track is left, mid-track, while running, or before the start', () => {
    expect(isAlbumFinished(end, [{ id: 't1', played: true }, { id: 't2', played: false }])).toBe(false);
    expect(isAlbumFinished({ ...end, progress_ms: 1_000 }, [{ id: 't1', played: true }])).toBe(false);
    expect(isAlbumFinished({ ...end, is_paused: false }, [{ id: 't1', played: true }])).toBe(false);
    expect(isAlbumFinished(null, [])).toBe(false);
  });
});
