import type { ServerContext } from '../../context.ts';
import { toBool } from '../../platform/db/columns.ts';
import { findParty } from '../parties/queries.ts';
import { compareAndSetPlayback, ensurePlayback, findPlayback, listTrackRows, voteCountsOf } from './queries.ts';
import { upcomingQueue } from './timeline.ts';
import { runPartyWrite } from '../../realtime/unitOfWork.ts';

const CAS_ATTEMPTS = 8;

/** The party's upcoming track ids, next first (see `upcomingQueue`). */
export async function currentQueue(ctx: ServerContext, partyId: string): Promise<string[]> {
  const party = await findParty(ctx.db, partyId);
  if (!party) return [];
  const [tracks, playback] = await Promise.all([listTrackRows(ctx.db, partyId), findPlayback(ctx.db, partyId)]);
  return upcomingQueue(tracks, voteCountsOf(tracks), playback, toBool(party.voting_enabled));
}

/** Votes refresh a party's queue at most once per window (like the 150 ms chat batch). */
export const VOTE_QUEUE_REFRESH_MS = 100;

interface VoteRefresh {
  lastRun: number;
  timer: NodeJS.Timeout | null;
  /** Settles when the refresh scheduled or running now has published. */
  done: Promise<void>;
}

/**
 * Per node and party (the composition root makes one per server): the last queue published, a
 * chain that runs one refresh at a time, so two refreshes never publish their answers in the wrong
 * order, the refresh waiting to start, and the vote window.
 */
export class QueueRefreshes {
  readonly published = new Map<string, string>();
  readonly chains = new Map<string, Promise<void>>();
  readonly waiting = new Map<string, { run: Promise<void>; force: boolean }>();
  readonly votes = new Map<string, VoteRefresh>();
}

/**
 * Publishes `queue_change` when the upcoming order differs from the last one this node published.
 * Call after any committed write that can change the order (votes, tracks, a track start, voting
 * switched, a forced next track). `force` publishes even when the order looks unchanged.
 */
export function refreshQueue(ctx: ServerContext, partyId: string, force = false): Promise<void> {
  // A refresh that has not started yet reads the order after this caller's committed write too:
  // join it instead of queuing another (a burst of votes costs one refresh, not one each).
  const { waiting, chains, published } = ctx.queueRefreshes;
  const queued = waiting.get(partyId);
  if (queued && (queued.force || !force)) return queued.run;
  const run = (chains.get(partyId) ?? Promise.resolve()).then(async () => {
    if (waiting.get(partyId)?.run === run) waiting.delete(partyId);
    const queue = await currentQueue(ctx, partyId);
    const key = queue.join('\n');
    if (!force && published.get(partyId) === key) return;
    published.set(partyId, key);
    // The order read above is committed already: the unit of work has no statement of its own.
    await runPartyWrite(ctx, async (w) => void w.emit(partyId, { type: 'queue_change', queue }), { singleStatement: true });
  });
  waiting.set(partyId, { run, force });
  const settled = run.catch((err: unknown) => ctx.logger.error({ err, partyId }, 'queue refresh failed'));
  chains.set(partyId, settled);
  void settled.then(() => {
    if (chains.get(partyId) === settled) chains.delete(partyId);
  });
  return run;
}

/**
 * `refreshQueue` for votes, without waiting: the first vote after a quiet window refreshes at once,
 * later ones join one refresh at the end of the window (issue 16: a burst of 2,000 votes/s cost a
 * full queue read per vote). The last order always goes out; only orders that held for less than
 * the window are skipped, as the waiting refreshes already skip them.
 */
export function refreshQueueSoon(ctx: ServerContext, partyId: string): void {
  const parties = ctx.queueRefreshes.votes;
  const state = parties.get(partyId) ?? { lastRun: -Infinity, timer: null, done: Promise.resolve() };
  parties.set(partyId, state);
  if (state.timer) return;
  let settle = () => {};
  state.done = new Promise<void>((resolve) => (settle = resolve));
  const run = () => {
    state.timer = null;
    state.lastRun = performance.now();
    // refreshQueue logs its own failures.
    void refreshQueue(ctx, partyId).then(settle, settle);
  };
  const wait = state.lastRun + VOTE_QUEUE_REFRESH_MS - performance.now();
  if (wait <= 0) return run();
  state.timer = setTimeout(run, wait);
  state.timer.unref();
}

/** Settles once the queue refresh that votes scheduled on this node has published (for tests). */
export function voteQueueRefreshed(ctx: ServerContext, partyId: string): Promise<void> {
  return ctx.queueRefreshes.votes.get(partyId)?.done ?? Promise.resolve();
}

/**
 * Makes `trackId` the next track of the party (a poll with `set_next_track` decided it), then
 * publishes the new order. Returns false, changing nothing, when the track is not an unplayed,
 * not excluded track of the party other than the current one.
 */
export async function setNextTrack(ctx: ServerContext, partyId: string, trackId: string): Promise<boolean> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const playback = await ensurePlayback(ctx.db, partyId, ctx.now());
    const track = await ctx.db
      .selectFrom('party_tracks')
      .select(['excluded', 'played'])
      .where('party_id', '=', partyId)
      .where('track_id', '=', trackId)
      .executeTakeFirst();
    if (!track || toBool(track.excluded) || toBool(track.played) || playback.track_id === trackId) return false;
    if (await compareAndSetPlayback(ctx.db, partyId, playback.version, { next_track_id: trackId })) {
      await refreshQueue(ctx, partyId);
      return true;
    }
  }
  throw new Error(`setNextTrack: party ${partyId} kept changing`);
}
