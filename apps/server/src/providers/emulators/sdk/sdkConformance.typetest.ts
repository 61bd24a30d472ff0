/// <reference types="musickit-js" />
/// <reference types="spotify-web-playback-sdk" />
/**
 * Type-level test (compiled by `npm run typecheck`, never run): the emulators' stand-in SDKs and
 * the real SDKs meet the same interfaces, typed by `@types/musickit-js` and
 * `@types/spotify-web-playback-sdk`. If a stand-in stops conforming to the official types, or an
 * app drives a member the official SDK does not have, one of these aliases stops compiling.
 */
import type { MusicKitInstance as CampaignMusicKit, SpotifySdk as CampaignSpotifySdk } from '@fanfare/campaign-sdk';
import type { MusicKitInstance as PartyMusicKit } from '../../../../../party-web/src/player/applePlayer.ts';
import type { SpotifySdk as PartySpotifySdk } from '../../../../../party-web/src/player/spotifyPlayer.ts';
import type { MusicKitDriven, MusicKitV3Instance, createMusicKitStandIn } from './musicKitStandIn.ts';
import type { createSpotifyStandIn } from './spotifyStandIn.ts';

type Assert<T extends true> = T;
type Conforms<A, B> = [A] extends [B] ? true : false;

type StandInMusicKit = ReturnType<typeof createMusicKitStandIn>;
type StandInSpotify = ReturnType<typeof createSpotifyStandIn>;

export type StandInsConform = [
  // The MusicKit stand-in: configured like MusicKit, its instance has the official members' types.
  Assert<Conforms<Parameters<typeof MusicKit.configure>, Parameters<StandInMusicKit['configure']>>>,
  Assert<Conforms<Awaited<ReturnType<StandInMusicKit['configure']>>, MusicKitDriven>>,
  Assert<Conforms<ReturnType<StandInMusicKit['getInstance']>, MusicKitDriven>>,
  // The Spotify stand-in: `new Spotify.Player(init)` as the SDK's, and a `Spotify.Player`.
  Assert<Conforms<ConstructorParameters<typeof Spotify.Player>, ConstructorParameters<StandInSpotify['Player']>>>,
  Assert<Conforms<InstanceType<StandInSpotify['Player']>, Spotify.Player>>,
];

export type AppsDriveTheOfficialSdks = [
  // What the campaign SDK and the party app drive, the real SDKs have (so they fit where the stand-ins do).
  Assert<Conforms<MusicKitV3Instance, CampaignMusicKit>>,
  Assert<Conforms<MusicKitV3Instance, PartyMusicKit>>,
  Assert<Conforms<typeof Spotify, CampaignSpotifySdk>>,
  Assert<Conforms<typeof Spotify, PartySpotifySdk>>,
];

export type AppsDriveTheStandIns = [
  Assert<Conforms<MusicKitDriven, CampaignMusicKit>>,
  Assert<Conforms<MusicKitDriven, PartyMusicKit>>,
  Assert<Conforms<StandInSpotify, CampaignSpotifySdk>>,
  Assert<Conforms<StandInSpotify, PartySpotifySdk>>,
];
