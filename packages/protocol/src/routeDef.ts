/**
 * The shape of one entry of a route table (`PARTY_ROUTES`, `CMS_ROUTES`). The server registers
 * each route from its entry (validation, auth guard, OpenAPI operation), and the typed client in
 * `@fanfare/client` calls it; a call that is not in a table does not exist.
 */
import type { z } from 'zod';
import type { CmsPermission } from './campaign/permissions.ts';
import type { PartyAbility } from './party/abilities.ts';

/** HTTP methods the APIs use. */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call a route:
 * - `none`: public.
 * - `bearer`: a fan's `Authorization: Bearer <access_token>` (party API).
 * - `bearer_optional`: a fan's bearer is read when present (signup to a party without
 *   `login_required` needs none).
 * - `bearer_host`: a fan bearer whose party role is `host` or `admin` (start additionally follows
 *   `partyStartAllowed`; some calls also accept the CMS token).
 * - `cms`: a back-office user's token (`Authorization: Bearer` or `X-Cms-Token`) of an active user;
 *   with `permission`, one of the user's roles must grant it (`CMS_PERMISSIONS`). On the party API
 *   the token travels as `X-Cms-Token` (the admin tool).
 * - `cms_or_bearer`: the admin tool's `X-Cms-Token`, or a fan bearer whose party role the call
 *   checks (start, stop and end of a party from the app's host controls).
 * - `cms_optional`: no token, or a valid back-office token (`POST /api/users`: register or create).
 * - `account`: a campaign account's token in `Authorization` (access token, or the refresh token
 *   for the refresh call).
 */
export const ROUTE_AUTH = ['none', 'bearer', 'bearer_optional', 'bearer_host', 'cms', 'cms_or_bearer', 'cms_optional', 'account'] as const;
export type RouteAuth = (typeof ROUTE_AUTH)[number];

/**
 * Named rate limits an entry may declare; the server's configuration sets their numbers
 * (`config.abuse`), and a refused call answers 429 with `detail` and `Retry-After`:
 * - `appleLogin`: Apple logins per client address per minute (party and campaign pages).
 * - `anonymousSignup`: party signups without a bearer per client address per 10 minutes (each
 *   would be a fresh fan with a fresh chat quota).
 * - `fanUploads`: uploads per fan per minute, whichever token and node they come through.
 */
export const ROUTE_RATE_LIMITS = ['appleLogin', 'anonymousSignup', 'fanUploads'] as const;
export type RouteRateLimit = (typeof ROUTE_RATE_LIMITS)[number];

/** One call of an API. */
export interface RouteDef {
  method: HttpMethod;
  /** Fastify-style path with `:params` (and a trailing `*` for a wildcard, param `'*'`). */
  path: string;
  auth: RouteAuth;
  /** With `auth: 'cms'`: the permission the caller's roles must grant. */
  permission?: CmsPermission;
  /**
   * On the party API: the ability (`PARTY_ABILITIES`) the caller must hold in the party of the
   * path's `:id`. Checked once the caller is known and the input is valid: 404 for an unknown
   * party, then 403 with the policy's reason. `live.read` binds only on `login_required` parties.
   */
  ability?: PartyAbility;
  /** A rate limit on the call, counted once the caller holds the ability. */
  rateLimit?: RouteRateLimit;
  /**
   * A creating call that is safe to retry: it accepts an `Idempotency-Key` header, and the same
   * key from the same caller within 24 hours answers the first answer again (with
   * `Idempotency-Replayed: true`) and creates nothing new; 409 while the first attempt still
   * runs, 422 for a key reused for another request (decision 0043).
   */
  idempotent?: true;
  /** One line for the OpenAPI document. */
  summary: string;
  /** OpenAPI tag (group). */
  tag?: string;
  /** Path parameters; its keys are exactly the path's `:params`. */
  params?: z.ZodObject;
  query?: z.ZodType;
  /** Request body: JSON, or with `textBody` a string of that content type. Absent for multipart uploads. */
  body?: z.ZodType;
  /** The body is text of this content type (validated by `body`), not JSON. */
  textBody?: 'text/csv';
  /** JSON response of a 2xx answer. Absent means `204 No Content` (or a redirect, or text). */
  response?: z.ZodType;
  /** Status of a successful JSON answer (default 200). */
  status?: 200 | 201 | 202;
  /** The answer is text of this content type (a CSV export, an HTML page), not JSON. */
  textResponse?: 'text/csv' | 'text/html' | 'text/event-stream';
  /** The body is `multipart/form-data` with one file field `file`. */
  multipart?: true;
  /** The answer is a browser redirect (302/303), not JSON. */
  redirect?: true;
  /**
   * Error statuses beyond those the entry implies (the server's OpenAPI documents derive 400,
   * 401, 403, 404, 409, 413, 415, 422, 429 and 503 from method, input and auth), e.g. 502 for a
   * call that reaches a streaming provider or the mail server.
   */
  errors?: readonly (401 | 403 | 409 | 410 | 423 | 502 | 504)[];
}

/** A route table: call name to entry. */
export type RouteTable = Record<string, RouteDef>;
