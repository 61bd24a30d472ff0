import { PARTY_ROUTES } from '@fanfare/protocol';
import { createApiClient, type ApiClient, type ApiClientOptions, type CallArgs, type CallOptions, type CallResult } from './apiClient.ts';
import type { FetchLike } from './http.ts';

type Routes = typeof PARTY_ROUTES;
export type PartyCallName = keyof Routes;
export type PartyApiClient = ApiClient<Routes>;

/** A client of the party API built on `PARTY_ROUTES` (see `createApiClient` for the options). */
export function createPartyClient(options: ApiClientOptions): PartyApiClient {
  return createApiClient(PARTY_ROUTES, options);
}

export interface PartyClientOptions {
  baseUrl: string;
  /** The fan's bearer token. */
  accessToken?: string | null;
  /** A back-office token for admin calls (`X-Cms-Token`). */
  cmsToken?: string | null;
  fetch?: FetchLike;
  timeoutMs?: number;
  /** Safe retries of creating calls (see `ApiClientOptions.retries`). */
  retries?: number;
}

/**
 * The party API with fixed tokens (a fan's bearer and/or the admin tool's `X-Cms-Token`), as the
 * party app and the tests use it. Errors are `ApiError`. Redirect calls are not followed.
 */
export class PartyClient {
  private readonly api: PartyApiClient;

  constructor(readonly options: PartyClientOptions) {
    this.api = createPartyClient({
      baseUrl: options.baseUrl,
      token: () => options.accessToken,
      headers: () => ({ 'x-cms-token': options.cmsToken }),
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
    });
  }

  withAccessToken(accessToken: string | null): PartyClient {
    return new PartyClient({ ...this.options, accessToken });
  }

  call<N extends PartyCallName>(name: N, ...rest: Record<never, never> extends CallArgs<Routes[N]> ? [args?: CallArgs<Routes[N]>, options?: CallOptions] : [args: CallArgs<Routes[N]>, options?: CallOptions]): Promise<CallResult<Routes[N]>> {
    return this.api.call(name, ...rest);
  }

  url<N extends PartyCallName>(name: N, args?: CallArgs<Routes[N]>): string {
    return this.api.url(name, args);
  }
}
