import { CHAT_SLOW_MODE_ERROR, type FrontendSettings, type Role } from '@fanfare/protocol';

/**
 * The party's slow mode as it applies to this fan (issue 10): `frontend.chatSlowModeSeconds`, one
 * message per that many seconds; hosts and admins are exempt, as at the server. 0: off.
 */
export function slowModeSecondsFor(frontend: Pick<FrontendSettings, 'chatSlowModeSeconds'> | undefined, role: Role | null | undefined): number {
  if (role === 'host' || role === 'admin') return 0;
  const seconds = frontend?.chatSlowModeSeconds ?? 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

/**
 * How long this fan still waits before the next post, in ms (0: may post now): the fan's newest
 * own message (server time) plus the interval, against the server's clock.
 */
export function slowModeWaitMs(seconds: number, lastOwnPostServerMs: number | null, serverNowMs: number): number {
  if (seconds <= 0 || lastOwnPostServerMs === null) return 0;
  return Math.max(0, lastOwnPostServerMs + seconds * 1000 - serverNowMs);
}

/** The server's refusal of a post in slow mode (429 `detail.type` `ChatSlowMode`): its words and the wait it names. */
export interface SlowModeRefusal {
  message: string;
  retryAfterMs: number;
}

/** Reads a 429 answer's body as a slow-mode refusal; null for any other answer (e.g. the per-fan rate limit). */
export function slowModeRefusal(body: unknown): SlowModeRefusal | null {
  if (typeof body !== 'object' || body === null) return null;
  const detail = (body as { detail?: unknown }).detail;
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) return null;
  const d = detail as { type?: unknown; message?: unknown; retry_after_ms?: unknown };
  if (d.type !== CHAT_SLOW_MODE_ERROR) return null;
  const retryAfterMs = typeof d.retry_after_ms === 'number' && Number.isFinite(d.retry_after_ms) && d.retry_after_ms >= 0 ? d.retry_after_ms : 0;
  return { message: typeof d.message === 'string' ? d.message.slice(0, 300) : '', retryAfterMs };
}

/** Whole seconds shown for a wait (rounded up, so "0 s" never shows while still waiting). */
export function waitSeconds(ms: number): number {
  return Math.ceil(Math.max(0, ms) / 1000);
}

/** Server time of this fan's newest own message in the list, or null. */
export function lastOwnPostMs(messages: readonly { timestamp_ms: number; sender?: { id: string } | null }[], userId: string | null | undefined): number | null {
  if (!userId) return null;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.sender?.id === userId) return m.timestamp_ms;
  }
  return null;
}
