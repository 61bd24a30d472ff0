/**
 * The replay's player: the app's own player adapters, chosen by the Player screen's rule
 * (`choosePlayer`): the label stream `umg_hls` when the party uses it or the fan has no provider
 * player here, else the fan's provider (Spotify's SDK, MusicKit) when logged in with it.
 */
import type { Track } from '@fanfare/protocol';
import type { AppServices } from '../app/services.ts';
import { ApplePlayer, type MusicKitInstance } from '../player/applePlayer.ts';
import { HlsPlayer } from '../player/hlsPlayer.ts';
import { MockPlayer } from '../player/mockPlayer.ts';
import { choosePlayer } from '../player/select.ts';
import { SpotifyPlayer, type SpotifySdk } from '../player/spotifyPlayer.ts';
import type { PlayerAdapter, PlayerKind } from '../player/types.ts';

/** Spotify Web API base for the SDK player (the real one; the SDK exists only online). */
const SPOTIFY_API_URL = 'https://api.spotify.com/v1';

/** `?player=mock` in the page or route query selects the timeline-only player (tests, demos). */
function forcedPlayer(): PlayerKind | null {
  const query = new URLSearchParams(window.location.search || window.location.hash.split('?')[1] || '');
  return query.get('player') === 'mock' ? 'mock' : null;
}

export function createReplayPlayer(services: AppServices, audio: HTMLAudioElement, firstTrack: Track | null): PlayerAdapter {
  const { store } = services;
  const s = store.getState();
  const w = window as unknown as { Spotify?: SpotifySdk; MusicKit?: { getInstance(): MusicKitInstance } };
  // A fan who is not logged in has no provider: the label stream plays for everyone.
  const chosen = choosePlayer({
    party: s.party,
    userService: s.token ? (s.user?.service ?? s.service) : null,
    hasSpotifySdk: !!w.Spotify,
    hasMusicKit: !!w.MusicKit,
    trackHasHls: firstTrack ? !!firstTrack.hls_url : true,
    forced: forcedPlayer(),
  });
  if (chosen === 'spotify' && w.Spotify) return new SpotifyPlayer({ sdk: w.Spotify, token: () => store.getState().serviceToken, apiUrl: SPOTIFY_API_URL });
  if (chosen === 'apple' && w.MusicKit) return new ApplePlayer(w.MusicKit.getInstance());
  if (chosen === 'umg_hls') return new HlsPlayer(audio);
  return new MockPlayer();
}
