/** Names of the document events the SDK dispatches (`CustomEvent`, payload in `detail`). */
export const DOCUMENT_EVENTS = {
  /** Playback state changed (spec §4): detail is the `PlaybackState`. */
  playbackState: 'fanfare:playback-state',
  /** A player could not initialise (spec §8): detail `{ service, message }`. */
  playerInitError: 'fanfare:player-init-error',
  /** Token gate state changed (spec §4): detail is the `TokenGateResult`. */
  tokenGateState: 'fanfare:token-gate-state',
  /** Campaign timing (spec §4): detail `{ campaignId }`. */
  campaignStarted: 'fanfare:campaign-started',
  campaignEnded: 'fanfare:campaign-ended',
} as const;
