import { describe, expect, it } from 'vitest';
import { createCmsClient, type CmsClient } from './cms.ts';
import { ApiError, errorMessage, type FetchLike } from './http.ts';

interface Seen {
  url?: string;
  init?: RequestInit;
}

function reply(status: number, body: unknown, seen: Seen = {}, init: ResponseInit = {}): FetchLike {
  return async (url, req) => {
    seen.url = url;
    seen.init = req;
    const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(text, { status, ...init });
  };
}

const headersOf = (seen: Seen) => seen.init?.headers as Record<string, string>;

const campaign = {
  id: 'c1',
  app_id: 'a1',
  name: 'Launch',
  slug: 'launch',
};

describe('campaign spec §8: a service error carries status, url and body; the message comes from detail', () => {
  it('takes the message of a detail string', async () => {
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(404, { detail: 'No such campaign' }) });
    const err = await cms.call('getCampaign', { params: { id: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, url: 'http://cms/api/campaigns/x', body: { detail: 'No such campaign' }, message: 'No such campaign', kind: 'http' });
  });
  it('takes the message of a detail object', () => {
    expect(errorMessage(409, { detail: { message: 'Locked by Ann', type: 'CampaignLockedError' } }, 'Conflict')).toBe('Locked by Ann');
  });
  it('joins the location and message of each item of a detail list', () => {
    const body = { detail: [{ loc: ['body', 'email'], msg: 'Invalid email', type: 'x' }, { loc: ['query', 'limit'], msg: 'Too big', type: 'y' }] };
    expect(errorMessage(422, body, 'Unprocessable Entity')).toBe('body.email: Invalid email; query.limit: Too big');
  });
  it('falls back to the status text, then to "Request failed with status code N"', async () => {
    expect(errorMessage(502, '<html>bad gateway</html>', 'Bad Gateway')).toBe('Bad Gateway');
    expect(errorMessage(500, { other: 1 }, '')).toBe('Request failed with status code 500');
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(503, 'down', {}, { statusText: 'Service Unavailable' }) });
    await expect(cms.call('getGeo')).rejects.toMatchObject({ status: 503, body: 'down', message: 'Service Unavailable' });
  });
  it('says "Network Error" when no answer came', async () => {
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: () => Promise.reject(new TypeError('fetch failed')) });
    await expect(cms.call('getGeo')).rejects.toMatchObject({ status: 0, kind: 'network', message: 'Network Error', url: 'http://cms/api/i18n/geo' });
  });
  it('says "Request aborted" when the caller aborts', async () => {
    const hang: FetchLike = (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: hang });
    const abort = new AbortController();
    const pending = cms.call('getGeo', {}, { signal: abort.signal });
    abort.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', message: 'Request aborted' });
  });
  it('rejects a 2xx answer that breaks the response schema', async () => {
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(200, { exists: 'yes' }) });
    await expect(cms.call('slugExists', { params: { app: 'a', slug: 's' } })).rejects.toMatchObject({ kind: 'invalid_response' });
  });
});

describe('campaign spec §9: HTTP timeout none by default', () => {
  it('does not abort a call when no timeout is set', async () => {
    let signal: AbortSignal | undefined;
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: async (url, init) => ((signal = init?.signal ?? undefined), reply(200, { exists: true })(url, init)) });
    expect(await cms.call('slugExists', { params: { app: 'a', slug: 's' } })).toEqual({ exists: true });
    expect(signal?.aborted).toBe(false);
  });
  it('aborts with "timeout of Nms exceeded" when a timeout is set', async () => {
    const hang: FetchLike = (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: hang, timeoutMs: 5 });
    await expect(cms.call('getGeo')).rejects.toMatchObject({ kind: 'timeout', message: 'timeout of 5ms exceeded', status: 0 });
  });
});

