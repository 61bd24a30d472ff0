import { describe, expect, it } from 'vitest';
import { CHAT_SLOW_MODE_ERROR } from '@fanfare/protocol';
import { lastOwnPostMs, slowModeRefusal, slowModeSecondsFor, slowModeWaitMs, waitSeconds } from './slowMode.ts';
import { scoreboardRemainingMs } from './chat.ts';

describe('slow mode as fans see it (frontend.chatSlowModeSeconds, 429 ChatSlowMode)', () => {
  it('applies the party\'s interval to listeners; hosts and admins are exempt, as at the server', () => {
    expect(slowModeSecondsFor({ chatSlowModeSeconds: 30 }, 'listener')).toBe(30);
    expect(slowModeSecondsFor({ chatSlowModeSeconds: 30 }, 'host')).toBe(0);
    expect(slowModeSecondsFor({ chatSlowModeSeconds: 30 }, 'admin')).toBe(0);
    expect(slowModeSecondsFor({ chatSlowModeSeconds: 0 }, 'listener')).toBe(0);
    expect(slowModeSecondsFor({}, 'listener')).toBe(0);
    expect(slowModeSecondsFor(undefined, 'listener')).toBe(0);
  });
  it('counts the wait from the fan\'s newest own message on the server\'s clock', () => {
    expect(slowModeWaitMs(30, 100_000, 110_000)).toBe(20_000);
    expect(slowModeWaitMs(30, 100_000, 130_000)).toBe(0);
    expect(slowModeWaitMs(30, null, 110_000)).toBe(0);
    expect(slowModeWaitMs(0, 100_000, 100_001)).toBe(0);
  });
  it('finds the fan\'s newest own message', () => {
    const msgs = [
      { timestamp_ms: 1, sender: { id: 'me' } },
      { timestamp_ms: 2, sender: { id: 'other' } },
      { timestamp_ms: 3, sender: { id: 'me' } },
      { timestamp_ms: 4, sender: null },
    ];
    expect(lastOwnPostMs(msgs, 'me')).toBe(3);
    expect(lastOwnPostMs(msgs, 'nobody')).toBeNull();
    expect(lastOwnPostMs(msgs, null)).toBeNull();
  });
  it('reads the server\'s refusal (its message and retry_after_ms), and nothing else', () => {
    const body = { detail: { type: CHAT_SLOW_MODE_ERROR, message: 'Slow mode: one message per 30 s. Try again in 12 s.', retry_after_ms: 11_500 } };
    expect(slowModeRefusal(body)).toEqual({ message: 'Slow mode: one message per 30 s. Try again in 12 s.', retryAfterMs: 11_500 });
    expect(slowModeRefusal({ detail: { type: 'ChatRateLimit', message: 'x', retry_after_ms: 5 } })).toBeNull();
    expect(slowModeRefusal({ detail: 'too many' })).toBeNull();
    expect(slowModeRefusal(null)).toBeNull();
    expect(slowModeRefusal({ detail: { type: CHAT_SLOW_MODE_ERROR, retry_after_ms: -3 } })).toEqual({ message: '', retryAfterMs: 0 });
  });
  it('shows whole seconds, rounded up', () => {
    expect(waitSeconds(11_001)).toBe(12);
    expect(waitSeconds(12_000)).toBe(12);
    expect(waitSeconds(1)).toBe(1);
    expect(waitSeconds(0)).toBe(0);
  });
});

describe('quiz scoreboard closes_at_ms (the scoreboard honours duration_seconds)', () => {
  it('has time left until closes_at_ms, none after; without closes_at_ms it stays', () => {
    expect(scoreboardRemainingMs({ closes_at_ms: 50_000 }, 40_000)).toBe(10_000);
    expect(scoreboardRemainingMs({ closes_at_ms: 50_000 }, 50_000)).toBe(0);
    expect(scoreboardRemainingMs({ closes_at_ms: 50_000 }, 60_000)).toBe(0);
    expect(scoreboardRemainingMs({}, 60_000)).toBeNull();
  });
});

describe('slow mode: values that are not a usable interval or refusal', () => {
  it('an interval that is negative or not finite is off', () => {
    expect(slowModeSecondsFor({ chatSlowModeSeconds: -5 }, 'listener')).toBe(0);
    expect(slowModeSecondsFor({ chatSlowModeSeconds: Number.POSITIVE_INFINITY }, 'listener')).toBe(0);
    expect(slowModeSecondsFor({ chatSlowModeSeconds: Number.NaN }, null)).toBe(0);
    expect(slowModeSecondsFor({ chatSlowModeSeconds: 0.5 }, undefined)).toBe(0.5);
    expect(slowModeWaitMs(-1, 100_000, 100_001)).toBe(0);
    expect(slowModeWaitMs(1, 100_000, 100_000)).toBe(1000);
  });
  it('a refusal detail that is a list, a non-number or infinite wait, or a long message', () => {
    expect(slowModeRefusal({ detail: [CHAT_SLOW_MODE_ERROR] })).toBeNull();
    expect(slowModeRefusal({ detail: null })).toBeNull();
    expect(slowModeRefusal('429')).toBeNull();
    expect(slowModeRefusal({ detail: { type: CHAT_SLOW_MODE_ERROR, message: 5, retry_after_ms: '9' } })).toEqual({ message: '', retryAfterMs: 0 });
    expect(slowModeRefusal({ detail: { type: CHAT_SLOW_MODE_ERROR, retry_after_ms: Number.POSITIVE_INFINITY } })?.retryAfterMs).toBe(0);
    expect(slowModeRefusal({ detail: { type: CHAT_SLOW_MODE_ERROR, retry_after_ms: 0 } })?.retryAfterMs).toBe(0);
    expect(slowModeRefusal({ detail: { type: CHAT_SLOW_MODE_ERROR, message: 'm'.repeat(400) } })?.message).toBe('m'.repeat(300));
  });
  it('a negative wait shows as 0 s; no user has no own message', () => {
    expect(waitSeconds(-2500)).toBe(0);
    expect(lastOwnPostMs([{ timestamp_ms: 1, sender: { id: '' } }], '')).toBeNull();
    expect(lastOwnPostMs([], 'me')).toBeNull();
  });
});

describe('slow mode: the wait at the edges', () => {
  it('no interval or no own message means no wait, even when the clocks disagree', () => {
    expect(slowModeWaitMs(30, null, 0)).toBe(0);
    expect(slowModeWaitMs(0, 200_000, 100_000)).toBe(0);
    expect(slowModeWaitMs(-10, 200_000, 100_000)).toBe(0);
  });
  it("the fan's only own message may be the first of the list", () => {
    expect(lastOwnPostMs([{ timestamp_ms: 7, sender: { id: 'me' } }, { timestamp_ms: 8, sender: { id: 'x' } }], 'me')).toBe(7);
  });
});
