/** What is left until a moment, split for display. */
export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** Nothing left. */
  isDone: boolean;
}

/** The time left from `now` until `at` (ms since the epoch), never negative. */
export function remainingUntil(at: number, now: number): Remaining {
  const total = Math.max(0, Math.floor((at - now) / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
    isDone: total === 0,
  };
}
