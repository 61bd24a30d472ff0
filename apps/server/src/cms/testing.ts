/**
 * Helpers for the CMS integration tests: a server with a known first admin, and calls through the
 * typed client (`@fanfare/client/cms`), so a test reads answers as the protocol's types.
 */
import { ApiError, createCmsClient, type CallOptions, type CmsClient } from '@fanfare/client/cms';
import { CAMPAIGN_LOGIN_STATE, ErrorBody, type Campaign, type CmsRole, type CreateCampaignBody, type ErrorDetail, type ValidationIssue } from '@fanfare/protocol';
import { startTestServer, type DbTarget, type TestServer } from '../test/harness.ts';
import { appleMusicUserToken } from '../test/logins.ts';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-0123' } as const;
export const EDITOR_PASSWORD = 'editor-password-0123';

/**
 * The answer of a raw call: the body is `unknown` until a test narrows it (zod or explicit checks).
 * For what the typed client cannot send on purpose (invalid input, unknown fields) and for
 * non-API paths (media, OpenAPI documents).
 */
export interface RawReply {
  status: number;
  body: unknown;
  headers: Headers;
  text: string;
}

/** Starts the real server with ADMIN_EMAIL / ADMIN_PASSWORD set. */
export function startCmsServer(db: DbTarget, env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ db, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env } });
}

/**
 * One raw HTTP call to the CMS listener (JSON in, JSON or text out). API calls go through `cmsApi`;
 * use this only for deliberately invalid requests and non-API paths (see `RawReply`).
 */
export async function rawCall(
  ts: TestServer,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit; base?: string } = {},
): Promise<RawReply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined = opts.raw;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(`${opts.base ?? ts.cmsUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, headers: res.headers, text };
}

/** The `detail` of an error body (fails when the body is not `{detail}`). */
export function errorDetail(body: unknown): ErrorBody['detail'] {
  return ErrorBody.parse(body).detail;
}

/** The typed CMS client of `ts`, with a back-office or campaign-account token when given. */
export function cmsApi(ts: TestServer, token?: string | null, opts: { sessionId?: string } = {}): CmsClient {
  return createCmsClient({ baseUrl: ts.cmsUrl, token: () => token, sessionId: opts.sessionId ? () => opts.sessionId : undefined });
}

/** The `ApiError` a call fails with (the test fails when the call succeeds). */
export async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

/** The validation issues of a 422 (`detail` as a list). */
export function issuesOf(e: ApiError): ValidationIssue[] {
  const detail = (e.body as { detail?: unknown } | null)?.detail;
  if (!Array.isArray(detail)) throw new Error(`expected a list of issues, got ${JSON.stringify(e.body)}`);
  return detail as ValidationIssue[];
}

/** The structured detail of an error (`{ message, type, ... }`). */
export function detailOf(e: ApiError): ErrorDetail {
  const detail = (e.body as { detail?: unknown } | null)?.detail;
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) throw new Error(`expected a detail object, got ${JSON.stringify(e.body)}`);
  return detail as ErrorDetail;
}

/** The HTTP status a call answers with: its success status, or the status of its `ApiError`. */
export async function statusOf(run: (opts: CallOptions) => Promise<unknown>): Promise<number> {
  let status = 0;
  try {
    await run({ onResponse: (res) => void (status = res.status) });
    return status;
  } catch (e) {
    if (e instanceof ApiError) return e.status;
    throw e;
  }
}

/** A successful call's answer with its status and headers. */
export async function withResponse<T>(run: (opts: CallOptions) => Promise<T>): Promise<{ data: T; status: number; headers: Headers }> {
  let res: Response | null = null;
  const data = await run({ onResponse: (r) => void (res = r) });
  const seen = res as Response | null;
  if (!seen) throw new Error('no response seen');
  return { data, status: seen.status, headers: seen.headers };
}

/** Logs in and returns the bearer token. */
export async function login(ts: TestServer, email: string, password: string): Promise<string> {
  return (await cmsApi(ts).call('login', { body: { email, password } })).access_token;
}

/** Creates an active user with `roles` (by the admin) and logs them in. */
export async function userWithRoles(ts: TestServer, adminToken: string, email: string, roles: CmsRole[]): Promise<{ id: string; token: string }> {
  const user = await cmsApi(ts, adminToken).call('createUser', { body: { email, password: EDITOR_PASSWORD, roles } });
  return { id: user.id, token: await login(ts, email, EDITOR_PASSWORD) };
}

/** Creates an app and returns its id. */
export async function createApp(ts: TestServer, adminToken: string, name: string, config: Record<string, unknown> = {}): Promise<string> {
  return (await cmsApi(ts, adminToken).call('createApp', { body: { name, config } })).id;
}

/** A campaign to create; `data` is free-form here so tests can pass partial page data the server completes. */
export type CampaignInput = Omit<CreateCampaignBody, 'data'> & { data?: Record<string, unknown> };

/**
 * Creates a campaign and publishes it, so its page and public calls answer visitors (a new
 * campaign is a draft); `publish: false` leaves it a draft.
 */
export async function createCampaign(ts: TestServer, token: string, body: CampaignInput, opts: { publish?: boolean } = {}): Promise<Campaign> {
  const api = cmsApi(ts, token);
  const created = await api.call('createCampaign', { body: body as CreateCampaignBody });
  if (opts.publish === false) return created;
  return api.call('publishCampaign', { params: { id: created.id } });
}

/** Polls `check` until it returns a value, at most `tries` times `everyMs` apart. */
export async function waitFor<T>(check: () => Promise<T | null | undefined>, tries = 100, everyMs = 50): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v != null) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error('condition not met in time');
}

/** The campaign account tokens of a Spotify login through the emulator as `hint`. */
export async function campaignSpotifyAccount(ts: TestServer, campaignId: string, redirectUri: string, hint: string): Promise<string> {
  const start = await cmsApi(ts).call('accountLogin', { params: { id: campaignId, service: 'spotify' }, query: { redirect_uri: redirectUri, state: CAMPAIGN_LOGIN_STATE } });
  const authorize = new URL(start.location!);
  authorize.searchParams.set('login_hint', hint);
  let next = authorize.toString();
  for (let i = 0; i < 5; i++) {
    const res = await fetch(next, { redirect: 'manual' }); // raw: the browser's hops through the consent page
    next = new URL(res.headers.get('location')!, next).toString();
    const url = new URL(next);
    if (url.searchParams.get('access_token')) return url.searchParams.get('access_token')!;
  }
  throw new Error('login did not come back');
}

/** The campaign account token of an Apple Music login through the emulator as `hint`. */
export async function campaignAppleAccount(ts: TestServer, campaignId: string, hint: string): Promise<string> {
  const mut = await appleMusicUserToken(ts.partyUrl, hint);
  return (await cmsApi(ts).call('accountAppleLogin', { params: { id: campaignId }, query: {}, body: { music_user_token: mut } })).access_token;
}
