/**
 * One typed client for any route table of `@fanfare/protocol` (`PARTY_ROUTES`, `CMS_ROUTES`).
 * Runs in browsers and Node (global `fetch`, `AbortController`, `URL`; nothing else). Each entry
 * point imports only its own table, so a bundle carries only the API it calls.
 */
import type { RouteDef, RouteTable } from '@fanfare/protocol';
import type { z } from 'zod';
import { ApiError, type FetchLike } from './http.ts';

type In<T> = T extends z.ZodType ? z.input<T> : never;
type Out<T> = T extends z.ZodType ? z.output<T> : never;
/** `{ key: T }`, or `{ key?: T }` when T may be left out. */
type Field<K extends string, T> = undefined extends T ? { [P in K]?: T } : Record<never, never> extends T ? { [P in K]?: T } : { [P in K]: T };

/** The arguments of a call: path params, query, body (or form), each only where the call has one. */
export type CallArgs<R extends RouteDef> = (R extends { params: z.ZodType } ? Field<'params', In<R['params']>> : { params?: undefined }) &
  (R extends { query: z.ZodType } ? Field<'query', In<R['query']>> : { query?: undefined }) &
  (R extends { body: z.ZodType } ? Field<'body', In<R['body']>> : { body?: undefined }) &
  (R extends { multipart: true } ? { form: FormData } : { form?: undefined });

/** Where a redirect call sends the browser (status 0 and no location in browsers: opaque). */
export interface RedirectResult {
  status: number;
  location: string | null;
}

/** What a call resolves to: the parsed JSON, the text, the redirect, or nothing (204). */
export type CallResult<R extends RouteDef> = R extends { response: z.ZodType }
  ? Out<R['response']>
  : R extends { textResponse: string }
    ? string
    : R extends { redirect: true }
      ? RedirectResult
      : void;

/** `[args]` when the call needs some, else `[args?]`; then per-call options. */
export type CallRest<R extends RouteDef> = Record<never, never> extends CallArgs<R> ? [args?: CallArgs<R>, options?: CallOptions] : [args: CallArgs<R>, options?: CallOptions];

type MaybePromise<T> = T | Promise<T>;

export interface ApiClientOptions {
  /** Origin (and optional path prefix) of the API, e.g. `http://127.0.0.1:1337`. */
  baseUrl: string;
  /** The current token, sent as `Authorization: Bearer <token>` on every call that includes it. */
  token?: () => MaybePromise<string | null | undefined>;
  /** Extra headers for every call, e.g. `{ 'x-cms-token': ... }` for party admin calls. */
  headers?: () => Record<string, string | null | undefined>;
  /** A session id sent as `x-session-id` (tracking of the campaign pages). */
  sessionId?: () => string | null | undefined;
  /** Milliseconds before a call is aborted; none by default (campaign spec section 9). */
  timeoutMs?: number;
  fetch?: FetchLike;
  /** Check 2xx JSON answers against the table's response schema (default true). */
  validateResponse?: boolean;
  /**
   * Safe retries (default 0): a call whose entry is `idempotent` sends one `Idempotency-Key` for
   * the call and tries again up to this many times, with growing delays, after a 503, a lost
   * answer (network error, timeout), or a 409 with `Retry-After` (its first attempt still runs).
   * A replayed answer (`Idempotency-Replayed: true`) is final.
   */
  retries?: number;
}

export interface CallOptions {
  /** `false`: do not send the token on this call (e.g. a self-registration). */
  includeToken?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call (0: none). */
  timeoutMs?: number;
  /** Sees the raw answer (status, headers) before it is read; e.g. for a test's assertions. */
  onResponse?: (response: Response) => void;
  /** The `Idempotency-Key` of an idempotent call (default: a new one per call when `retries` is set). */
  idempotencyKey?: string;
}

export interface ApiClient<T extends RouteTable> {
  readonly options: ApiClientOptions;
  /** Calls `name`; resolves to its typed answer, rejects with `ApiError`. */
  call<N extends keyof T & string>(name: N, ...rest: CallRest<T[N]>): Promise<CallResult<T[N]>>;
  /** The absolute URL of a call, e.g. to navigate the browser to a redirect call. */
  url<N extends keyof T & string>(name: N, args?: CallArgs<T[N]>): string;
  /** The same client with other options (e.g. another token). */
  with(options: Partial<ApiClientOptions>): ApiClient<T>;
}

