import { PARTY_ROUTES, type RouteDef } from '@fanfare/protocol';
import type { z } from 'zod';
import { ApiError, type FetchLike } from './http.ts';

type Routes = typeof PARTY_ROUTES;
export type PartyCallName = keyof Routes;

type Infer<T> = T extends z.ZodType ? z.input<T> : never;
type Out<T> = T extends z.ZodType ? z.output<T> : void;

/** The arguments of a call: path params, query and body, each only where the call has one. */
export type CallArgs<R extends RouteDef> = (R extends { params: z.ZodType } ? { params: Infer<R['params']> } : { params?: undefined }) &
  (R extends { query: z.ZodType } ? { query?: Infer<R['query']> } : { query?: undefined }) &
  (R extends { body: z.ZodType } ? { body: Infer<R['body']> } : { body?: undefined }) & { form?: FormData };

export type CallResult<R extends RouteDef> = R extends { response: z.ZodType } ? Out<R['response']> : void;

export interface PartyClientOptions {
  baseUrl: string;
  /** The fan's bearer token. */
  accessToken?: string | null;
  /** A back-office token for admin calls (`X-Cms-Token`). */
  cmsToken?: string | null;
  fetch?: FetchLike;
}

/**
 * A typed client for every call of the party API, built on the protocol's route table. Errors are
 * `ApiError` with the HTTP status and the body. Redirect calls are not followed.
 */
export class PartyClient {
  constructor(readonly options: PartyClientOptions) {}

  withAccessToken(accessToken: string | null): PartyClient {
    return new PartyClient({ ...this.options, accessToken });
  }

  async call<N extends PartyCallName>(name: N, args: CallArgs<Routes[N]>): Promise<CallResult<Routes[N]>> {
    const route = PARTY_ROUTES[name] as RouteDef;
    const url = new URL(this.options.baseUrl.replace(/\/$/, '') + fillPath(route.path, args.params as Record<string, unknown> | undefined));
    for (const [k, v] of Object.entries((args.query ?? {}) as Record<string, unknown>)) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.accessToken) headers.authorization = `Bearer ${this.options.accessToken}`;
    if (this.options.cmsToken) headers['x-cms-token'] = this.options.cmsToken;
    let body: BodyInit | undefined;
    if (args.form) body = args.form;
    else if (args.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    const doFetch = this.options.fetch ?? fetch;
    const res = await doFetch(url.toString(), { method: route.method, headers, body, redirect: 'manual' });
    const text = await res.text();
    const parsed = text ? safeJson(text) : null;
    if (res.status >= 400) throw new ApiError(res.status, parsed as never, url.toString());
    if (!route.response || res.status === 204) return undefined as CallResult<Routes[N]>;
    return route.response.parse(parsed) as CallResult<Routes[N]>;
  }
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
