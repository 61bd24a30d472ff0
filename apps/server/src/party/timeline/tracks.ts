import type { MusicOptions, PartyTracksResponse, PutTracksBody, Track, VoteResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import { parseJson, toBool } from '../../platform/db/columns.ts';
import type { Db } from '../../platform/db/database.ts';
import { queryOf } from '../../platform/db/queryOf.ts';
import { badGateway, conflict, notFound } from '../../platform/errors.ts';
import type { DemoCatalog, CatalogTrack } from '../../providers/catalog/catalog.ts';
import { ProviderError } from '../../providers/http.ts';
import type { Fan } from '../auth/sessions.ts';
import { requireParty, requirePartyCached } from '../parties/queries.ts';
import { findPlayback, findTrackRow, listTrackRows, toTrack, storedVoteCount, voteCountsOf, type TrackRow } from './queries.ts';
import { refreshQueue, refreshQueueSoon } from './queue.ts';
import { runPartyWrite } from '../../realtime/unitOfWork.ts';

/** The umg_hls stream of a demo-catalog track, served from the committed HLS folder. */
export function hlsUrlOf(ctx: ServerContext, t: CatalogTrack): string {
  return `${ctx.config.publicUrl}/media/catalog/audio/${encodeURIComponent(t.audio)}/index.m3u8`;
}

/** The demo-catalog entry of a provider track, if the label's catalog has it. */
function catalogTrackOf(catalog: DemoCatalog, track: Track): CatalogTrack | undefined {
  return catalog.trackBySpotifyId(track.id) ?? catalog.trackByAppleId(track.id) ?? catalog.tracks.find((t) => t.key === track.id);
}

/** Demo-catalog tracks as wire tracks of `service`, each with its umg_hls stream. */
export function catalogTracks(ctx: ServerContext, tracks: CatalogTrack[], service: Track['service']): Track[] {
  const { catalog } = ctx;
  return tracks.map((t) => {
    const album = catalog.albumByKey(t.album_key);
    return {
      id: service === 'apple' ? t.apple_id : t.spotify_id,
      name: t.name,
      artists: t.artist_keys.map((k) => catalog.artistByKey(k).name),
      album: album.name,
      duration_ms: t.duration_ms,
      image: `${ctx.config.publicUrl}/media/catalog/${album.image}`,
      service,
      hls_url: hlsUrlOf(ctx, t),
    };
  });
}

/** An album or playlist of the demo catalog as tracks of the internal umg_hls service. */
function umgTracks(ctx: ServerContext, type: 'album' | 'playlist', id: string): Track[] {
  const { catalog } = ctx;
  if (type === 'album') {
    const album = catalog.albumBySpotifyId(id) ?? catalog.albumByAppleId(id) ?? catalog.albums.find((a) => a.key === id);
    if (!album) throw notFound(`No album ${id} in the label's catalog`);
    return catalogTracks(ctx, catalog.albumTracks(album), 'umg_hls');
  }
  const playlist = catalog.playlistBySpotifyId(id) ?? catalog.playlistByAppleId(id) ?? catalog.playlists.find((p) => p.key === id);
  if (!playlist) throw notFound(`No playlist ${id} in the label's catalog`);
  return catalogTracks(ctx, catalog.playlistTracks(playlist), 'umg_hls');
}

/** Loads an album or playlist through the provider adapter of its service. */
async function fetchTracks(ctx: ServerContext, body: PutTracksBody): Promise<Track[]> {
  if (body.service === 'umg_hls') return umgTracks(ctx, body.type, body.id);
  try {
    if (body.service === 'spotify') {
      const market = body.country.toUpperCase();
      return body.type === 'album'
        ? (await ctx.providers.spotify.album(body.id, market)).tracks
        : (await ctx.providers.spotify.playlist(body.id, market)).tracks;
    }
    return body.type === 'album'
      ? (await ctx.providers.apple.album(body.country, body.id)).tracks
      : (await ctx.providers.apple.playlist(body.country, body.id)).tracks;
  } catch (e) {
    if (e instanceof ProviderError && e.status === 404) throw notFound(`${body.service} has no ${body.type} ${body.id}`);
    if (e instanceof ProviderError) throw badGateway(`${body.service} lookup failed (${e.status})`);
    throw e;
  }
}

/**
 * Sets the album or playlist a party plays (CMS): loads it through the provider, stores its tracks
 * in order (each demo-catalog track with its umg_hls stream), keeps the votes and played flags of
 * tracks that stay, and publishes the new upcoming order.
 */
export async function putTracks(ctx: ServerContext, partyId: string, body: PutTracksBody): Promise<PartyTracksResponse> {
  await requireParty(ctx.db, partyId);
  const tracks = dedupe(await fetchTracks(ctx, body));
  const music: MusicOptions = { type: body.type, id: body.id, service: body.service, country: body.country, url: musicUrl(body) };
  await storeTracks(ctx, partyId, tracks, music, body.excluded ?? []);
  await refreshQueue(ctx, partyId);
  return getTracks(ctx, partyId);
}

/** Writes a party's track list and music options (also used by the demo seed). */
export async function storeTracks(ctx: ServerContext, partyId: string, tracks: Track[], music: MusicOptions, excluded: string[]): Promise<void> {
  const excludedSet = new Set(excluded);
  const playback = await findPlayback(ctx.db, partyId);
  await ctx.db.transaction().execute(async (trx) => {
    const existing = new Map(
      (await trx.selectFrom('party_tracks').select(['track_id', 'played']).where('party_id', '=', partyId).execute()).map((r) => [
        r.track_id,
        r.played,
      ]),
    );
    const keep = new Set(tracks.map((t) => t.id));
    // The playing track stays until it ends, even when the new list leaves it out.
    if (playback?.track_id) keep.add(playback.track_id);
    const gone = [...existing.keys()].filter((id) => !keep.has(id));
    if (gone.length) {
      await trx.deleteFrom('party_tracks').where('party_id', '=', partyId).where('track_id', 'in', gone).execute();
      await trx.deleteFrom('track_votes').where('party_id', '=', partyId).where('track_id', 'in', gone).execute();
    }
    for (const [position, t] of tracks.entries()) {
      const hls = t.hls_url ?? (() => {
        const c = catalogTrackOf(ctx.catalog, t);
        return c ? hlsUrlOf(ctx, c) : null;
      })();
      const values = {
        position,
        name: t.name,
        artists: JSON.stringify(t.artists),
        album: t.album,
        duration_ms: t.duration_ms,
        image: t.image,
        service: t.service,
        hls_url: hls,
        excluded: excludedSet.has(t.id) ? 1 : 0,
      };
      if (existing.has(t.id)) {
        await trx.updateTable('party_tracks').set(values).where('party_id', '=', partyId).where('track_id', '=', t.id).execute();
      } else {
        await trx.insertInto('party_tracks').values({ party_id: partyId, track_id: t.id, played: 0, ...values }).execute();
      }
    }
    await trx.updateTable('parties').set({ music: JSON.stringify(music) }).where('id', '=', partyId).execute();
  });
}

/** The party's tracks with votes (`items`), its music options and the excluded track ids. */
export async function getTracks(ctx: ServerContext, partyId: string): Promise<PartyTracksResponse> {
  const party = await requireParty(ctx.db, partyId);
  const rows = await listTrackRows(ctx.db, partyId);
  const votes = voteCountsOf(rows);
  return {
    items: rows
      .filter((r) => !toBool(r.excluded))
      // Filled in place, not spread: slow in Node 20, a map per object (decision 0035).
      .map((r, i) => Object.assign(toTrack(r), { votes: votes.get(r.track_id) ?? 0, played: toBool(r.played), position: i })),
    options: parseJson<MusicOptions | null>(party.music, null),
    excluded: rows.filter((r) => toBool(r.excluded)).map((r) => r.track_id),
  };
}

/** A fan's vote on a track (built once: every vote runs one of the two). */
const addVoteQuery = queryOf((db: Db, v: { partyId: string; trackId: string; fanId: string; now: number }) =>
  db
    .insertInto('track_votes')
    .values({ party_id: v.partyId, track_id: v.trackId, fan_id: v.fanId, created_at: v.now })
    .onConflict((oc) => oc.columns(['party_id', 'track_id', 'fan_id']).doNothing()),
);
const removeVoteQuery = queryOf((db: Db, v: { partyId: string; trackId: string; fanId: string }) =>
  db.deleteFrom('track_votes').where('party_id', '=', v.partyId).where('track_id', '=', v.trackId).where('fan_id', '=', v.fanId),
);

/**
 * Casts (`on`) or withdraws a fan's vote for a track. One vote per fan per track: repeating either
 * call changes nothing. Only signed-up fans vote, only while the party has voting enabled.
 */
export async function setVote(ctx: ServerContext, partyId: string, fan: Fan, trackId: string, on: boolean): Promise<VoteResponse> {
  // The vote's checks read the cached row (issue 16); the count itself is the database's.
  const party = await requirePartyCached(ctx.db, partyId);
  // Only fans signed up for this party are counted: the entries' `tracks.vote` has checked it.
  if (!toBool(party.voting_enabled)) throw conflict('Voting is disabled for this party');
  const track: TrackRow | null = await findTrackRow(ctx.db, partyId, trackId);
  if (!track || toBool(track.excluded)) throw notFound(`Track ${trackId} is not in this party`);
  // A vote picks what plays next: a track already played (or playing) cannot be picked again.
  if (on && toBool(track.played)) throw conflict(`Track ${trackId} has already been played; votes are for the tracks still to come`);

  // A trigger keeps the track's count with the vote row (migration 011): read it back, do not count.
  const vote = { partyId, trackId, fanId: fan.id };
  // The vote and its log row in one transaction (the trigger counts with the vote); the count is
  // read back and published after it.
  const { changed, votes } = await runPartyWrite(
    ctx,
    async (w) => {
      const changed = on
        ? Number((await addVoteQuery(w.db, Object.assign({}, vote, { now: ctx.now() }))).numAffectedRows ?? 0) > 0
        : Number((await removeVoteQuery(w.db, vote)).numAffectedRows ?? 0) > 0;
      // The log keeps the change as it happened (the replay's vote swings, withdrawals included).
      if (changed) await w.db.insertInto('party_vote_log').values({ party_id: partyId, track_id: trackId, delta: on ? 1 : -1, at_ms: ctx.now() }).execute();
      const votes = await storedVoteCount(w.db, partyId, trackId);
      if (changed) w.emit(partyId, { type: 'votes_changed', track_id: trackId, votes });
      return { changed, votes };
    },
  );
  if (changed) refreshQueueSoon(ctx, partyId);
  return { track_id: trackId, votes, voted: on };
}

function dedupe(tracks: Track[]): Track[] {
  const seen = new Set<string>();
  return tracks.filter((t) => (seen.has(t.id) ? false : (seen.add(t.id), true)));
}

function musicUrl(body: PutTracksBody): string | null {
  if (body.service === 'spotify') return `https://open.spotify.com/${body.type}/${encodeURIComponent(body.id)}`;
  if (body.service === 'apple') return `https://music.apple.com/${body.country}/${body.type}/${encodeURIComponent(body.id)}`;
  return null;
}
