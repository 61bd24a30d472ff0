import { MUSICKIT_JS_URL, SPOTIFY_PLAYER_JS_URL } from '@fanfare/protocol';
import { loadMusicKit, loadSpotifySdk, readProviderSdks } from '@fanfare/client/provider-sdks';
import type { MusicKitInstance } from './applePlayer.ts';
import type { SpotifySdk } from './spotifyPlayer.ts';

/** Spotify Web API base for the SDK player when the page names none. */
export const SPOTIFY_API_URL = 'https://api.spotify.com/v1';

/** The app's name as the providers show the player (Spotify Connect, MusicKit). */
export const PLAYER_NAME = 'Fanfare Listening Party';

export type Sdks = { spotify: SpotifySdk | null; musicKit: MusicKitInstance | null; spotifyApiUrl: string };

/**
 * The fan's provider SDK for playback, loaded from the URL the page names (120 s at most; a failure
 * dispatches the load-error event and leaves the party's own stream to play). Only the providers'
 * official scripts play here: with the built-in emulators the party plays the catalog's HLS
 * streams, which are audible and sample-accurate, where the emulators' stand-ins are silent.
 * The Player screen and the replay both load them here.
 */
export async function loadPlaybackSdk(service: string | null): Promise<Sdks> {
  const settings = readProviderSdks(document);
  const env = { doc: document, win: window };
  const spotifyApiUrl = settings.spotify?.apiUrl ?? SPOTIFY_API_URL;
  const none: Sdks = { spotify: null, musicKit: null, spotifyApiUrl };
  if (service === 'spotify' && settings.spotify?.src === SPOTIFY_PLAYER_JS_URL) {
    return { ...none, spotify: await loadSpotifySdk<SpotifySdk>(settings.spotify, env).catch(() => null) };
  }
  if (service === 'apple' && settings.musicKit?.src === MUSICKIT_JS_URL) {
    return { ...none, musicKit: await loadMusicKit<MusicKitInstance>(settings.musicKit, env, PLAYER_NAME).catch(() => null) };
  }
  return none;
}
