import type { ServerContext } from '../../context.ts';
import { EMULATOR_CLIENT } from '../../platform/config.ts';
import { sendStandInScript } from './sdk/standInScripts.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../platform/http.ts';
import { pageHeaders } from '../../platform/securityHeaders.ts';
import { signPayload, verifyPayload } from '../../platform/tokens.ts';
import type { CatalogAlbum, CatalogTrack } from '../catalog/catalog.ts';
import type * as W from '../spotify/webApi.ts';
import { DEMO_FANS, EMULATOR_SIGNING_KEY, demoFanByHint, type DemoFan } from './demoFans.ts';
import { consentPage } from './page.ts';
import { previewAudioPath, registerPreviewAudio } from './previewAudio.ts';
import { registerPlayerRoutes } from './spotifyPlayerRoutes.ts';
import { EmulatedPlayers } from './spotifyPlayerState.ts';
import { COUNTRY_CODES } from '../../cms/i18n/countries.ts';
import { EmulatorLibrary } from './library.ts';

const CODE_TTL_MS = 60_000;
const ACCESS_TTL_S = 3600;

type Code = { kind: 'code'; fan: string; redirect_uri: string; exp: number };
type Access = { kind: 'access'; fan: string | null; exp: number };
type Refresh = { kind: 'refresh'; fan: string };

const sign = (p: Code | Access | Refresh) => signPayload(p, EMULATOR_SIGNING_KEY);
const verify = <T extends { kind: string }>(token: string, kind: T['kind']) => {
  const p = verifyPayload<T & { exp?: number }>(token, EMULATOR_SIGNING_KEY);
  return p && p.kind === kind && (p.exp === undefined || p.exp > Date.now()) ? p : null;
};

/**
 * Spotify's Accounts service and the Web API subset we call, over the demo catalog. Mounted at
 * `/emulator/spotify` when no Spotify credentials are configured. Codes and tokens are signed, so
 * every node of a cluster accepts them.
 */
