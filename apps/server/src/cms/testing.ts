/* eslint-disable @typescript-eslint/no-explicit-any -- test replies are read loosely */
/** Helpers for the CMS integration tests: a server with a known first admin, and plain HTTP calls. */
import { startTestServer, type DbTarget, type TestServer } from '../test/harness.ts';

export const ADMIN = { email: 'admin@example.com', password: 'admin-password-0123' } as const;
export const EDITOR_PASSWORD = 'editor-password-0123';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

/** Starts the real server with ADMIN_EMAIL / ADMIN_PASSWORD set. */
export function startCmsServer(db: DbTarget, env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ db, env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env } });
}

/** One HTTP call to the CMS listener (JSON in, JSON or text out). */
export async function call<T = any>(
  ts: TestServer,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit; base?: string } = {},
): Promise<Reply<T>> {
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
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

/** Logs in and returns the bearer token. */
export async function login(ts: TestServer, email: string, password: string): Promise<string> {
  const r = await call(ts, 'POST', '/api/users/login', { body: { email, password } });
  if (r.status !== 200) throw new Error(`login ${email} failed: ${r.status} ${r.text}`);
  return r.body.access_token as string;
}

/** Creates an active user with `roles` (by the admin) and logs them in. */
export async function userWithRoles(ts: TestServer, adminToken: string, email: string, roles: string[]): Promise<{ id: string; token: string }> {
  const r = await call(ts, 'POST', '/api/users', { token: adminToken, body: { email, password: EDITOR_PASSWORD, roles } });
  if (r.status !== 201) throw new Error(`create ${email} failed: ${r.status} ${r.text}`);
  return { id: r.body.id, token: await login(ts, email, EDITOR_PASSWORD) };
}

/** Creates an app and returns its id. */
export async function createApp(ts: TestServer, adminToken: string, name: string, config: unknown = {}): Promise<string> {
  const r = await call(ts, 'POST', '/api/apps', { token: adminToken, body: { name, config } });
  if (r.status !== 201) throw new Error(`create app failed: ${r.status} ${r.text}`);
  return r.body.id as string;
}

/** Creates a campaign and returns it. */
export async function createCampaign(ts: TestServer, token: string, body: Record<string, unknown>): Promise<any> {
  const r = await call(ts, 'POST', '/api/campaigns', { token, body });
  if (r.status !== 201) throw new Error(`create campaign failed: ${r.status} ${r.text}`);
  return r.body;
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
