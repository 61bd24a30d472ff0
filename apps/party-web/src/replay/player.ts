/**
 * The replay's player: the app's own player adapters, chosen by the Player screen's rule
 * (`chooseSource`). A fan logged in with a provider that can play here (Spotify Premium with the
 * Web Playback SDK, Apple Music with a subscription and MusicKit) hears the replay through it, its
 * SDK loaded from the URL the page names, as the Player screen does; everyone else hears the
 * label stream `umg_hls`. Unlike the live party, a replay never falls back to previews: the label
 * stream is for everyone.
 */
import type { Track } from '@fanfare/protocol';
import type { AppServices } from '../app/services.ts';
import { ApplePlayer } from '../player/applePlayer.ts';
import { HlsPlayer } from '../player/hlsPlayer.ts';
import { MockPlayer } from '../player/mockPlayer.ts';
import { loadPlaybackSdk, PLAYER_NAME, SPOTIFY_API_URL, type Sdks } from '../player/playbackSdk.ts';
import { canSetVolume, chooseSource, detectEme, providerBlocker } from '../player/select.ts';
import { SpotifyPlayer } from '../player/spotifyPlayer.ts';
import type { PlayerAdapter, PlayerKind } from '../player/types.ts';

/** `?player=mock` in the page or route query selects the timeline-only player (tests, demos). */
function forcedPlayer(): PlayerKind | null {
  const query = new URLSearchParams(window.location.search || window.location.hash.split('?')[1] || '');
  return query.get('player') === 'mock' ? 'mock' : null;
}

/**
 * The replay's player, initialised. A provider's player that fails to start (its SDK refuses the
 * account, no device) gives way to the label stream, so the replay still plays.
 */
export async function createReplayPlayer(services: AppServices, audio: HTMLAudioElement, firstTrack: Track | null): Promise<PlayerAdapter> {
  const adapter = await chooseReplayPlayer(services, audio, firstTrack);
  try {
    await adapter.init();
    return adapter;
  } catch (err) {
    if (adapter.kind !== 'spotify' && adapter.kind !== 'apple') throw err;
    adapter.destroy();
    const fallback = firstTrack?.hls_url ? new HlsPlayer(audio) : new MockPlayer();
    await fallback.init();
    return fallback;
  }
}

async function chooseReplayPlayer(services: AppServices, audio: HTMLAudioElement, firstTrack: Track | null): Promise<PlayerAdapter> {
  const { store } = services;
  const s = store.getState();
  // A fan who is not logged in has no provider: the label stream plays for everyone.
  const userService = s.token ? (s.user?.service ?? s.service) : null;
  const forced = forcedPlayer();
  const none: Sdks = { spotify: null, musicKit: null, spotifyApiUrl: SPOTIFY_API_URL };
  const sdks = forced || !userService ? none : await loadPlaybackSdk(userService);
  const input = {
    party: s.party,
    userService,
    isPremium: s.user?.premium ?? true,
    hasSpotifySdk: !!sdks.spotify,
    hasMusicKit: !!sdks.musicKit,
    canSetVolume: canSetVolume(audio),
    trackHasHls: firstTrack ? !!firstTrack.hls_url : true,
    forced,
  };
  // EME is asked only when nothing else already rules the provider out (the check is async).
  const hasEme = input.forced || input.party?.music?.service === 'umg_hls' || providerBlocker(input) ? true : await detectEme();
  const choice = chooseSource({ ...input, hasEme });
  if (choice.kind === 'spotify' && sdks.spotify) return new SpotifyPlayer({ sdk: sdks.spotify, token: () => store.getState().serviceToken, apiUrl: sdks.spotifyApiUrl, name: PLAYER_NAME });
  if (choice.kind === 'apple' && sdks.musicKit) return new ApplePlayer(sdks.musicKit);
  if (choice.kind === 'umg_hls') return new HlsPlayer(audio);
  return new MockPlayer();
}
