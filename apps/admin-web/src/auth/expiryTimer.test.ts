import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXPIRY_WARNING_MS, scheduleSessionExpiry } from './expiryTimer.ts';

describe('session expiry timer: an expiring session is handled gracefully', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2027-06-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  const events = () => {
    const log: string[] = [];
    return { log, onWarn: (left: number) => log.push(`warn ${Math.round(left / 1000)}s`), onExpire: () => log.push('expire') };
  };

  it(`warns ${EXPIRY_WARNING_MS / 60_000} minutes before the end, then ends the session at the end, once each`, () => {
    const e = events();
    scheduleSessionExpiry({ expiresAt: Date.now() + 10 * 60_000, ...e });
    vi.advanceTimersByTime(8 * 60_000 - 1);
    expect(e.log).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(e.log).toEqual(['warn 120s']);
    vi.advanceTimersByTime(2 * 60_000 - 1);
    expect(e.log).toEqual(['warn 120s']);
    vi.advanceTimersByTime(1);
    expect(e.log).toEqual(['warn 120s', 'expire']);
    vi.advanceTimersByTime(60 * 60_000);
    expect(e.log).toEqual(['warn 120s', 'expire']);
  });

  it('warns at once when less than the warning time is left, and ends at once when already over', () => {
    const soon = events();
    scheduleSessionExpiry({ expiresAt: Date.now() + 30_000, ...soon });
    expect(soon.log).toEqual(['warn 30s']);
    vi.advanceTimersByTime(30_000);
    expect(soon.log).toEqual(['warn 30s', 'expire']);
    const over = events();
    scheduleSessionExpiry({ expiresAt: Date.now() - 1, ...over });
    expect(over.log).toEqual(['expire']);
  });

  it('"stay signed in" cancels the old timer: neither warning nor end fires for the replaced session', () => {
    const e = events();
    const cancel = scheduleSessionExpiry({ expiresAt: Date.now() + 3 * 60_000, ...e });
    vi.advanceTimersByTime(60_000);
    expect(e.log).toEqual(['warn 120s']);
    cancel();
    vi.advanceTimersByTime(10 * 60_000);
    expect(e.log).toEqual(['warn 120s']);
  });

  it('waits longer than setTimeout can (25 days) without firing early', () => {
    const e = events();
    scheduleSessionExpiry({ expiresAt: Date.now() + 30 * 24 * 3_600_000, ...e });
    vi.advanceTimersByTime(25 * 24 * 3_600_000);
    expect(e.log).toEqual([]);
    vi.advanceTimersByTime(5 * 24 * 3_600_000);
    expect(e.log).toEqual(['warn 120s', 'expire']);
  });
});
