import { MUSICKIT_JS_URL, PROVIDER_SDK_META, SPOTIFY_PLAYER_JS_URL } from '@fanfare/protocol';
import type { Config } from '../platform/config.ts';

/**
 * The providers' browser SDKs a page loads (campaign pages and the party page alike), as page
 * metadata: Apple's MusicKit JS v3 and Spotify's Web Playback SDK from their official URLs when
 * the provider has real credentials, the built-in emulator's stand-in script when it is emulated.
 * The developer token is public by design: MusicKit JS is configured with it in the page.
 */
export function providerSdkMetas(config: Pick<Config, 'emulators' | 'publicUrl' | 'apple' | 'spotify'>): [name: string, content: string][] {
  return [
    [PROVIDER_SDK_META.musicKitSrc, config.emulators.apple ? `${config.publicUrl}/emulator/apple/musickit.js` : MUSICKIT_JS_URL],
    [PROVIDER_SDK_META.appleDeveloperToken, config.apple.developerToken],
    [PROVIDER_SDK_META.spotifySdkSrc, config.emulators.spotify ? `${config.publicUrl}/emulator/spotify/spotify-player.js` : SPOTIFY_PLAYER_JS_URL],
    [PROVIDER_SDK_META.spotifyApi, config.spotify.apiUrl],
  ];
}
