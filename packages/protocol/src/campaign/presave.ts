/**
 * Pre-save and pre-add, and the release clock per territory (issue 46). A campaign's
 * `data.release` says when the release comes out (one instant, or a local time in each
 * participating territory) and what a pre-save does at that moment (save an album or tracks,
 * follow the artist). Fans pre-save under `/api/campaigns/{id}/presave`; the server performs the
 * saves through the provider's API once the release is out in the fan's territory.
 */
import { z } from 'zod';
import { Id, IsoDateTime } from '../common.ts';
import { LocalizedText } from './page.ts';

/** ISO 3166-1 alpha-2, upper case. */
export const TerritoryCode = z.string().regex(/^[A-Z]{2}$/, 'Expected a country code such as DE');
export type TerritoryCode = z.infer<typeof TerritoryCode>;

/** A wall-clock time without zone, `YYYY-MM-DDTHH:mm`, read in a territory's time zone. */
export const ReleaseLocalTime = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/, 'Expected a local time as YYYY-MM-DDTHH:mm');

/** An IANA time zone this runtime knows, e.g. `Europe/Berlin` (not imported from editorial.ts: entities.ts imports this file). */
export const ReleaseTimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(
    (name) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: name });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'Expected an IANA time zone such as Europe/Berlin' },
  );

/** One territory's own release time or zone; what it leaves out comes from the clock. */
export const TerritoryClock = z.strictObject({
  local_time: ReleaseLocalTime.optional(),
  /** Defaults to the territory's main zone (countries with several zones: see decision 0040). */
  time_zone: ReleaseTimeZone.optional(),
});
export type TerritoryClock = z.infer<typeof TerritoryClock>;

/**
 * When the release comes out: `instant` (one moment everywhere) or `local` (the same wall-clock
 * time in each territory's zone, e.g. Friday 00:00, with per-territory exceptions).
 */
export const ReleaseClock = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('instant'), at: IsoDateTime }),
  z.strictObject({
    mode: z.literal('local'),
    local_time: ReleaseLocalTime,
    territories: z.record(TerritoryCode, TerritoryClock).default({}),
  }),
]);
export type ReleaseClock = z.infer<typeof ReleaseClock>;

const ProviderId = z.string().min(1).max(100).regex(/^[A-Za-z0-9._-]+$/, 'Expected a provider id');

/** The release on Spotify: an album, its tracks (for a tracks-only save) and the artists to follow. */
export const SpotifyRelease = z.strictObject({
  album_id: ProviderId.nullable().default(null),
  track_ids: z.array(ProviderId).max(50).default([]),
  artist_ids: z.array(ProviderId).max(5).default([]),
});
/** The release on Apple Music: an album and its songs. Apple's API cannot follow an artist. */
export const AppleRelease = z.strictObject({
  album_id: ProviderId.nullable().default(null),
  song_ids: z.array(ProviderId).max(50).default([]),
});

/** A campaign's release (`data.release`). */
export const ReleaseSettings = z.strictObject({
  clock: ReleaseClock,
  spotify: SpotifyRelease.optional(),
  apple: AppleRelease.optional(),
  /** The pre-save consent wording per locale; the words shown are stored with each pre-save. */
  consent_text: LocalizedText.default({}),
});
export type ReleaseSettings = z.infer<typeof ReleaseSettings>;
export type ReleaseSettingsInput = z.input<typeof ReleaseSettings>;

/** What a fan asks to be done at release: save the album or its tracks, and follow the artist. */
export const PRESAVE_TARGETS = ['album', 'tracks'] as const;
export const PresaveTarget = z.enum(PRESAVE_TARGETS);

/** A fan's pre-save (`POST /api/campaigns/{id}/presave`, with the campaign account's token). */
export const PresaveBody = z.strictObject({
  save: PresaveTarget,
  follow_artist: z.boolean().default(false),
  /** The locale whose consent wording the fan was shown. */
  locale: z.string().max(35).regex(/^[a-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$/),
  /** The page the fan pre-saved on (stored with the consent). */
  host_url: z.url().max(2000),
  /** Where the receipt goes when the streaming account has no e-mail (Apple). */
  email: z.email().max(254).optional(),
});
export type PresaveBody = z.infer<typeof PresaveBody>;

/** Where one fan's pre-save stands: waiting for the release, done, or failed after its retries. */
export const PRESAVE_STATES = ['pending', 'done', 'failed', 'cancelled'] as const;
export const PresaveState = z.enum(PRESAVE_STATES);
export type PresaveState = z.infer<typeof PresaveState>;

/** One call's outcome at release: `skipped` when the provider has no such call (Apple follows). */
export const PresaveStepResult = z.object({
  step: z.enum(['save_album', 'save_tracks', 'follow_artist']),
  outcome: z.enum(['ok', 'skipped', 'failed']),
  detail: z.string().max(500).nullable(),
});
export type PresaveStepResult = z.infer<typeof PresaveStepResult>;

/** A fan's pre-save as the fan and the back office see it. */
export const Presave = z.object({
  id: Id,
  campaign_id: Id,
  service: z.enum(['spotify', 'apple']),
  territory: TerritoryCode,
  save: PresaveTarget,
  follow_artist: z.boolean(),
  state: PresaveState,
  /** When the saves are due: the release in the fan's territory (null while it is unavailable there). */
  due_at: IsoDateTime.nullable(),
  attempts: z.number().int().nonnegative(),
  results: z.array(PresaveStepResult),
  created_at: IsoDateTime,
  done_at: IsoDateTime.nullable(),
  receipt_sent_at: IsoDateTime.nullable(),
});
export type Presave = z.infer<typeof Presave>;

/**
 * Where the release stands in a territory: `pending` before its time, `released` once out and
 * found in the storefront, `unavailable` when the time passed but the storefront lacks it (the
 * page stays in pre-release there and the server looks again).
 */
export const TERRITORY_RELEASE_STATES = ['pending', 'released', 'unavailable'] as const;
export const TerritoryReleaseState = z.enum(TERRITORY_RELEASE_STATES);
export type TerritoryReleaseState = z.infer<typeof TerritoryReleaseState>;

/** The release in one territory, as the page reads it (`GET .../presave/territories/{country}`). */
export const TerritoryRelease = z.object({
  country: TerritoryCode,
  time_zone: z.string().nullable(),
  release_at: IsoDateTime,
  state: TerritoryReleaseState,
  /** The campaign's services the release can be found on in this territory (others are hidden). */
  services: z.array(z.enum(['spotify', 'apple'])),
  checked_at: IsoDateTime.nullable(),
});
export type TerritoryRelease = z.infer<typeof TerritoryRelease>;

export const TerritoryParams = z.object({ id: Id, country: TerritoryCode });

/** Counts of pre-saves by state. */
export const PresaveCounts = z.object({ pending: z.number().int(), done: z.number().int(), failed: z.number().int(), cancelled: z.number().int() });
export type PresaveCounts = z.infer<typeof PresaveCounts>;

/** The back office's view of a campaign's release: per territory, and the latest pre-saves. */
export const PresaveReport = z.object({
  territories: z.array(TerritoryRelease.extend({ counts: PresaveCounts })),
  totals: PresaveCounts,
  recent: z.array(Presave),
});
export type PresaveReport = z.infer<typeof PresaveReport>;
