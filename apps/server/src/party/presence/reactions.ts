import {
  REACTION_MIN_INTERVAL_MS,
  REACTION_RATE_LIMITED_ERROR,
  REACTIONS_WINDOW_MS,
  type Reaction,
  type ReactionsEvent,
} from '@fanfare/protocol';
import { HttpError } from '../../platform/errors.ts';

/** Sends one aggregated `reactions` event to a party's fans. */
export type ReactionsSink = (partyId: string, event: ReactionsEvent) => void;

/** Fans' last reaction times are forgotten after this (they may react again anyway). */
const LAST_REACTION_TTL_MS = 60_000;

interface PartyWindow {
  trackId: string | null;
  counts: Partial<Record<Reaction, number>>;
}

/**
 * Quick reactions (issue 15), aggregated by the server: each fan may react once per
 * `REACTION_MIN_INTERVAL_MS` (429 with the wait otherwise); the reactions of a party are summed per
 * `REACTIONS_WINDOW_MS` and sent as one `reactions` event, so 10,000 fans reacting at once make
 * one frame per second per fan, not 10,000. Counts live in memory on the node that took them.
 */
export class ReactionAggregator {
  private readonly windows = new Map<string, PartyWindow>();
  /** Last reaction time per `${partyId}\n${fanId}` (the rate limit). */
  private readonly lastByFan = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly sink: ReactionsSink,
    private readonly now: () => number,
    windowMs = REACTIONS_WINDOW_MS,
  ) {
    this.timer = setInterval(() => this.flush(), windowMs);
    this.timer.unref();
  }

  /** Counts a fan's reaction on the current track, or throws 429 when it came too soon. */
  record(partyId: string, fanId: string, reaction: Reaction, trackId: string | null): void {
    const now = this.now();
    const key = `${partyId}\n${fanId}`;
    const last = this.lastByFan.get(key);
    if (last !== undefined && now - last < REACTION_MIN_INTERVAL_MS) {
      const retryAfterMs = REACTION_MIN_INTERVAL_MS - (now - last);
      throw new HttpError(429, {
        message: `One reaction per ${REACTION_MIN_INTERVAL_MS / 1000} s. Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
        type: REACTION_RATE_LIMITED_ERROR,
        retry_after_ms: retryAfterMs,
      });
    }
    this.lastByFan.set(key, now);
    let window = this.windows.get(partyId);
    // A new track starts a new window: reactions belong to the track they were sent on.
    if (window && window.trackId !== trackId) {
      this.send(partyId, window);
      window = undefined;
    }
    if (!window) {
      window = { trackId, counts: {} };
      this.windows.set(partyId, window);
    }
    window.counts[reaction] = (window.counts[reaction] ?? 0) + 1;
  }

  /** Sends every party's window and starts new ones (called by the timer; tests call it). */
  flush(): void {
    const windows = [...this.windows];
    this.windows.clear();
    for (const [partyId, window] of windows) this.send(partyId, window);
    const cutoff = this.now() - LAST_REACTION_TTL_MS;
    for (const [key, at] of this.lastByFan) if (at < cutoff) this.lastByFan.delete(key);
  }

  private send(partyId: string, window: PartyWindow): void {
    if (Object.keys(window.counts).length === 0) return;
    this.sink(partyId, { type: 'reactions', track_id: window.trackId, counts: window.counts });
  }

  close(): void {
    clearInterval(this.timer);
    this.windows.clear();
    this.lastByFan.clear();
  }
}
