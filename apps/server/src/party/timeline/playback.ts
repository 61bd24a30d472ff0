import type { PartyRunState, PlayerStatus } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { toBool } from '../../platform/db/columns.ts';
import type { Db } from '../../platform/db/database.ts';
import { conflict } from '../../platform/errors.ts';
import { findParty, requireParty, requirePartyCached } from '../parties/queries.ts';
import { iso, partyChangedEvent, playStateOf } from '../parties/service.ts';
import { compareAndSetPlayback, ensurePlayback, findPlayback, findTrackRow, listTrackRows, voteCountsOf, type PlaybackRow } from './queries.ts';
import { refreshQueue } from './queue.ts';
import { progressAt, statusAt, upcomingQueue } from './timeline.ts';
import { runPartyWrite, type PartyWrite } from '../../realtime/unitOfWork.ts';

const CAS_ATTEMPTS = 8;

/** The playback status at server time now; null while the party has not been started. */
export async function currentStatus(ctx: ServerContext, partyId: string): Promise<PlayerStatus | null> {
  // Through the read caches: a storm's thousands of resyncs ask it at once (issue 41).
  const party = await requirePartyCached(ctx.db, partyId);
  if (party.started_at == null) return null;
  const { playback, track } = await playStateOf(ctx, partyId);
  return statusAt(playback, track, ctx.now());
}

/** The playback status at `now` as `db` sees it (inside a write: what it is about to commit). */
async function statusIn(db: Db, partyId: string, now: number): Promise<PlayerStatus | null> {
  const party = await requireParty(db, partyId);
  if (party.started_at == null) return null;
  const playback = await findPlayback(db, partyId);
  const track = playback?.track_id ? await findTrackRow(db, partyId, playback.track_id) : null;
  return statusAt(playback, track, now);
}

/**
 * Starts the party: resumes a paused track, or starts the first track of the queue. Publishes
 * `party_started` (and `track_change` when a track starts, then the new queue). Starting a running
 * party changes nothing. The timeline row is changed by compare-and-set, so a manual start racing
 * the auto start (or two nodes' auto starts) starts the party once.
 */
export async function startParty(ctx: ServerContext, partyId: string): Promise<PartyRunState> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const party = await requireParty(ctx.db, partyId);
    const now = ctx.now();
    if (party.ends_at != null && Number(party.ends_at) <= now) throw conflict('The party has ended');
    const playback = await ensurePlayback(ctx.db, partyId, now);
    const current = playback.track_id ? await findTrackRow(ctx.db, partyId, playback.track_id) : null;
    // A running timeline is a started party, even when the party row read above predates the
    // start: a racing start (another node's auto start) committed between the two reads.
    if (current && !toBool(playback.is_paused)) return runState(ctx, partyId);

    const progress = current ? progressAt(playback, Number(current.duration_ms), now) : 0;
    if (current && progress < Number(current.duration_ms)) {
      // Resume the paused track where it stopped.
      const ok = await runPartyWrite(ctx, async (w) => {
        const won = await compareAndSetPlayback(w.db, partyId, playback.version, {
          progress_ms: progress,
          timestamp_ms: now,
          is_paused: 0,
          track_ends_at: now + Number(current.duration_ms) - progress,
        });
        if (!won) return false;
        await w.db.updateTable('parties').set({ started_at: now }).where('id', '=', partyId).execute();
        w.emit(partyId, { type: 'party_started', status: (await statusIn(w.db, partyId, now))!, started_at: iso(now) });
        return true;
      });
      if (!ok) continue;
      return runState(ctx, partyId);
    }

    const tracks = await listTrackRows(ctx.db, partyId);
    const votes = voteCountsOf(tracks);
    const nextId = upcomingQueue(tracks, votes, playback, toBool(party.voting_enabled))[0];
    if (!nextId) throw conflict(tracks.length === 0 ? 'The party has no tracks' : 'Every track has been played');
    const next = tracks.find((t) => t.track_id === nextId)!;
    const won = await runPartyWrite(ctx, async (w) => {
      const ok = await compareAndSetPlayback(w.db, partyId, playback.version, {
        track_id: nextId,
        progress_ms: 0,
        timestamp_ms: now,
        is_paused: 0,
        track_ends_at: now + Number(next.duration_ms),
        next_track_id: null,
      });
      if (!ok) return false;
      await w.db.updateTable('party_tracks').set({ played: 1 }).where('party_id', '=', partyId).where('track_id', '=', nextId).execute();
      await w.db.updateTable('parties').set({ started_at: now }).where('id', '=', partyId).execute();
      const status = (await statusIn(w.db, partyId, now))!;
      w.emit(partyId, { type: 'party_started', status, started_at: iso(now) });
      w.emit(partyId, { type: 'track_change', status });
      return true;
    });
    if (!won) continue;
    await refreshQueue(ctx, partyId);
    return runState(ctx, partyId);
  }
  throw conflict('The party timeline kept changing; try again');
}

