/**
 * Building blocks shared by every area of the wire protocol.
 */
import { z } from 'zod';

/** An ISO 8601 date-time string with a `Z` or numeric offset, e.g. `2025-05-01T18:00:00Z`. */
export const IsoDateTime = z.iso.datetime({ offset: true });
export type IsoDateTime = z.infer<typeof IsoDateTime>;

/**
 * Milliseconds since the Unix epoch. Not forced to be an integer: a client clock read from
 * `performance.timeOrigin + performance.now()` carries a fraction.
 */
export const EpochMs = z.number().nonnegative();
export type EpochMs = z.infer<typeof EpochMs>;

/** Longest identifier we accept anywhere (ours are UUIDs; providers' ids are far shorter). */
export const ID_MAX_LENGTH = 200;

/** Longest URL we accept and store (profile pictures, images, redirect targets). */
export const URL_MAX_LENGTH = 2048;

/** An opaque, non-empty identifier (party, user, message, track, poll, ...), bounded in length. */
export const Id = z.string().min(1).max(ID_MAX_LENGTH);
export type Id = z.infer<typeof Id>;

/** A non-negative integer (counts, indexes, durations). */
export const NonNegativeInt = z.number().int().nonnegative();
export type NonNegativeInt = z.infer<typeof NonNegativeInt>;

/** Largest value of a PostgreSQL `integer` column (4 bytes); SQLite's integers are wider. */
export const INT32_MAX = 2_147_483_647;

/** A version number in a path or query (a campaign's draft, a party's settings): 1, 2, … */
export const VersionNumber = z.coerce.number().int().min(1).max(INT32_MAX);

/**
 * Largest free-form JSON documents a client may store, in bytes of their JSON text (UTF-8), and
 * the longest key anywhere inside one. Listed in the README's configuration table.
 */
export const JSON_LIMITS = {
  /** A campaign's `data` (its page, modules and the editor's own keys). */
  campaignData: 256 * 1024,
  /** A campaign's or app's `i18n` (locales and every translated message). */
  i18n: 512 * 1024,
  /** A campaign's `tag_manager`. */
  tagManager: 2 * 1024,
  /** A campaign's `meta_tags`. */
  metaTags: 32 * 1024,
  /** An app's `config` (its own settings and `i18n`). */
  appConfig: 512 * 1024,
  /** Any key inside these documents. */
  keyLength: 200,
} as const;

/** Size of `value` as JSON text in UTF-8 bytes, and its longest object key. */
export function jsonSize(value: unknown): { bytes: number; longestKey: number } {
  let longestKey = 0;
  const text =
    JSON.stringify(value, function (this: unknown, key: string, v: unknown) {
      if (key.length > longestKey) longestKey = key.length;
      return v;
    }) ?? '';
  return { bytes: new TextEncoder().encode(text).length, longestKey };
}

/**
 * `schema`, refused past `maxBytes` of JSON or with a key longer than `JSON_LIMITS.keyLength`:
 * free-form documents are stored and served as they come, so their size is bounded here.
 */
export function boundedJson<T extends z.ZodType>(schema: T, maxBytes: number): T {
  return schema.superRefine((value, ctx) => {
    const { bytes, longestKey } = jsonSize(value);
    if (bytes > maxBytes) ctx.addIssue({ code: 'custom', message: `Larger than ${maxBytes} bytes as JSON (${bytes})` });
    if (longestKey > JSON_LIMITS.keyLength) ctx.addIssue({ code: 'custom', message: `A key is longer than ${JSON_LIMITS.keyLength} characters` });
  }) as T;
}

/** A non-negative integer a client sends that is stored in an `integer` column: it must fit. */
export const StoredNonNegativeInt = NonNegativeInt.max(INT32_MAX);

/**
 * A URL the browser can load: absolute `http(s)://...` or a path on our own host (`/uploads/...`),
 * which is what the upload calls return.
 */
export const WebUrl = z.string().max(URL_MAX_LENGTH).refine((value) => /^https?:\/\/\S+$/i.test(value) || /^\/(?!\/)\S*$/.test(value), {
  message: 'Expected an http(s) URL or a path starting with /',
});
export type WebUrl = z.infer<typeof WebUrl>;

/** A string of at most `max` characters: every stored string has a bound (issue 10). */
export function boundedText(max: number) {
  return z.string().max(max);
}

/**
 * A token as an HTTP header carries it: printable ASCII only (a header cannot carry anything else,
 * so a non-Latin-1 token is refused here and never reaches a provider call), at most `max` long.
 */
export function headerToken(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .regex(/^[\x21-\x7e]+$/, 'Expected printable ASCII characters only');
}

/** One field-level problem of a refused request (FastAPI-compatible shape). */
export const ValidationIssue = z.object({
  /** Where the problem is, e.g. `['body', 'email']` or `['query', 'limit']`. */
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  /** Machine-readable kind of problem, e.g. `invalid_type`, `too_big`. */
  type: z.string(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

/**
 * Structured error detail. Extra keys are kept (loose object) so an error can carry context.
 * A duplicate signup is `{ message, type: 'DuplicateSignupError', fields: ['email'] }`.
 */
export const ErrorDetail = z.looseObject({
  message: z.string(),
  /** Error class name, e.g. `DuplicateSignupError`. */
  type: z.string().optional(),
  /** Names of the request fields the error is about. */
  fields: z.array(z.string()).optional(),
});
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** Body of every non-2xx JSON response. */
export const ErrorBody = z.object({
  /** A plain message, a structured detail, or the list of validation issues (422). */
  detail: z.union([z.string(), ErrorDetail, z.array(ValidationIssue)]),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The list envelope used by every collection response: `{ items: [...] }`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item) });
}