export async function registerSpotifyEmulator(app: App, ctx: ServerContext, library = new EmulatorLibrary()): Promise<void> {
  const { catalog } = ctx;
  const media = (rel: string) => `${ctx.config.publicUrl}/media/catalog/${rel}`;
  const images = (rel: string): W.Image[] => [{ url: media(rel), width: 300, height: 300 }];
  const artistRefs = (keys: string[]): W.ArtistRef[] =>
    keys.map((k) => catalog.artistByKey(k)).map((a) => ({ id: a.spotify_id, name: a.name }));
  const simpleAlbum = (al: CatalogAlbum): W.SimpleAlbum => ({
    id: al.spotify_id,
    name: al.name,
    images: images(al.image),
    release_date: al.release_date,
    artists: artistRefs(al.artist_keys),
  });
  const fullTrack = (t: CatalogTrack): W.FullTrack => {
    const al = catalog.albumByKey(t.album_key);
    return {
      id: t.spotify_id,
      name: t.name,
      duration_ms: t.duration_ms,
      track_number: al.track_keys.indexOf(t.key) + 1,
      artists: artistRefs(t.artist_keys),
      uri: `spotify:track:${t.spotify_id}`,
      album: { id: al.spotify_id, name: al.name, images: images(al.image) },
      preview_url: `${ctx.config.publicUrl}/emulator/spotify${previewAudioPath(t)}`,
      external_ids: { isrc: t.isrc },
    };
  };
  const paging = <T>(items: T[]): W.Paging<T> => ({ items, next: null, total: items.length });
  // The markets an item is available in: every country but those the control made unavailable.
  const marketsOf = (id: string) => COUNTRY_CODES.filter((c) => library.isAvailable('spotify', id, c));
  const players = new EmulatedPlayers(catalog, () => ctx.now());
  // The emulator client's registered redirect URIs: the party's and the CMS's login callbacks.
  const registeredCallbacks = [
    `${ctx.config.publicUrl}/api/auth/spotify/callback`,
    `${ctx.config.cmsPublicUrl}/api/accounts/auth/spotify/callback`,
  ];

  await app.register(
    async (emu) => {
      emu.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });

      // Spotify's preview host (p.scdn.co) needs no token.
      registerPreviewAudio(emu, catalog);

      // The stand-in for the Web Playback SDK (`sdk/spotifyStandIn.ts`): what a page loads instead
      // of Spotify's script while Spotify is emulated (or what a test answers Spotify's URL with).
      emu.get('/spotify-player.js', { schema: { hide: true } }, async (_req, reply) =>
        sendStandInScript(reply, { kind: 'spotify', apiUrl: `${ctx.config.publicUrl}/emulator/spotify/api/v1` }),
      );

      // A consent page, like the provider's own: nobody may frame it, and its URL (the state) is not passed on.
      emu.get('/accounts/authorize', { schema: { hide: true }, helmet: pageHeaders('nobody', 'no-referrer') }, async (req, reply) => {
        const q = req.query as Record<string, string | undefined>;
        if (q.client_id !== EMULATOR_CLIENT.id) return reply.status(400).send({ error: 'invalid_client' });
        if (q.response_type !== 'code' || !q.redirect_uri) return reply.status(400).send({ error: 'invalid_request' });
        // Like Spotify, only a registered callback may receive the code: never an open redirect.
        if (!registeredCallbacks.includes(q.redirect_uri)) return reply.status(400).send({ error: 'invalid_request', detail: 'INVALID_CLIENT: Invalid redirect URI' });
        const back = (params: Record<string, string>) => {
          const url = new URL(q.redirect_uri!);
          for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
          if (q.state) url.searchParams.set('state', q.state);
          return url.toString();
        };
        if (q.login_hint) {
          const fan = demoFanByHint(q.login_hint);
          if (!fan) return reply.redirect(back({ error: 'access_denied' }));
          const code = sign({ kind: 'code', fan: fan.hint, redirect_uri: q.redirect_uri, exp: Date.now() + CODE_TTL_MS });
          return reply.redirect(back({ code }));
        }
        const self = (hint: string) => {
          const url = new URL(`${ctx.config.publicUrl}/emulator/spotify/accounts/authorize`);
          for (const [k, v] of Object.entries(q)) if (v) url.searchParams.set(k, v);
          url.searchParams.set('login_hint', hint);
          return url.toString();
        };
        return reply
          .type('text/html; charset=utf-8')
          .send(
            consentPage(
              'Spotify (emulator): log in',
              'Choose the demo account to continue as. Fanfare asks to read your profile and control playback.',
              DEMO_FANS.map((f) => ({ label: `Continue as ${f.displayName}${f.premium ? ' (Premium)' : ' (Free)'}`, href: self(f.hint) })),
              back({ error: 'access_denied' }),
            ),
          );
      });

      emu.post('/accounts/api/token', { schema: { hide: true } }, async (req, reply) => {
        const basic = Buffer.from(`${EMULATOR_CLIENT.id}:${EMULATOR_CLIENT.secret}`).toString('base64');
        if (req.headers.authorization !== `Basic ${basic}`) return reply.status(401).send({ error: 'invalid_client' });
        const form = (req.body ?? {}) as Record<string, string | undefined>;
        const issue = (fan: string | null, withRefresh: boolean): W.TokenResponse => ({
          access_token: sign({ kind: 'access', fan, exp: Date.now() + ACCESS_TTL_S * 1000 }),
          token_type: 'Bearer',
          expires_in: ACCESS_TTL_S,
          ...(withRefresh && fan ? { refresh_token: sign({ kind: 'refresh', fan }) } : {}),
        });
        if (form.grant_type === 'client_credentials') return issue(null, false);
        if (form.grant_type === 'authorization_code') {
          const code = form.code ? verify<Code>(form.code, 'code') : null;
          if (!code || code.redirect_uri !== form.redirect_uri) return reply.status(400).send({ error: 'invalid_grant' });
          return issue(code.fan, true);
        }
        if (form.grant_type === 'refresh_token') {
          const r = form.refresh_token ? verify<Refresh>(form.refresh_token, 'refresh') : null;
          if (!r) return reply.status(400).send({ error: 'invalid_grant' });
          return issue(r.fan, false);
        }
        return reply.status(400).send({ error: 'unsupported_grant_type' });
      });

      await emu.register(
        async (api) => {
          // CORS for these paths (any origin, like Spotify's Web API) comes from the party
          // listener's one CORS registration (party/surface.ts), answered before the token check.
          // Every Web API call needs a valid access token; /me* calls need a fan's.
          api.addHook('onRequest', async (req, reply) => {
            const token = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
            const access = verify<Access>(token, 'access');
            if (!access) return reply.status(401).send({ error: { status: 401, message: 'Invalid access token' } });
            (req as unknown as { fan: DemoFan | null }).fan = access.fan ? (demoFanByHint(access.fan) ?? null) : null;
          });
          const fanOf = (req: unknown) => (req as { fan: DemoFan | null }).fan;
          const notFound = { error: { status: 404, message: 'Non existing id' } };

          api.get('/me', async (req, reply) => {
            const fan = fanOf(req);
            if (!fan) return reply.status(403).send({ error: { status: 403, message: 'User token required' } });
            const user: W.User = {
              id: fan.spotifyId,
              display_name: fan.displayName,
              email: fan.email,
              country: fan.country,
              product: fan.premium ? 'premium' : 'free',
              images: [],
            };
            return user;
          });
          api.get('/albums/:id', async (req, reply) => {
            const al = catalog.albumBySpotifyId((req.params as { id: string }).id);
            if (!al) return reply.status(404).send(notFound);
            const album: W.Album = { ...simpleAlbum(al), tracks: paging(catalog.albumTracks(al).map(fullTrack)) };
            return { ...album, available_markets: marketsOf(al.spotify_id) };
          });
          api.get('/playlists/:id', async (req, reply) => {
            const pl = catalog.playlistBySpotifyId((req.params as { id: string }).id);
            if (!pl) return reply.status(404).send(notFound);
            const playlist: W.Playlist = {
              id: pl.spotify_id,
              name: pl.name,
              description: pl.description,
              owner: { id: 'fanfare', display_name: pl.owner },
              images: images(pl.image),
              tracks: paging(catalog.playlistTracks(pl).map((t) => ({ track: fullTrack(t) }))),
            };
            return playlist;
          });
          api.get('/artists/:id', async (req, reply) => {
            const ar = catalog.artistBySpotifyId((req.params as { id: string }).id);
            if (!ar) return reply.status(404).send(notFound);
            const artist: W.Artist = { id: ar.spotify_id, name: ar.name, images: images(ar.image), type: 'artist' };
            return artist;
          });
          api.get('/artists/:id/albums', async (req, reply) => {
            const ar = catalog.artistBySpotifyId((req.params as { id: string }).id);
            if (!ar) return reply.status(404).send(notFound);
            return paging(catalog.artistAlbums(ar).map(simpleAlbum));
          });
          api.get('/tracks/:id', async (req, reply) => {
            const t = catalog.trackBySpotifyId((req.params as { id: string }).id);
            if (!t) return reply.status(404).send(notFound);
            return { ...fullTrack(t), available_markets: marketsOf(t.spotify_id) };
          });
          api.get('/tracks', async (req, reply) => {
            const ids = String((req.query as { ids?: string }).ids ?? '').split(',').filter(Boolean);
            if (ids.length === 0 || ids.length > 50) {
              return reply.status(400).send({ error: { status: 400, message: 'ids must name 1 to 50 tracks' } });
            }
            return { tracks: ids.map((id) => { const t = catalog.trackBySpotifyId(id); return t ? fullTrack(t) : null; }) };
          });
          // The fan's library (pre-saves): ids in the query, as comma-separated lists.
          const libraryWrite = (kind: 'albums' | 'tracks' | 'artists', max: number) => async (req: FastifyRequest, reply: FastifyReply) => {
            const fan = fanOf(req);
            if (!fan) return reply.status(403).send({ error: { status: 403, message: 'User token required' } });
            const q = req.query as { ids?: string; type?: string };
            if (kind === 'artists' && q.type !== 'artist') return reply.status(400).send({ error: { status: 400, message: 'type must be artist' } });
            const ids = String(q.ids ?? '').split(',').filter(Boolean);
            if (ids.length === 0 || ids.length > max) return reply.status(400).send({ error: { status: 400, message: `ids must name 1 to ${max} items` } });
            const fault = library.takeFault('spotify', fan.hint);
            if (fault) return reply.status(fault).send({ error: { status: fault, message: 'Emulated failure' } });
            library.add('spotify', fan.hint, { [kind]: ids });
            return reply.status(kind === 'artists' ? 204 : 200).send();
          };
          api.put('/me/following', libraryWrite('artists', 50));
          api.put('/me/albums', libraryWrite('albums', 20));
          api.put('/me/tracks', libraryWrite('tracks', 50));
          registerPlayerRoutes(api, players, fanOf, fullTrack);
        },
        { prefix: '/api/v1' },
      );
    },
    { prefix: '/emulator/spotify' },
  );
}
