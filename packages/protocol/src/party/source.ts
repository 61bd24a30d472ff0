/**
 * Ours (issue 47, "nobody sits it out"): what a fan actually hears, and why.
 *
 * A fan whose provider cannot play in the browser (Spotify free tier, Apple Music without a
 * subscription, no provider SDK, no EME, iOS Safari) hears the label stream (`umg_hls`) when the
 * party allows it (`frontend.labelStreamFallback`, default allowed), or else 30 s previews. The
 * party app reports its choice over the party socket with a `source` frame; the server keeps it on
 * the fan's connection and counts listeners by source for the host dashboard (`party_stats.sources`).
 */
import { z } from 'zod';

/** Seconds of each track a fan on previews hears. */
export const PREVIEW_SECONDS = 30;

/**
 * What a fan hears: `provider` their own streaming service, `label_stream` the label's stream
 * (`umg_hls`), `preview` 30 s of each track, `none` nothing can play here (timeline only).
 */
export const EFFECTIVE_SOURCES = ['provider', 'label_stream', 'preview', 'none'] as const;
export const EffectiveSource = z.enum(EFFECTIVE_SOURCES);
export type EffectiveSource = z.infer<typeof EffectiveSource>;

/**
 * Why a fan hears that source:
 * - `provider_ok`: their own provider plays.
 * - `party_stream`: the party itself plays the label stream (music service `umg_hls`).
 * - `free_tier`: Spotify without Premium (in-browser playback needs Premium).
 * - `no_subscription`: Apple Music without a subscription.
 * - `no_sdk`: the provider's player SDK is not available in this browser.
 * - `no_eme`: the browser lacks Encrypted Media Extensions (the providers' DRM).
 * - `ios_volume`: iOS Safari, where the page cannot set the volume and the provider cannot play.
 * - `no_login`: the fan signed up without a provider login.
 */
export const SOURCE_REASONS = ['provider_ok', 'party_stream', 'free_tier', 'no_subscription', 'no_sdk', 'no_eme', 'ios_volume', 'no_login'] as const;
export const SourceReason = z.enum(SOURCE_REASONS);
export type SourceReason = z.infer<typeof SourceReason>;

/** A fan's effective source and its reason. */
export const SourceReport = z.strictObject({
  source: EffectiveSource,
  reason: SourceReason,
});
export type SourceReport = z.infer<typeof SourceReport>;

/**
 * Client → server: the fan's effective source (sent when the player starts, when it changes, and
 * again after every reconnect). The server keeps the last one per connection; it is not echoed.
 */
export const SourceFrame = SourceReport.extend({ type: z.literal('source') });
export type SourceFrame = z.infer<typeof SourceFrame>;

/** Listeners per effective source (`unknown`: connected fans that have not reported one). */
export const SourceCounts = z.object({
  provider: z.number().int().nonnegative(),
  label_stream: z.number().int().nonnegative(),
  preview: z.number().int().nonnegative(),
  none: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative(),
});
export type SourceCounts = z.infer<typeof SourceCounts>;

/** Zero listeners on every source. */
export const emptySourceCounts = (): SourceCounts => ({ provider: 0, label_stream: 0, preview: 0, none: 0, unknown: 0 });
