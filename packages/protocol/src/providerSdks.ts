/**
 * The streaming providers' browser SDKs, as both web apps (campaign pages, listening party) load
 * them: from the providers' official URLs when the server has real credentials, else from the
 * built-in emulators' stand-in scripts, which implement the same interfaces. The server names the
 * script and its settings in the page's metadata; neither app hard-codes which one it gets.
 */

/** Apple's MusicKit JS v3 (it dispatches `musickitloaded` on the document when ready). */
export const MUSICKIT_JS_URL = 'https://js-cdn.music.apple.com/musickit/v3/musickit.js';
/** Spotify's Web Playback SDK (it calls `window.onSpotifyWebPlaybackSDKReady` when ready). */
export const SPOTIFY_PLAYER_JS_URL = 'https://sdk.scdn.co/spotify-player.js';

/** Page metadata naming the SDK scripts (the same names on the campaign page and the party page). */
export const PROVIDER_SDK_META = {
  /** Where MusicKit loads from: the official URL, or the Apple emulator's stand-in. Absent: Apple cannot play here. */
  musicKitSrc: 'fanfare:musickit-src',
  /** The developer token MusicKit is configured with (public by design: MusicKit JS needs it in the page). */
  appleDeveloperToken: 'fanfare:apple-developer-token',
  /** Where Spotify's Web Playback SDK loads from: the official URL, or the Spotify emulator's stand-in. */
  spotifySdkSrc: 'fanfare:spotify-sdk-src',
  /** The Spotify Web API base the page sends player commands to (the emulator's when emulated). */
  spotifyApi: 'fanfare:spotify-api',
} as const;

/**
 * The document event a page dispatches when a provider SDK script fails to load or does not
 * answer within the script load timeout (`SCRIPT_LOAD_TIMEOUT_MS`, 120 s): detail
 * `ProviderSdkLoadErrorDetail`.
 */
export const PROVIDER_SDK_LOAD_ERROR_EVENT = 'fanfare:load-error';

export interface ProviderSdkLoadErrorDetail {
  service: 'apple' | 'spotify';
  src: string;
  message: string;
  /** True when the script did not answer within the timeout (a hanging CDN), false when it failed. */
  timedOut: boolean;
}