/** Stops (pauses) the timeline where it is and publishes `party_stopped`; a paused party stays as it is. */
export async function stopParty(ctx: ServerContext, partyId: string): Promise<PartyRunState> {
  await requireParty(ctx.db, partyId);
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    if (await runPartyWrite(ctx, (w) => pauseWithin(w, ctx, partyId, ctx.now()))) return runState(ctx, partyId);
  }
  throw conflict('The party timeline kept changing; try again');
}

/**
 * Ends the party now, as one write: pauses the timeline, sets `ends_at`, and publishes
 * `party_stopped` (when it was playing), `party_ended` and `party_changed` after the commit.
 */
export async function endParty(ctx: ServerContext, partyId: string): Promise<{ ends_at: string }> {
  await requireParty(ctx.db, partyId);
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const now = ctx.now();
    const ended = await runPartyWrite(ctx, async (w) => {
      if (!(await pauseWithin(w, ctx, partyId, now))) return false;
      await w.db.updateTable('parties').set({ ends_at: now, updated_at: now }).where('id', '=', partyId).execute();
      const party = await requireParty(w.db, partyId);
      w.emit(partyId, { type: 'party_ended', ends_at: iso(now) });
      w.emit(partyId, partyChangedEvent(party));
      return true;
    });
    if (ended) return { ends_at: iso(now) };
  }
  throw conflict('The party timeline kept changing; try again');
}

/**
 * Pauses a playing timeline inside a write (compare-and-set) and queues `party_stopped`. True when
 * the timeline is paused now (or had nothing to pause); false when another write changed it first.
 */
async function pauseWithin(w: PartyWrite, ctx: ServerContext, partyId: string, now: number): Promise<boolean> {
  const playback = await findPlayback(w.db, partyId);
  if (!playback || toBool(playback.is_paused) || !playback.track_id) return true;
  const track = await findTrackRow(w.db, partyId, playback.track_id);
  const progress = track ? progressAt(playback, Number(track.duration_ms), now) : 0;
  const patch = { progress_ms: progress, timestamp_ms: now, is_paused: 1, track_ends_at: null };
  if (!(await compareAndSetPlayback(w.db, partyId, playback.version, patch))) return false;
  w.emit(partyId, { type: 'party_stopped', status: statusAt({ ...playback, ...patch }, track, now) });
  return true;
}

/**
 * Advances a party whose current track has ended: the next track of the queue starts at the exact
 * end time of the previous one (so a late timer does not shift the timeline), or, with nothing
 * left, the timeline pauses at the end. Of several nodes calling this for the same end, one wins
 * the compare-and-set and publishes; the others find nothing due.
 */
export async function advanceIfDue(ctx: ServerContext, partyId: string): Promise<boolean> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const now = ctx.now();
    const playback: PlaybackRow | null = await findPlayback(ctx.db, partyId);
    if (!playback || toBool(playback.is_paused) || playback.track_ends_at == null || Number(playback.track_ends_at) > now) return false;
    const party = await findParty(ctx.db, partyId);
    if (!party) return false;
    const endedAt = Number(playback.track_ends_at);
    const tracks = await listTrackRows(ctx.db, partyId);
    const votes = voteCountsOf(tracks);
    const nextId = upcomingQueue(tracks, votes, playback, toBool(party.voting_enabled))[0];
    const next = nextId ? tracks.find((t) => t.track_id === nextId) : undefined;
    if (!next) {
      const current = tracks.find((t) => t.track_id === playback.track_id);
      const ok = await runPartyWrite(ctx, async (w) => {
        const won = await compareAndSetPlayback(w.db, partyId, playback.version, {
          progress_ms: current ? Number(current.duration_ms) : 0,
          timestamp_ms: endedAt,
          is_paused: 1,
          track_ends_at: null,
        });
        if (won) w.emit(partyId, { type: 'party_stopped', status: await statusIn(w.db, partyId, now) });
        return won;
      });
      if (!ok) continue;
      return true;
    }
    const won = await runPartyWrite(ctx, async (w) => {
      const ok = await compareAndSetPlayback(w.db, partyId, playback.version, {
        track_id: next.track_id,
        progress_ms: 0,
        timestamp_ms: endedAt,
        is_paused: 0,
        track_ends_at: endedAt + Number(next.duration_ms),
        next_track_id: null,
      });
      if (!ok) return false;
      await w.db.updateTable('party_tracks').set({ played: 1 }).where('party_id', '=', partyId).where('track_id', '=', next.track_id).execute();
      const status = await statusIn(w.db, partyId, now);
      if (status) w.emit(partyId, { type: 'track_change', status });
      return true;
    });
    if (!won) continue;
    await refreshQueue(ctx, partyId);
    return true;
  }
  return false;
}

async function runState(ctx: ServerContext, partyId: string): Promise<PartyRunState> {
  const party = await requireParty(ctx.db, partyId);
  return { status: await currentStatus(ctx, partyId), started_at: party.started_at == null ? null : iso(Number(party.started_at)) };
}