/** Builds a client for `table`. */
export function createApiClient<T extends RouteTable>(table: T, options: ApiClientOptions): ApiClient<T> {
  const buildUrl = (route: RouteDef, args: LooseArgs | undefined): string => {
    const url = new URL(options.baseUrl.replace(/\/$/, '') + fillPath(route.path, args?.params));
    for (const [k, v] of Object.entries(args?.query ?? {})) {
      if (v === undefined || v === null) continue;
      for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, String(item));
    }
    return url.toString();
  };

  const call = async (name: string, args?: LooseArgs, callOptions: CallOptions = {}): Promise<unknown> => {
    const route = table[name];
    if (!route) throw new Error(`Unknown call ${name}`);
    const url = buildUrl(route, args);
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [k, v] of Object.entries(options.headers?.() ?? {})) if (v) headers[k.toLowerCase()] = v;
    if (callOptions.includeToken !== false && options.token) {
      const token = await options.token();
      if (token) headers.authorization = `Bearer ${token}`;
    }
    const sessionId = options.sessionId?.();
    if (sessionId) headers['x-session-id'] = sessionId;
    let body: BodyInit | undefined;
    if (args?.form) body = args.form;
    else if (args?.body !== undefined) {
      headers['content-type'] = route.textBody ?? 'application/json';
      body = route.textBody ? String(args.body) : JSON.stringify(args.body);
    }
    const retries = route.idempotent ? (options.retries ?? 0) : 0;
    const key = route.idempotent ? (callOptions.idempotencyKey ?? (retries > 0 ? newKey() : undefined)) : undefined;
    if (key) headers['idempotency-key'] = key;
    for (const [k, v] of Object.entries(callOptions.headers ?? {})) headers[k.toLowerCase()] = v;

    let res: Response | undefined;
    for (let attempt = 0; ; attempt++) {
      let wait = 0;
      res = undefined;
      try {
        res = await send(options, url, { method: route.method, headers, body, redirect: 'manual' }, callOptions);
        if (res.headers.get('idempotency-replayed') !== 'true' && (res.status === 503 || (res.status === 409 && res.headers.has('retry-after')))) wait = retryDelay(attempt, res);
      } catch (e) {
        if (attempt >= retries || (e as ApiError).kind === 'aborted') throw e;
        wait = retryDelay(attempt, null);
      }
      if (res && (!wait || attempt >= retries)) break;
      void res?.body?.cancel().catch(() => undefined);
      await new Promise((r) => setTimeout(r, wait));
    }
    callOptions.onResponse?.(res);
    if (route.redirect && (res.type === 'opaqueredirect' || (res.status >= 300 && res.status < 400))) {
      return { status: res.status, location: res.headers.get('location') } satisfies RedirectResult;
    }
    const text = await res.text();
    const parsed = text ? parseJsonOrText(text) : null;
    if (res.status < 200 || res.status >= 300) {
      throw new ApiError(res.status, parsed as ApiError['body'], url, { statusText: res.statusText, headers: res.headers });
    }
    if (route.textResponse) return text;
    if (!route.response || res.status === 204) return undefined;
    if (options.validateResponse === false) return parsed;
    const checked = route.response.safeParse(parsed);
    if (!checked.success) {
      throw new ApiError(res.status, null, url, {
        kind: 'invalid_response',
        message: `Invalid response of ${name}: ${checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      });
    }
    return checked.data;
  };

  return {
    options,
    call: call as ApiClient<T>['call'],
    url: (name, args) => buildUrl(table[name] as RouteDef, args as LooseArgs | undefined),
    with: (more) => createApiClient(table, { ...options, ...more }),
  };
}

/** A new `Idempotency-Key`: 128 random bits (works outside secure contexts, unlike `randomUUID`). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Milliseconds before retry `attempt + 1`: `Retry-After` when given, else 0.4, 1.2, 3.6 s... (at most 10 s), jittered. */
export function retryDelay(attempt: number, res: Response | null): number {
  const after = Number(res?.headers.get('retry-after'));
  const base = after > 0 ? after * 1000 : 400 * 3 ** attempt;
  return Math.min(10_000, base) * (0.75 + Math.random() / 2);
}

interface LooseArgs {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  form?: FormData;
}

/** One fetch with the optional timeout and the caller's abort signal, errors as `ApiError`. */
async function send(options: ApiClientOptions, url: string, init: RequestInit, callOptions: CallOptions): Promise<Response> {
  const timeoutMs = callOptions.timeoutMs ?? options.timeoutMs ?? 0;
  const controller = new AbortController();
  let timedOut = false;
  const timer = timeoutMs > 0 ? setTimeout(() => ((timedOut = true), controller.abort()), timeoutMs) : null;
  const onAbort = () => controller.abort();
  if (callOptions.signal?.aborted) controller.abort();
  callOptions.signal?.addEventListener('abort', onAbort, { once: true });
  const doFetch: FetchLike = options.fetch ?? ((input, req) => globalThis.fetch(input, req));
  try {
    return await doFetch(url, { ...init, signal: controller.signal });
  } catch (e) {
    if (timedOut) throw new ApiError(0, null, url, { kind: 'timeout', message: `timeout of ${timeoutMs}ms exceeded` });
    if (controller.signal.aborted) throw new ApiError(0, null, url, { kind: 'aborted', message: 'Request aborted' });
    throw new ApiError(0, null, url, { kind: 'network', message: 'Network Error', statusText: e instanceof Error ? e.message : '' });
  } finally {
    if (timer) clearTimeout(timer);
    callOptions.signal?.removeEventListener('abort', onAbort);
  }
}

/** Fills `:params` (encoded) and a trailing `*` (each segment encoded, slashes kept). */
function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  const need = (key: string): string => {
    const value = params?.[key];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${key}`);
    return String(value);
  };
  return path
    .replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(need(key)))
    .replace(/\*$/, () => need('*').split('/').map(encodeURIComponent).join('/'));
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
