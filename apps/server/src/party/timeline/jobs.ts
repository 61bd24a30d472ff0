import type { ServerContext } from '../../context.ts';
import type { Job } from '../../platform/jobs.ts';
import { HttpError } from '../../platform/errors.ts';
import { advanceIfDue, startParty, stopParty } from './playback.ts';

/**
 * The timeline's due-time jobs for the server's scheduler: tracks that have ended, parties whose
 * `ends_at` has come, and auto-start parties whose `starts_at` has come. Every node may run them;
 * the compare-and-set on the timeline row makes each track end and each auto start happen once
 * across the cluster. Times come from `ctx.now()`, so tests can move the clock instead of waiting.
 */
export function timelineJobs(ctx: ServerContext): Job[] {
  return [trackEnds(ctx), partyEnds(ctx), autoStarts(ctx)];
}

/** A playing track's end: the next track starts at that exact time (or the timeline pauses). */
function trackEnds(ctx: ServerContext): Job {
  const playing = () => ctx.db.selectFrom('party_playback').where('is_paused', '=', 0).where('track_ends_at', 'is not', null);
  return {
    name: 'track ends',
    readsTables: ['party_playback'],
    async runDue(now) {
      const ended = await playing().select('party_id').where('track_ends_at', '<=', now).execute();
      for (const { party_id } of ended) await advanceIfDue(ctx, party_id);
    },
    async nextDue() {
      const row = await playing()
        .select((eb) => eb.fn.min<number | string | null>('track_ends_at').as('due'))
        .executeTakeFirst();
      return row?.due == null ? null : Number(row.due);
    },
  };
}

/** A party whose end time has come stops playing (the apps show End). */
function partyEnds(ctx: ServerContext): Job {
  const playing = () =>
    ctx.db
      .selectFrom('party_playback')
      .innerJoin('parties', 'parties.id', 'party_playback.party_id')
      .where('party_playback.is_paused', '=', 0)
      .where('parties.ends_at', 'is not', null);
  return {
    name: 'party ends',
    readsTables: ['party_playback', 'parties'],
    async runDue(now) {
      const over = await playing().select('party_playback.party_id').where('parties.ends_at', '<=', now).execute();
      for (const { party_id } of over) await stopParty(ctx, party_id);
    },
    async nextDue() {
      const row = await playing()
        .select((eb) => eb.fn.min<number | string | null>('parties.ends_at').as('due'))
        .executeTakeFirst();
      return row?.due == null ? null : Number(row.due);
    },
  };
}

/** An `auto_start` party starts at `starts_at` (once: `startParty` claims the timeline row). */
function autoStarts(ctx: ServerContext): Job {
  const waiting = (now: number) =>
    ctx.db
      .selectFrom('parties')
      .where('auto_start', '=', 1)
      .where('started_at', 'is', null)
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
      // Only parties with something to play: others would fail every run.
      .where((eb) =>
        eb.exists(eb.selectFrom('party_tracks').select('party_tracks.track_id').whereRef('party_tracks.party_id', '=', 'parties.id').where('party_tracks.excluded', '=', 0)),
      );
  return {
    name: 'auto starts',
    readsTables: ['parties', 'party_tracks'],
    async runDue(now) {
      const due = await waiting(now).select('id').where('starts_at', '<=', now).execute();
      for (const { id } of due) {
        try {
          await startParty(ctx, id);
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          ctx.logger.warn({ partyId: id, detail: err.detail }, 'auto start refused');
        }
      }
    },
    async nextDue() {
      const row = await waiting(ctx.now())
        .select((eb) => eb.fn.min<number | string | null>('starts_at').as('due'))
        .executeTakeFirst();
      return row?.due == null ? null : Number(row.due);
    },
  };
}
