import type { Party, PlayerService } from '@fanfare/protocol';
import type { PlayerKind } from './types.ts';

export interface PlayerChoiceInput {
  party: Pick<Party, 'music'> | null;
  /** The fan's login service. */
  userService: PlayerService | null;
  hasSpotifySdk: boolean;
  hasMusicKit: boolean;
  /** The current (or first) track carries an HLS stream. */
  trackHasHls: boolean;
  /** `mock` asked for explicitly (tests, demos). */
  forced: PlayerKind | null;
}

/**
 * Which player service plays (spec 4): the internal streaming service if the party enables it
 * (its music service is `umg_hls`), otherwise the user's service. Ours, for offline use: when the
 * user's provider SDK is not on the page, tracks that carry an HLS stream play through it, and
 * without any stream the mock keeps the timeline.
 */
export function choosePlayer(i: PlayerChoiceInput): PlayerKind {
  if (i.forced) return i.forced;
  if (i.party?.music?.service === 'umg_hls') return 'umg_hls';
  if (i.userService === 'spotify' && i.hasSpotifySdk) return 'spotify';
  if (i.userService === 'apple' && i.hasMusicKit) return 'apple';
  if (i.trackHasHls) return 'umg_hls';
  return 'mock';
}
