/**
 * @fanfare/campaign-sdk: the campaign-page runtime (campaign spec §2, §4, §5, §8, §9).
 *
 * Public API (stable; other packages build on it):
 * - `createCampaign(options?)` → `CampaignInstance`: one campaign's runtime, read from the page
 *   metadata (or `options.campaign`). Call `start()` on load and `destroy()` on teardown. Parts:
 *   - `config`: `campaign`, `environment`, `backendOrigin`, `isEmbedded`, `now()`
 *   - `bridge` (`EditorBridge`): editor messages, `openMediaLibrary()`, `sendCampaignUrl()`
 *   - `newsletter` (`Newsletter`): `signup()`; `newsletterBanner` after `start()`
 *   - `login` (`Login`): `loginWithSpotify()`, `loginWithApple()`, `logout()`, `token`, `events.on('change')`
 *   - `tokenGate` (`TokenGate`): `check()`, `result`, `events.on('change')`
 *   - `timing` (`CampaignTiming`): `phase`; `events.on('started' | 'ended')` (also on the instance)
 *   - `i18n` (`I18n`): `t(key, vars)`, `locale`, `setLocale()`, `availableLocales`
 *   - `playback` (`Playback`): `store` (state + `subscribe`), `loadPlayer(service)`, `preview()`, `isMock`
 *   - `tracker` (`Tracker`): `track(event, data)`; sink from `options.trackingSink` (`dataLayerSink`)
 * - Pure rules, usable alone: `parseEnvironment`, `selectNewsletters`, `parseLoginCallback`,
 *   `detectLocale`, `compilePluralForm`, `waitUntil`, `mapAppleState`, `toDevices`, `storageKeys`.
 * - Names: `DOCUMENT_EVENTS`, `TRACKING_EVENTS`, `SDK_ERRORS`, `storageKeys`, `MOCK_FLAGS`.
 * React hooks live in `@fanfare/campaign-sdk/react`.
 */
export { createCampaign, CampaignInstance, type CampaignOptions, type CampaignEvents, type MusicKitInstance } from './campaign.ts';
export { CampaignApi, ApiError } from './api.ts';
export { EditorBridge, type MediaPick } from './bridge.ts';
export { readCampaignConfig, parseEnvironment, defaultBackendOrigins, type CampaignConfig, type BackendOrigins } from './config.ts';
export { browserEnv, type PageEnv, type StorageLike, type TimerApi, type Logger, type MessagingEnv } from './env.ts';
export { Emitter } from './emitter.ts';
export { SDK_ERRORS } from './errors.ts';
export { DOCUMENT_EVENTS } from './events.ts';
export { I18n, detectLocale, compilePluralForm, DEFAULT_LOCALES, type DefaultMessages } from './i18n.ts';
export { Login, parseLoginCallback, isToken, LOGIN_CALLBACK_PARAMS, type MusicKitAuth } from './login.ts';
export { Newsletter, selectNewsletters, campaignNewsletters, readNewsletterBanner, type NewsletterBanner, type SignupInput, type SignupResult } from './newsletter.ts';
export { storageKeys, NEWSLETTER_BANNER_SHOWN_KEY } from './storage.ts';
export { TokenGate } from './tokenGate.ts';
export { CampaignTiming, waitUntil, type TimingPhase } from './timing.ts';
export { Tracker, dataLayerSink, pageCategoryOf, TRACKING_EVENTS, UTM_PARAMS, type TrackingEvent, type TrackingSink } from './tracking.ts';
export { Playback, previewManifestUrl, type PlaybackOptions } from './playback/playback.ts';
export { PlaybackStore, initialPlaybackState, isProgressUpdateDue } from './playback/state.ts';
export type { Player, PlayRequest } from './playback/types.ts';
export { ApplePlayer, mapAppleState, APPLE_PLAYBACK_STATES, type MusicKitPlayer } from './playback/applePlayer.ts';
export { SpotifyPlayer, type SpotifySdk, type SpotifyWebPlayer, type SpotifyWebPlaybackState } from './playback/spotifyPlayer.ts';
export { SpotifyPlayerApi, toDevices, playBody, SPOTIFY_API_URL } from './playback/spotifyApi.ts';
export { HlsPreviewPlayer, type MediaElementLike } from './playback/hlsPlayer.ts';
export { MockPlayer, MOCK_FLAGS } from './playback/mockPlayer.ts';
export { buildMockQueue } from './playback/mockQueue.ts';
