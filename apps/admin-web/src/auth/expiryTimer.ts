/** How long before the session ends the editor is warned ("stay signed in"). */
export const EXPIRY_WARNING_MS = 2 * 60_000;
// setTimeout fires at once beyond 2^31-1 ms (about 24.8 days): longer waits are chained.
const MAX_TIMEOUT_MS = 2_147_483_647;

export interface ExpiryTimerOptions {
  /** When the session ends (epoch ms). */
  expiresAt: number;
  now?: () => number;
  warnBeforeMs?: number;
  /** A couple of minutes before the end (at once when less is left): offer to stay signed in. */
  onWarn: (msLeft: number) => void;
  /** The session ended. */
  onExpire: () => void;
}

/**
 * Schedules the warning and the end of a session; returns a cancel function (called when the
 * session is refreshed, signed out or replaced, so a stale timer never fires).
 */
export function scheduleSessionExpiry(opts: ExpiryTimerOptions): () => void {
  const now = opts.now ?? Date.now;
  const warnBefore = opts.warnBeforeMs ?? EXPIRY_WARNING_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;

  const at = (when: number, run: () => void) => {
    const wait = when - now();
    if (wait <= 0) return run();
    timer = setTimeout(() => (cancelled ? undefined : at(when, run)), Math.min(wait, MAX_TIMEOUT_MS));
  };
  const expire = () => at(opts.expiresAt, opts.onExpire);

  if (opts.expiresAt <= now()) {
    opts.onExpire();
  } else {
    at(opts.expiresAt - warnBefore, () => {
      if (cancelled) return;
      opts.onWarn(Math.max(0, opts.expiresAt - now()));
      expire();
    });
  }
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
