import { useEffect, useState } from 'react';

/** The time, refreshed every `everyMs` (states such as "live" or "ended" follow the clock). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
