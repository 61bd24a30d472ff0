import { describe, expect, it } from 'vitest';
import { ApiError } from './http.ts';
import { PartyClient } from './partyClient.ts';

function fakeFetch(status: number, body: unknown, seen: { url?: string; init?: RequestInit } = {}) {
  return async (url: string, init?: RequestInit) => {
    seen.url = url;
    seen.init = init;
    return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
}

describe('PartyClient (spec 8: REST failures carry the HTTP status and response body)', () => {
  it('raises ApiError with status and parsed body on a failure', async () => {
    const client = new PartyClient({ baseUrl: 'http://x', fetch: fakeFetch(409, { detail: { message: 'taken', type: 'DuplicateSignupError', fields: ['email'] } }) });
    const err = await client.call('signup', { params: { id: 'p' }, body: { real_name: 'a', display_name: 'b' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).body).toMatchObject({ detail: { fields: ['email'] } });
  });

  it('fills path params, sends the bearer and CMS headers, and validates the response with the protocol schema', async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    const client = new PartyClient({ baseUrl: 'http://x/', accessToken: 'tok', cmsToken: 'cms', fetch: fakeFetch(200, { token: 't', expires_at: 5 }, seen) });
    expect(await client.call('getServiceToken', {})).toEqual({ token: 't', expires_at: 5 });
    expect(seen.url).toBe('http://x/api/users/me/service_token');
    const headers = seen.init?.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok');
    expect(headers['x-cms-token']).toBe('cms');
    const bad = new PartyClient({ baseUrl: 'http://x', fetch: fakeFetch(200, { token: 5 }) });
    await expect(bad.call('getServiceToken', {})).rejects.toThrow();
  });

  it('encodes path parameters', async () => {
    const seen: { url?: string } = {};
    const client = new PartyClient({ baseUrl: 'http://x', fetch: fakeFetch(204, undefined, seen) });
    await client.call('deleteGrantByToken', { params: { id: 'a b', token: 't/1' } });
    expect(seen.url).toBe('http://x/api/parties/a%20b/grants/t%2F1');
  });
});
