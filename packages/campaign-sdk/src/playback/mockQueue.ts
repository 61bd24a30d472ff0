/**
 * The mock queue (spec §3, §4): built from an album, a playlist, tracks or one track, read from
 * the backend lookups (several-track lookups batched by 50).
 */
import type { MockQueue, PlaybackTrack, SpotifyTrack } from '@fanfare/protocol';
import type { CampaignApi } from '../api.ts';
import type { PlayRequest } from './types.ts';

type Images = Array<{ url: string }>;

export function trackFromLookup(t: SpotifyTrack, album?: { name: string; images: Images }): PlaybackTrack {
  const al = t.album ?? album;
  return { id: t.id, name: t.name, artists: t.artists.map((a) => a.name), album: al?.name ?? '', durationMs: t.duration_ms, image: al?.images[0]?.url ?? null };
}

type Lookups = Pick<CampaignApi, 'spotifyAlbum' | 'spotifyPlaylist' | 'spotifyTrack' | 'spotifyTracks'>;

export async function buildMockQueue(api: Lookups, request: PlayRequest): Promise<MockQueue> {
  let tracks: PlaybackTrack[];
  switch (request.type) {
    case 'album': {
      const album = await api.spotifyAlbum(request.id);
      tracks = album.tracks.items.map((t) => trackFromLookup(t, album));
      break;
    }
    case 'playlist': {
      const pl = await api.spotifyPlaylist(request.id);
      tracks = pl.tracks.items.flatMap((i) => (i.track ? [trackFromLookup(i.track)] : []));
      break;
    }
    case 'tracks':
      tracks = (await api.spotifyTracks(request.ids)).map((t) => trackFromLookup(t));
      break;
    case 'track':
      tracks = [trackFromLookup(await api.spotifyTrack(request.id))];
      break;
  }
  const offset = request.type === 'track' ? 0 : (request.offset ?? 0);
  return { tracks, index: Math.min(Math.max(offset, 0), Math.max(tracks.length - 1, 0)) };
}
