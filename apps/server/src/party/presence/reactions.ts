import {
  REACTION_BURST,
  REACTION_MIN_INTERVAL_MS,
  REACTION_RATE_LIMITED_ERROR,
  REACTIONS_WINDOW_MS,
  type Reaction,
  type ReactionsEvent,
} from '@fanfare/protocol';
import { HttpError } from '../../platform/errors.ts';

/** Sends one aggregated `reactions` event to a party's fans. */
export type ReactionsSink = (partyId: string, event: ReactionsEvent) => void;

/** A fan's bucket is forgotten once it has been full this long (it would be full again anyway). */
const BUCKET_TTL_MS = 60_000;

interface PartyWindow {
  trackId: string | null;
  counts: Partial<Record<Reaction, number>>;
}

/** A fan's token bucket: `tokens` reactions left at time `at` (refills one per interval). */
interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Quick reactions, aggregated by the server. Taps are free at a fan's natural pace: each fan has a
 * token bucket of `REACTION_BURST` reactions refilled one per `REACTION_MIN_INTERVAL_MS` (10 per
 * second sustained), and only a client beyond that (a script, not a thumb) gets 429 with
 * `Retry-After`. The reactions of a party are summed per `REACTIONS_WINDOW_MS` and sent as one
 * `reactions` event, so 10,000 fans reacting at once make one frame per second per fan, not 10,000.
 * Counts live in memory on the node that took them.
 */
export class ReactionAggregator {
  private readonly windows = new Map<string, PartyWindow>();
  /** Token bucket per `${partyId}\n${fanId}` (the abuse limit). */
  private readonly buckets = new Map<string, Bucket>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly sink: ReactionsSink,
    private readonly now: () => number,
    windowMs = REACTIONS_WINDOW_MS,
    private readonly limit = { burst: REACTION_BURST, intervalMs: REACTION_MIN_INTERVAL_MS },
  ) {
    this.timer = setInterval(() => this.flush(), windowMs);
    this.timer.unref();
  }

  /** Counts a fan's reaction on the current track, or throws 429 (with `Retry-After`) beyond the abuse limit. */
  record(partyId: string, fanId: string, reaction: Reaction, trackId: string | null): void {
    const now = this.now();
    const key = `${partyId}\n${fanId}`;
    const { burst, intervalMs } = this.limit;
    const bucket = this.buckets.get(key) ?? { tokens: burst, at: now };
    const tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) / intervalMs);
    // Guards the party's fan-out against a scripted flood from one fan: beyond the burst, one per interval.
    if (tokens < 1) {
      const retryAfterMs = Math.ceil((1 - tokens) * intervalMs);
      throw new HttpError(
        429,
        {
          message: `Too many reactions. Try again in ${Math.ceil(retryAfterMs / 1000)} s.`,
          type: REACTION_RATE_LIMITED_ERROR,
          retry_after_ms: retryAfterMs,
        },
        { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
      );
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
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
    const cutoff = this.now() - BUCKET_TTL_MS;
    for (const [key, bucket] of this.buckets) if (bucket.at < cutoff) this.buckets.delete(key);
  }

  private send(partyId: string, window: PartyWindow): void {
    if (Object.keys(window.counts).length === 0) return;
    this.sink(partyId, { type: 'reactions', track_id: window.trackId, counts: window.counts });
  }

  close(): void {
    clearInterval(this.timer);
    this.windows.clear();
    this.buckets.clear();
  }
}
