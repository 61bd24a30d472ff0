import { ApiError, PartyClient } from '@fanfare/client';
import { DUPLICATE_SIGNUP_ERROR, ErrorBody, SERVICE_TOKEN_REFRESH_WINDOW_MS } from '@fanfare/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_FANS } from '../../providers/emulators/demoFans.ts';
import { DB_TARGETS, TEST_CMS_TOKEN, startTestServer, type TestServer } from '../../test/harness.ts';
import { loginWithApple, loginWithSpotify, spotifyRedirectChain } from '../../test/logins.ts';

const fan = (hint: string) => DEMO_FANS.find((f) => f.hint === hint)!;

async function expectApiError(p: Promise<unknown>, status: number): Promise<ApiError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(status);
  return err as ApiError;
}

describe.each(DB_TARGETS)('fan identity on %s', (db) => {
  let t: TestServer;
  let anon: PartyClient;
  const client = (accessToken?: string) => new PartyClient({ baseUrl: t.partyUrl, accessToken });
  const cms = () => new PartyClient({ baseUrl: t.partyUrl, cmsToken: TEST_CMS_TOKEN });

  beforeAll(async () => {
    t = await startTestServer({ db });
    anon = client();
  });
  afterAll(async () => t?.close());

  describe('Spotify redirect login (spec 4 login flow, 7 users and login)', () => {
    it('completes the whole round trip and lands on redirect_uri with access_token, service_token, service_expires_at, auth_service', async () => {
      const login = await loginWithSpotify(t.partyUrl, 'demo-fan');
      expect(login.finalUrl.searchParams.get('auth_service')).toBe('spotify');
      expect(login.serviceExpiresAt).toBeGreaterThan(Date.now());
      const me = await client(login.accessToken).call('getSystemMe', {});
      expect(me).toMatchObject({ service: 'spotify', service_user_id: fan('demo-fan').spotifyId, display_name: 'Demo Fan', premium: true });
    });

    it('puts the result in the fragment when hash_output=true', async () => {
      const end = await spotifyRedirectChain(t.partyUrl, 'lena', { hashOutput: true });
      expect(end.searchParams.get('access_token')).toBeNull();
      expect(new URLSearchParams(end.hash.slice(1)).get('access_token')).toBeTruthy();
    });

    it('returns error and auth_service when the fan cancels at the provider', async () => {
      const end = await spotifyRedirectChain(t.partyUrl, null);
      expect(end.searchParams.get('error')).toBe('access_denied');
      expect(end.searchParams.get('auth_service')).toBe('spotify');
      expect(end.searchParams.get('access_token')).toBeNull();
    });

    it('refuses a redirect_uri on a foreign origin and never redirects to it', async () => {
      // A 400 answer, not a redirect: the client throws instead of returning a location.
      const err = await expectApiError(anon.call('spotifyLogin', { query: { redirect_uri: 'https://evil.example/steal' } }), 400);
      expect(ErrorBody.parse(err.body).detail).toMatch(/redirect_uri/);
    });

    it('refuses a callback whose OAuth state was tampered with', async () => {
      await expectApiError(anon.call('spotifyCallback', { query: { code: 'x', state: 'eyJhIjoxfQ.forged' } }), 400);
    });
  });

  describe('Apple login (spec 7: POST /api/auth/apple/login)', () => {
    it('exchanges a music user token for an access token, the same fan each time', async () => {
      const a = await loginWithApple(t.partyUrl, 'sam');
      const b = await loginWithApple(t.partyUrl, 'sam');
      const [meA, meB] = await Promise.all([client(a).call('getSystemMe', {}), client(b).call('getSystemMe', {})]);
      expect(meA.service).toBe('apple');
      expect(meA.id).toBe(meB.id);
      expect(meA.country).toBe('gb');
    });

    it('hands the music user token back to an allowed redirect_uri when MusicKit is not on the page (emulator)', async () => {
      const back = `${t.partyUrl}/p/demo/#/register`;
      // The emulator's consent step is a provider page, not an API route: raw fetch.
      const res = await fetch(`${t.partyUrl}/emulator/apple/authorize?login_hint=lena&redirect_uri=${encodeURIComponent(back)}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const to = new URL(res.headers.get('location')!);
      expect(to.origin + to.pathname + to.hash).toBe(back);
      const token = await anon.call('appleLogin', { body: { music_user_token: to.searchParams.get('music_user_token')! } });
      expect(token.access_token).toBeTruthy();
      const foreign = await fetch(`${t.partyUrl}/emulator/apple/authorize?login_hint=lena&redirect_uri=${encodeURIComponent('https://evil.example/')}`, { redirect: 'manual' });
      expect(foreign.status).toBe(400);
      expect(foreign.headers.get('location')).toBeNull();
    });

    it('answers 401 to a music user token Apple refuses (client logs out, spec 8)', async () => {
      await expectApiError(anon.call('appleLogin', { body: { music_user_token: 'not-a-token' } }), 401);
    });

    it('returns the music user token as the service token, without expiry', async () => {
      const token = await loginWithApple(t.partyUrl, 'lena');
      const st = await client(token).call('getServiceToken', {});
      expect(st.expires_at).toBeNull();
      expect(st.token.length).toBeGreaterThan(10);
    });
  });

  describe('profiles and signup (spec 4 login flow, 5 validation, 8 errors)', () => {
    it('answers 401 without a token and with an unknown token', async () => {
      await expectApiError(anon.call('getSystemMe', {}), 401);
      await expectApiError(client('unknown-token').call('getPartyMe', { params: { id: 'demo' } }), 401);
    });

    it('answers 403 on the party profile until the fan signed up, then returns it', async () => {
      const { accessToken } = await loginWithSpotify(t.partyUrl, 'sam');
      const sam = client(accessToken);
      await expectApiError(sam.call('getPartyMe', { params: { id: 'demo' } }), 403);
      // Asked with the party, the system profile says "not signed up" with no 403 to log.
      const before = await sam.call('getSystemMe', { query: { party_id: 'demo' } });
      expect(before).toMatchObject({ service: 'spotify', party_user: null });
      expect('party_user' in (await sam.call('getSystemMe', {}))).toBe(false);
      const res = await sam.call('signup', {
        params: { id: 'demo' },
        body: { real_name: 'Sam Example', display_name: 'sam', email: 'sam@example.com', country: 'GB', competition_accepted: true },
      });
      expect(res.access_token).toBeNull();
      const me = await sam.call('getPartyMe', { params: { id: 'demo' } });
      expect(me).toMatchObject({ id: res.id, display_name: 'sam', country: 'gb', role: 'listener', can_chat: true, is_subscribed: true, service: 'spotify' });
      expect((await sam.call('getSystemMe', { query: { party_id: 'demo' } })).party_user).toEqual(me);
      await expectApiError(sam.call('getSystemMe', { query: { party_id: 'no-such-party' } }), 404);
    });

    it('omits an empty country and email (spec 5) and stores them as absent', async () => {
      const { accessToken } = await loginWithSpotify(t.partyUrl, 'host-hanna');
      const hanna = client(accessToken);
      await hanna.call('signup', { params: { id: 'demo' }, body: { real_name: 'Hanna', display_name: 'hanna', email: '', country: '' } });
      const me = await hanna.call('getPartyMe', { params: { id: 'demo' } });
      expect(me.email).toBeNull();
      expect(me.country).toBeNull();
    });

    it('answers 409 DuplicateSignupError naming email, then display_name (errorDuplicateEmail / errorDuplicateUserName)', async () => {
      const first = client((await loginWithSpotify(t.partyUrl, 'demo-fan')).accessToken);
      await first.call('signup', { params: { id: 'demo' }, body: { real_name: 'D', display_name: 'dupe-name', email: 'dupe@example.com' } });
      const second = client((await loginWithSpotify(t.partyUrl, 'lena')).accessToken);
      const byEmail = await expectApiError(
        second.call('signup', { params: { id: 'demo' }, body: { real_name: 'L', display_name: 'lena-unique', email: 'dupe@example.com' } }),
        409,
      );
      expect(byEmail.body).toMatchObject({ detail: { type: DUPLICATE_SIGNUP_ERROR, fields: ['email'] } });
      const byName = await expectApiError(
        second.call('signup', { params: { id: 'demo' }, body: { real_name: 'L', display_name: 'dupe-name', email: 'lena@example.com' } }),
        409,
      );
      expect(byName.body).toMatchObject({ detail: { type: DUPLICATE_SIGNUP_ERROR, fields: ['display_name'] } });
      // Nothing of the refused signups was stored.
      await expectApiError(second.call('getPartyMe', { params: { id: 'demo' } }), 403);
    });

    it('answers 422 naming the field for a malformed body, and stores nothing', async () => {
      const lena = client((await loginWithSpotify(t.partyUrl, 'lena')).accessToken);
      const err = await expectApiError(lena.call('signup', { params: { id: 'demo' }, body: { real_name: 'L', display_name: 'x', email: 'not-an-email' } }), 422);
      expect(err.body).toMatchObject({ detail: [{ loc: ['body', 'email'] }] });
      // Broken JSON cannot be sent through the typed client: a raw-protocol check.
      const raw = await fetch(`${t.partyUrl}/api/parties/demo/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"real_name":' });
      expect(raw.status).toBe(400);
      expect(ErrorBody.safeParse(await raw.json()).success).toBe(true);
      await expectApiError(lena.call('getPartyMe', { params: { id: 'demo' } }), 403);
    });

    it('requires a login for signup when login_required is true (spec loginRequired default true)', async () => {
      await expectApiError(anon.call('signup', { params: { id: 'demo' }, body: { real_name: 'A', display_name: 'anon' } }), 401);
    });

    it('signs up without login and returns an access_token when login_required is false', async () => {
      const now = Date.now();
      await t.server.ctx.db
        .insertInto('parties')
        .values({ id: 'open-party', name: 'Open', created_at: now, updated_at: now, started_at: null, starts_at: now, ends_at: null, voting_enabled: 1, auto_start: 0, wp_post_id: null, login_required: 0, frontend: '{}', follow: '[]', music: null })
        .execute();
      const res = await anon.call('signup', { params: { id: 'open-party' }, body: { real_name: 'Guest', display_name: 'guest' } });
      expect(res.access_token).toBeTruthy();
      const me = await client(res.access_token!).call('getPartyMe', { params: { id: 'open-party' } });
      expect(me).toMatchObject({ id: res.id, service: null, display_name: 'guest' });
    });

    it('answers 404 for signup to an unknown party', async () => {
      const lena = client((await loginWithSpotify(t.partyUrl, 'lena')).accessToken);
      await expectApiError(lena.call('signup', { params: { id: 'no-such-party' }, body: { real_name: 'L', display_name: 'l' } }), 404);
    });
  });

  describe('service token refresh (spec 4: refresh when expiring within 9 minutes)', () => {
    it('keeps a token that is valid beyond the window and refreshes one inside it', async () => {
      const login = await loginWithSpotify(t.partyUrl, 'lena');
      const lena = client(login.accessToken);
      const kept = await lena.call('getServiceToken', {});
      expect(kept.token).toBe(login.serviceToken);
      const me = await lena.call('getSystemMe', {});
      const soon = Date.now() + SERVICE_TOKEN_REFRESH_WINDOW_MS - 60_000;
      await t.server.ctx.db.updateTable('fans').set({ service_expires_at: soon }).where('id', '=', me.id).execute();
      const fresh = await lena.call('getServiceToken', {});
      expect(fresh.token).not.toBe(login.serviceToken);
      expect(fresh.expires_at!).toBeGreaterThan(soon + SERVICE_TOKEN_REFRESH_WINDOW_MS);
    });

    it('answers 401 when the provider refuses the refresh token', async () => {
      const login = await loginWithSpotify(t.partyUrl, 'sam');
      const sam = client(login.accessToken);
      const me = await sam.call('getSystemMe', {});
      await t.server.ctx.db.updateTable('fans').set({ service_expires_at: 0, service_refresh_token: 'revoked' }).where('id', '=', me.id).execute();
      await expectApiError(sam.call('getServiceToken', {}), 401);
    });
  });

  describe('logout (spec 4: DELETE /api/auth/session)', () => {
    it('revokes the access token at once', async () => {
      const lena = client((await loginWithSpotify(t.partyUrl, 'lena')).accessToken);
      await lena.call('getSystemMe', {});
      await lena.call('logout', {});
      await expectApiError(lena.call('getSystemMe', {}), 401);
    });
  });

  describe('grants (spec 6 roles, SPEC-NOTES identity and roles)', () => {
    it('is a CMS action: 401 without the header, 403 with a wrong token', async () => {
      await expectApiError(anon.call('listGrants', { params: { id: 'demo' } }), 401);
      await expectApiError(new PartyClient({ baseUrl: t.partyUrl, cmsToken: 'wrong-token-wrong-token' }).call('listGrants', { params: { id: 'demo' } }), 403);
    });

    it('gives the granted streaming account its role, and takes it back on delete', async () => {
      // The demo seed makes the emulators' Hanna (Host) the demo party's host.
      const hanna = client((await loginWithSpotify(t.partyUrl, 'host-hanna')).accessToken);
      await hanna.call('signup', { params: { id: 'demo' }, body: { real_name: 'Hanna', display_name: 'hanna-host' } });
      expect((await hanna.call('getPartyMe', { params: { id: 'demo' } })).role).toBe('host');
      expect((await hanna.call('getSystemMe', {})).grants).toEqual([{ party_id: 'demo', role: 'host' }]);
      const list = await cms().call('listGrants', { params: { id: 'demo' } });
      expect(list.items).toContainEqual(expect.objectContaining({ service: 'spotify', service_id: fan('host-hanna').spotifyId, role: 'host' }));
      await cms().call('deleteGrantByService', { params: { id: 'demo', service: 'spotify', serviceId: fan('host-hanna').spotifyId } });
      expect((await hanna.call('getPartyMe', { params: { id: 'demo' } })).role).toBe('listener');
    });

    it('gives the role to whoever logs in with the grant token (the /grant/{token} link), Spotify or Apple', async () => {
      // Two fans use this link: a link works once unless made for more (SPEC-NOTES).
      const grant = await cms().call('postGrant', { params: { id: 'demo' }, body: { role: 'admin', display_name: 'Label admin', max_uses: 2 } });
      expect(grant.token).toBeTruthy();
      // The token is shown once: the list never repeats it (only its hash is stored).
      const list = await cms().call('listGrants', { params: { id: 'demo' } });
      expect(list.items.every((g) => g.token === null)).toBe(true);
      const sam = client((await loginWithSpotify(t.partyUrl, 'sam', { grant: grant.token! })).accessToken);
      await sam.call('signup', { params: { id: 'demo' }, body: { real_name: 'Sam', display_name: 'sam-admin' } }).catch(() => undefined);
      expect((await sam.call('getPartyMe', { params: { id: 'demo' } })).role).toBe('admin');
      const appleToken = await loginWithApple(t.partyUrl, 'demo-fan', { grant_token: grant.token!, party_id: 'demo' });
      const appleFan = client(appleToken);
      await appleFan.call('signup', { params: { id: 'demo' }, body: { real_name: 'Apple', display_name: 'apple-admin' } });
      expect((await appleFan.call('getPartyMe', { params: { id: 'demo' } })).role).toBe('admin');
      await cms().call('deleteGrantByToken', { params: { id: 'demo', token: grant.token! } });
      expect((await appleFan.call('getPartyMe', { params: { id: 'demo' } })).role).toBe('listener');
      await expectApiError(cms().call('deleteGrantByToken', { params: { id: 'demo', token: grant.token! } }), 404);
    });

    it('refuses a grant naming a service without a service_id (422)', async () => {
      const err = await expectApiError(cms().call('postGrant', { params: { id: 'demo' }, body: { service: 'spotify', role: 'host', display_name: 'x' } }), 422);
      expect(JSON.stringify(ErrorBody.parse(err.body).detail)).toContain('service_id');
    });
  });

  describe('profile picture upload (spec 7 uploads)', () => {
    const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082', 'hex');
    const form = (bytes: Buffer, name: string, type: string) => {
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
      return f;
    };
    const upload = (token: string | undefined, bytes: Buffer, name: string, type: string) =>
      client(token).call('uploadProfile', { params: { id: 'demo' }, form: form(bytes, name, type) });
    /** Only fans signed up for the party may upload to it. */
    const signedUpLena = async () => {
      const { accessToken } = await loginWithSpotify(t.partyUrl, 'lena');
      await client(accessToken).call('signup', { params: { id: 'demo' }, body: { real_name: 'Lena', display_name: 'lena-uploads' } });
      return { accessToken };
    };

    it('stores an image (checked by content) and serves it back by URL', async () => {
      const { accessToken } = await signedUpLena();
      const { url } = await upload(accessToken, PNG, 'me.txt', 'text/plain');
      const served = await fetch(url); // raw: a stored file, not an API route
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    });

    it('refuses a non-image even when named .png (415) and an oversized file (413)', async () => {
      const { accessToken } = await signedUpLena();
      await expectApiError(upload(accessToken, Buffer.from('<script>alert(1)</script>'), 'evil.png', 'image/png'), 415);
      const big = Buffer.concat([PNG, Buffer.alloc(t.server.ctx.config.uploadMaxBytes + 10)]);
      const tooBig = await expectApiError(upload(accessToken, big, 'big.png', 'image/png'), 413);
      expect(ErrorBody.parse(tooBig.body).detail).toBeTruthy();
    });

    it('requires a login (401)', async () => {
      await expectApiError(upload(undefined, PNG, 'a.png', 'image/png'), 401);
    });
  });

  describe('music search (spec 7 search) through the provider adapters', () => {
    it('looks up Spotify albums, playlists and artists, and Apple albums by storefront', async () => {
      const { catalog } = t.server.ctx;
      const album = catalog.albums[0]!;
      const a = await anon.call('searchSpotifyAlbum', { params: { id: album.spotify_id } });
      expect(a.name).toBe(album.name);
      expect(a.tracks.map((x) => x.duration_ms)).toEqual(catalog.albumTracks(album).map((x) => x.duration_ms));
      const pl = catalog.playlists[0]!;
      expect((await anon.call('searchSpotifyPlaylist', { params: { id: pl.spotify_id } })).tracks).toHaveLength(pl.track_keys.length);
      const artist = catalog.artists[0]!;
      expect((await anon.call('searchSpotifyArtist', { params: { id: artist.spotify_id } })).albums.length).toBeGreaterThan(0);
      const apple = await anon.call('searchServiceAlbum', { params: { service: 'apple', country: 'de', id: album.apple_id } });
      expect(apple.tracks.map((x) => x.name)).toEqual(a.tracks.map((x) => x.name));
      const applePl = await anon.call('searchServicePlaylist', { params: { service: 'apple', country: 'us', id: pl.apple_id } });
      expect(applePl.name).toBe(pl.name);
    });

    it('answers 404 for an unknown id', async () => {
      await expectApiError(anon.call('searchSpotifyAlbum', { params: { id: 'unknownunknownunknown1' } }), 404);
      await expectApiError(anon.call('searchServicePlaylist', { params: { service: 'apple', country: 'de', id: 'pl.nope' } }), 404);
    });
  });
});
