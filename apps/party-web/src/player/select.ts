import type { EffectiveSource, Party, PlayerService, SourceReason } from '@fanfare/protocol';
import type { PlayerKind } from './types.ts';

export interface PlayerChoiceInput {
  party: (Pick<Party, 'music'> & Partial<Pick<Party, 'frontend'>>) | null;
  /** The fan's login service. */
  userService: PlayerService | null;
  hasSpotifySdk: boolean;
  hasMusicKit: boolean;
  /** The current (or first) track carries an HLS stream. */
  trackHasHls: boolean;
  /** `mock` asked for explicitly (tests, demos). */
  forced: PlayerKind | null;
  /** The fan pays for their provider (`premium` on the user); absent: taken as true. */
  isPremium?: boolean;
  /** The browser has Encrypted Media Extensions with a usable key system; absent: taken as true. */
  hasEme?: boolean;
  /** The page can set the audio volume (false on iOS Safari); absent: taken as true. */
  canSetVolume?: boolean;
}

/** What plays for the fan, what they hear, and why. */
export interface SourceChoice {
  kind: PlayerKind;
  source: EffectiveSource;
  reason: SourceReason;
}

/**
 * Why the fan's own provider cannot play in this browser, or null when it can (issue 47). The
 * account comes first (its fix, an upgrade, is the fan's to make), then the device.
 */
export function providerBlocker(i: PlayerChoiceInput): SourceReason | null {
  const service = i.userService;
  if (service !== 'spotify' && service !== 'apple') return 'no_login';
  if (i.isPremium === false) return service === 'spotify' ? 'free_tier' : 'no_subscription';
  // Spotify's Web Playback SDK does not run in iOS Safari, recognised by its fixed volume.
  if (service === 'spotify' && i.canSetVolume === false) return 'ios_volume';
  if (service === 'spotify' ? !i.hasSpotifySdk : !i.hasMusicKit) return 'no_sdk';
  if (i.hasEme === false) return 'no_eme';
  return null;
}

/**
 * Which player service plays and what the fan hears (spec 4 and issue 47): the internal streaming
 * service if the party enables it (its music service is `umg_hls`), otherwise the user's service.
 * When that provider cannot play here (free tier, no subscription, no SDK, no EME, iOS Safari), the
 * label stream plays when the party allows it (`frontend.labelStreamFallback`, default allowed),
 * else 30 s previews of it; without any stream the mock keeps the timeline.
 */
export function chooseSource(i: PlayerChoiceInput): SourceChoice {
  if (i.forced) return { kind: i.forced, source: i.forced === 'mock' ? 'none' : 'provider', reason: 'provider_ok' };
  if (i.party?.music?.service === 'umg_hls') {
    return i.trackHasHls ? { kind: 'umg_hls', source: 'label_stream', reason: 'party_stream' } : { kind: 'mock', source: 'none', reason: 'party_stream' };
  }
  const blocker = providerBlocker(i);
  if (!blocker) return { kind: i.userService as 'spotify' | 'apple', source: 'provider', reason: 'provider_ok' };
  if (!i.trackHasHls) return { kind: 'mock', source: 'none', reason: blocker };
  const allowsLabelStream = i.party?.frontend?.labelStreamFallback !== false;
  return { kind: 'umg_hls', source: allowsLabelStream ? 'label_stream' : 'preview', reason: blocker };
}

/** The player service alone (see `chooseSource`). */
export function choosePlayer(i: PlayerChoiceInput): PlayerKind {
  return chooseSource(i).kind;
}

/** Key systems the providers' players use: Widevine (Chromium, Firefox), FairPlay (Safari), PlayReady (Edge). */
const KEY_SYSTEMS = ['com.widevine.alpha', 'com.apple.fps.1_0', 'com.apple.fps', 'com.microsoft.playready'];

/**
 * True when the browser offers Encrypted Media Extensions with a key system the providers use:
 * `navigator.requestMediaKeySystemAccess` present and one of them granted.
 */
export async function detectEme(nav: Pick<Navigator, 'requestMediaKeySystemAccess'> | undefined = globalThis.navigator): Promise<boolean> {
  if (!nav || typeof nav.requestMediaKeySystemAccess !== 'function') return false;
  const config: MediaKeySystemConfiguration[] = [{ initDataTypes: ['cenc'], audioCapabilities: [{ contentType: 'audio/mp4; codecs="mp4a.40.2"' }] }];
  for (const system of KEY_SYSTEMS) {
    try {
      await nav.requestMediaKeySystemAccess(system, config);
      return true;
    } catch {
      // Not this one; try the next.
    }
  }
  return false;
}

/**
 * False where the page cannot set the volume (iOS Safari ignores `volume` and reads back 1): the
 * volume control is hidden there, and Spotify's SDK, which needs it, is not used.
 */
export function canSetVolume(audio: Pick<HTMLMediaElement, 'volume'>): boolean {
  const before = audio.volume;
  const probe = before === 0.5 ? 0.25 : 0.5;
  try {
    audio.volume = probe;
  } catch {
    return false;
  }
  const isSet = Math.abs(audio.volume - probe) < 0.01;
  audio.volume = before;
  return isSet;
}
