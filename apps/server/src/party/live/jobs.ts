import type { ServerContext } from '../../context.ts';
import { HttpError } from '../../platform/errors.ts';
import { advanceIfDue, startParty, stopParty } from './playback.ts';

/**
 * The timeline's timers: every `tickMs` each node looks in the database for tracks that have ended,
 * parties whose `ends_at` has come, and auto-start parties whose `starts_at` has come, and acts on
 * them. Every node may look;
 * the compare-and-set on the timeline row makes each track end and each auto start happen once
 * across the cluster. Times come from `ctx.now()`, so tests can move the clock instead of waiting.
 */
export function startTimelineScheduler(ctx: ServerContext, tickMs: number): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = async () => {
    const now = ctx.now();
    const ended = await ctx.db
      .selectFrom('party_playback')
      .select('party_id')
      .where('is_paused', '=', 0)
      .where('track_ends_at', '<=', now)
      .execute();
    for (const { party_id } of ended) await advanceIfDue(ctx, party_id);

    // A party whose end time has come stops playing (the apps show End).
    const over = await ctx.db
      .selectFrom('party_playback')
      .innerJoin('parties', 'parties.id', 'party_playback.party_id')
      .select('party_playback.party_id')
      .where('party_playback.is_paused', '=', 0)
      .where('parties.ends_at', '<=', now)
      .execute();
    for (const { party_id } of over) await stopParty(ctx, party_id);

    const due = await ctx.db
      .selectFrom('parties')
      .select('id')
      .where('auto_start', '=', 1)
      .where('started_at', 'is', null)
      .where('starts_at', '<=', now)
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
      // Only parties with something to play: others would fail every tick.
      .where((eb) =>
        eb.exists(eb.selectFrom('party_tracks').select('party_tracks.track_id').whereRef('party_tracks.party_id', '=', 'parties.id').where('party_tracks.excluded', '=', 0)),
      )
      .execute();
    for (const { id } of due) {
      try {
        await startParty(ctx, id);
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        ctx.logger.warn({ partyId: id, detail: err.detail }, 'auto start refused');
      }
    }
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = tick()
      .catch((err: unknown) => ctx.logger.error({ err }, 'timeline tick failed'))
      .finally(() => {
        running = null;
      });
  }, tickMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
