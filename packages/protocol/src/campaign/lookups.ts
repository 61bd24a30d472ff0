/**
 * Music lookups of the CMS API (spec 7, no token). They answer in the providers' own shapes, which
 * the campaign page's mock player reads (spec 4: albums carry name, images, tracks.items; playlist
 * items carry an optional track with name, artists, album name and images, duration_ms).
 */
import { z } from 'zod';
import { TRACK_LOOKUP_BATCH } from './constants.ts';

export const SpotifyImage = z.looseObject({ url: z.string(), width: z.number().nullable(), height: z.number().nullable() });
export const SpotifyArtistRef = z.looseObject({ id: z.string(), name: z.string() });
export const SpotifyTrack = z.looseObject({
  id: z.string(),
  name: z.string(),
  duration_ms: z.number(),
  artists: z.array(SpotifyArtistRef),
  album: z.looseObject({ name: z.string(), images: z.array(SpotifyImage) }).optional(),
});
export type SpotifyTrack = z.infer<typeof SpotifyTrack>;
const Paging = <T extends z.ZodType>(item: T) => z.looseObject({ items: z.array(item), total: z.number().optional() });
export const SpotifyAlbum = z.looseObject({ id: z.string(), name: z.string(), images: z.array(SpotifyImage), tracks: Paging(SpotifyTrack) });
export const SpotifyPlaylist = z.looseObject({
  id: z.string(),
  name: z.string(),
  images: z.array(SpotifyImage),
  tracks: Paging(z.looseObject({ track: SpotifyTrack.nullable().optional() })),
});
export const SpotifyArtist = z.looseObject({ id: z.string(), name: z.string(), images: z.array(SpotifyImage).optional() });

/** Query of `GET /api/spotify/tracks?ids=`: comma-separated ids, at most TRACK_LOOKUP_BATCH. */
export const SeveralTracksQuery = z.object({
  ids: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9]{1,64}$/)).min(1).max(TRACK_LOOKUP_BATCH)),
});
/** Response of the several-tracks lookup: `tracks` in the order asked, null where unknown. */
export const SeveralTracksResponse = z.object({ tracks: z.array(SpotifyTrack.nullable()) });
export type SeveralTracksResponse = z.infer<typeof SeveralTracksResponse>;

export const SpotifyLookupParams = z.object({ id: z.string().regex(/^[A-Za-z0-9]{1,64}$/) });
/** `GET /api/apple/albums|playlists/{storefront}/{id}`. */
export const AppleLookupParams = z.object({ storefront: z.string().regex(/^[a-zA-Z]{2}$/), id: z.string().regex(/^[\w.-]{1,64}$/) });
/** The Apple Music API's `{ data: [...] }` answer, passed through. */
export const AppleDataResponse = z.looseObject({ data: z.array(z.looseObject({ id: z.string(), type: z.string() })) });
export type AppleDataResponse = z.infer<typeof AppleDataResponse>;
export type SpotifyAlbum = z.infer<typeof SpotifyAlbum>;
export type SpotifyPlaylist = z.infer<typeof SpotifyPlaylist>;
export type SpotifyArtist = z.infer<typeof SpotifyArtist>;

/**
 * Query of the HLS preview manifest (spec 7): `id` is a track's Spotify or Apple id (or ISRC);
 * `callback` names who plays the preview (the page sends its campaign id), recorded with the play.
 */
export const PreviewManifestQuery = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'Expected a track id'),
  callback: z.string().regex(/^[\w.:-]{1,100}$/, 'Expected letters, digits and . _ : - only').optional(),
});
export type PreviewManifestQuery = z.infer<typeof PreviewManifestQuery>;

/** A segment of a preview stream: the track's audio folder and one `segNNN.ts` file. */
export const PreviewSegmentParams = z.object({
  audio: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/),
  segment: z.string().regex(/^seg\d{3}\.ts$/),
});
