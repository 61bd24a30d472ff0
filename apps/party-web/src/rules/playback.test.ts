import { describe, expect, it } from 'vitest';
import { countdownParts, formatClock, positionNowMs } from './playback.ts';

const track = { id: 't', name: 'T', artists: [], album: 'A', duration_ms: 200_000, image: null, service: 'umg_hls' as const, hls_url: '/a.m3u8' };

describe('play position rule: progress_ms corrected by the clock offset (spec 4)', () => {
  it('adds the server time elapsed since the status', () => {
    const status = { track, progress_ms: 10_000, is_paused: false, timestamp_ms: 1_000_000 };
    // Client clock is 5 s behind the server: server now = 1_003_000 + 5_000.
    expect(positionNowMs(status, 1_003_000, 5_000)).toBe(18_000);
  });
  it('holds still while paused and never passes the track end', () => {
    expect(positionNowMs({ track, progress_ms: 10_000, is_paused: true, timestamp_ms: 0 }, 9e9, 0)).toBe(10_000);
    expect(positionNowMs({ track, progress_ms: 10_000, is_paused: false, timestamp_ms: 0 }, 9e9, 0)).toBe(200_000);
  });
  it('formats clocks and countdowns', () => {
    expect(formatClock(61_500)).toBe('1:01');
    expect(countdownParts(90_061_000, 0)).toEqual({ days: 1, hours: 1, minutes: 1, seconds: 1, done: false });
    expect(countdownParts(0, 5).done).toBe(true);
  });
});
