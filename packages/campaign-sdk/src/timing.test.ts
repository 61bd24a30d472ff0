import { TIMER_MAX_MS } from '@fanfare/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CampaignTiming, waitUntil } from './timing.ts';
import { fakeEnv } from './test/fakes.ts';

const DAY = 86_400_000;

describe('campaign timing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T00:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  function timing(window: { starts_at: string | null; ends_at: string | null }) {
    const { env } = fakeEnv();
    const t = new CampaignTiming(env.timers, env.now, () => window);
    const seen: string[] = [];
    t.events.on('started', () => seen.push('started'));
    t.events.on('ended', () => seen.push('ended'));
    return { t, seen };
  }

  it("campaign spec §4: 'started' fires at once when there is no starts_at", () => {
    const { t, seen } = timing({ starts_at: null, ends_at: null });
    t.start();
    expect(seen).toEqual(['started']);
    expect(t.phase).toBe('running');
  });

  it("campaign spec §4: 'started' fires at once when starts_at has passed, and at starts_at otherwise", () => {
    const past = timing({ starts_at: '2026-02-01T00:00:00Z', ends_at: null });
    past.t.start();
    expect(past.seen).toEqual(['started']);
    const future = timing({ starts_at: '2026-03-01T00:10:00Z', ends_at: null });
    future.t.start();
    expect(future.seen).toEqual([]);
    vi.advanceTimersByTime(10 * 60_000 - 1);
    expect(future.seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(future.seen).toEqual(['started']);
  });

  it("campaign spec §4: 'ended' fires when ends_at passes", () => {
    const { t, seen } = timing({ starts_at: null, ends_at: '2026-03-02T00:00:00Z' });
    t.start();
    vi.advanceTimersByTime(DAY);
    expect(seen).toEqual(['started', 'ended']);
    expect(t.phase).toBe('ended');
  });

  it('campaign spec §4/§9: waits longer than 2147483647 ms (> 24.8 days) are chunked and re-checked, firing neither early nor late', () => {
    const { t, seen } = timing({ starts_at: '2026-04-10T00:00:00Z', ends_at: '2026-05-20T00:00:00Z' }); // 40 and 80 days away
    const spy = vi.spyOn(globalThis, 'setTimeout');
    t.start();
    expect(Math.max(...spy.mock.calls.map((c) => Number(c[1])))).toBe(TIMER_MAX_MS);
    vi.advanceTimersByTime(TIMER_MAX_MS); // 24.8 days: a plain setTimeout(40 days) would have fired at once
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(40 * DAY - TIMER_MAX_MS - 1);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['started']);
    vi.advanceTimersByTime(40 * DAY - 1);
    expect(seen).toEqual(['started']);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual(['started', 'ended']);
    for (const [, ms] of spy.mock.calls) expect(Number(ms)).toBeLessThanOrEqual(TIMER_MAX_MS);
    spy.mockRestore();
  });

  it('campaign spec §4: a chunked wait re-checks the clock (a clock that jumped ahead fires at the next check)', () => {
    const { env } = fakeEnv();
    let offset = 0;
    const fired: number[] = [];
    waitUntil(env.timers, () => Date.now() + offset, Date.now() + 60 * DAY, () => fired.push(1));
    offset = 60 * DAY; // e.g. the editor simulates a later time
    vi.advanceTimersByTime(TIMER_MAX_MS);
    expect(fired).toEqual([1]);
  });

  it('campaign spec §4: the phase is upcoming before start; the events carry the time they fired at', () => {
    const { env } = fakeEnv();
    const t = new CampaignTiming(env.timers, env.now, () => ({ starts_at: null, ends_at: '2026-03-01T00:00:05Z' }));
    const events: unknown[] = [];
    t.events.on('started', (e) => events.push(['started', e]));
    t.events.on('ended', (e) => events.push(['ended', e]));
    expect(t.phase).toBe('upcoming');
    t.start();
    expect(t.phase).toBe('running');
    vi.advanceTimersByTime(5000);
    expect(t.phase).toBe('ended');
    expect(events).toEqual([['started', { at: Date.parse('2026-03-01T00:00:00Z') }], ['ended', { at: Date.parse('2026-03-01T00:00:05Z') }]]);
    t.destroy();
  });

  it('campaign spec §4: a campaign that ends before it would start never starts', () => {
    const { t, seen } = timing({ starts_at: '2026-03-01T00:00:10Z', ends_at: '2026-03-01T00:00:05Z' });
    t.start();
    vi.advanceTimersByTime(20_000);
    expect(seen).toEqual(['ended']);
    expect(t.phase).toBe('ended');
    t.destroy();
  });

  it('teardown: stop cancels pending waits', () => {
    const { t, seen } = timing({ starts_at: '2026-03-05T00:00:00Z', ends_at: null });
    t.start();
    t.destroy();
    vi.advanceTimersByTime(10 * DAY);
    expect(seen).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
