import { useEffect, useState } from 'react';
import { useParty } from '../app/context.tsx';

/** How often a running wait is redrawn. */
const TICK_MS = 1000;

/**
 * The server's clock (this device's clock plus the measured offset), redrawn every second until
 * `untilServerMs` has passed; no timer runs once it has, or without an end.
 */
export function useServerNow(untilServerMs: number | null): number {
  const offset = useParty((s) => s.clockOffsetMs);
  const [clientNow, setClientNow] = useState(() => Date.now());
  const serverNow = clientNow + offset;
  const running = untilServerMs !== null && serverNow < untilServerMs;
  useEffect(() => {
    if (!running) return;
    const tick = () => setClientNow(Date.now());
    // At once too: a new end (a post just sent) is measured from now, not from the last redraw.
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, TICK_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [running, untilServerMs]);
  return serverNow;
}