describe('CMS client options: token getter, includeToken, session id', () => {
  const ok = (seen: Seen): CmsClient =>
    createCmsClient({ baseUrl: 'http://cms/', token: async () => 'tok', sessionId: () => 'sess-1', fetch: reply(200, { exists: false }, seen) });

  it('sends the token as a bearer and the session id as x-session-id', async () => {
    const seen: Seen = {};
    await ok(seen).call('slugExists', { params: { app: 'my app', slug: 'a/b' } });
    expect(seen.url).toBe('http://cms/api/campaigns/my%20app/a%2Fb/exists');
    expect(headersOf(seen)).toMatchObject({ authorization: 'Bearer tok', 'x-session-id': 'sess-1' });
  });
  it('leaves the token out with includeToken: false', async () => {
    const seen: Seen = {};
    await ok(seen).call('slugExists', { params: { app: 'a', slug: 'b' } }, { includeToken: false });
    expect(headersOf(seen).authorization).toBeUndefined();
  });
  it('sends no header for a missing token or session id', async () => {
    const seen: Seen = {};
    await createCmsClient({ baseUrl: 'http://cms', token: () => null, fetch: reply(200, { exists: false }, seen) }).call('slugExists', { params: { app: 'a', slug: 'b' } });
    expect(headersOf(seen).authorization).toBeUndefined();
    expect(headersOf(seen)['x-session-id']).toBeUndefined();
  });
  it('with() makes a client with other options', async () => {
    const seen: Seen = {};
    await ok(seen).with({ token: () => 'other' }).call('slugExists', { params: { app: 'a', slug: 'b' } });
    expect(headersOf(seen).authorization).toBe('Bearer other');
  });
});

describe('CMS client calls: bodies, queries, text, redirects, wildcards', () => {
  it('sends JSON bodies and reads the typed answer', async () => {
    const seen: Seen = {};
    const answer = { ...campaign };
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(200, answer, seen) });
    await cms.call('patchCampaign', { params: { id: 'c1' }, body: { name: 'New' } }).catch(() => undefined);
    expect(seen.init?.method).toBe('POST');
    expect(seen.url).toBe('http://cms/api/campaigns/c1/patch');
    expect(headersOf(seen)['content-type']).toBe('application/json');
    expect(JSON.parse(String(seen.init?.body))).toEqual({ name: 'New' });
  });
  it('sends a CSV body as text/csv and adds the query', async () => {
    const seen: Seen = {};
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(200, { product_id: 'p', added: 1, updated: 0 }, seen) });
    const got = await cms.call('uploadAccessCodes', { params: { product_id: 'p' }, query: { max_uses: 3 }, body: 'ABC\n' });
    expect(got).toEqual({ product_id: 'p', added: 1, updated: 0 });
    expect(seen.url).toBe('http://cms/api/token_gate/products/p/codes?max_uses=3');
    expect(headersOf(seen)['content-type']).toBe('text/csv');
    expect(seen.init?.body).toBe('ABC\n');
  });
  it('answers a text call with the text', async () => {
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(200, 'email\na@b.c\n') });
    expect(await cms.call('exportSubscribers', { query: { newsletter_id: 'n' } })).toBe('email\na@b.c\n');
  });
  it('answers a redirect call with status and location, without following it', async () => {
    const seen: Seen = {};
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(303, undefined, seen, { headers: { location: 'https://page/?newsletter_state=success' } }) });
    expect(await cms.call('confirmNewsletterSubmit', { body: { token: 't' } })).toEqual({ status: 303, location: 'https://page/?newsletter_state=success' });
    expect(seen.init?.redirect).toBe('manual');
  });
  it('builds the URL of a call for browser navigation', () => {
    const cms = createCmsClient({ baseUrl: 'http://cms' });
    expect(cms.url('accountLogin', { params: { id: 'c1', service: 'spotify' }, query: { redirect_uri: 'https://p/x?y=1' } })).toBe(
      'http://cms/api/campaigns/c1/auth/spotify/login?redirect_uri=https%3A%2F%2Fp%2Fx%3Fy%3D1',
    );
  });
  it('fills a wildcard path segment by segment', async () => {
    const seen: Seen = {};
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(204, undefined, seen) });
    await cms.call('deleteFolder', { params: { '*': 'covers/new one' } });
    expect(seen.url).toBe('http://cms/api/uploads/folders/covers/new%20one');
    expect(seen.init?.method).toBe('DELETE');
  });
  it('resolves a 204 call to undefined', async () => {
    const cms = createCmsClient({ baseUrl: 'http://cms', fetch: reply(204, undefined) });
    expect(await cms.call('deleteCampaign', { params: { id: 'c1' } })).toBeUndefined();
  });
});
