import type { ServerContext } from '../../context.ts';
import { EMULATOR_APPLE_DEVELOPER_TOKEN } from '../../platform/config.ts';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http.ts';
import { pageHeaders } from '../../platform/securityHeaders.ts';
import { signPayload, verifyPayload } from '../../platform/tokens.ts';
import type * as A from '../apple/musicApi.ts';
import type { CatalogTrack } from '../catalog/catalog.ts';
import { DEMO_FANS, EMULATOR_SIGNING_KEY, demoFanByHint } from './demoFans.ts';
import { consentPage } from './page.ts';
import { previewAudioPath, registerPreviewAudio } from './previewAudio.ts';
import { EmulatorLibrary } from './library.ts';
import { isAllowedRedirect } from '../../party/auth/loginService.ts';
import { sendStandInScript } from './sdk/standInScripts.ts';

type MusicUserToken = { kind: 'music_user'; fan: string };

/** The music user token MusicKit would give this demo fan; stable, like Apple's for one device. */
export function emulatorMusicUserToken(hint: string): string {
  return signPayload({ kind: 'music_user', fan: hint } satisfies MusicUserToken, EMULATOR_SIGNING_KEY);
}

/**
 * The Apple Music API subset we call, over the demo catalog, plus a stand-in for MusicKit's
 * authorize step that hands out music user tokens. Mounted at `/emulator/apple`.
 */
export async function registerAppleEmulator(app: App, ctx: ServerContext, library = new EmulatorLibrary()): Promise<void> {
  const { catalog } = ctx;
  const artwork = (rel: string): A.Artwork => ({
    // Apple's artwork URLs are templates; ours ignore the size.
    url: `${ctx.config.publicUrl}/media/catalog/${rel}?size={w}x{h}`,
    width: 300,
    height: 300,
  });
  const artistName = (keys: string[]) => keys.map((k) => catalog.artistByKey(k).name).join(' & ');
  const song = (t: CatalogTrack): A.Song => {
    const al = catalog.albumByKey(t.album_key);
    return {
      id: t.apple_id,
      type: 'songs',
      attributes: {
        name: t.name,
        artistName: artistName(t.artist_keys),
        albumName: al.name,
        durationInMillis: t.duration_ms,
        artwork: artwork(al.image),
        isrc: t.isrc,
        previews: [{ url: `${ctx.config.publicUrl}/emulator/apple${previewAudioPath(t)}` }],
      },
    };
  };
  const notFound = { errors: [{ status: '404', title: 'Resource Not Found' }] };

  await app.register(
    async (emu) => {
      // Apple's preview host (audio-ssl.itunes.apple.com) needs no token.
      registerPreviewAudio(emu, catalog);

      // The stand-in for MusicKit JS v3 (`sdk/musicKitStandIn.ts`): what a page loads instead of
      // Apple's script while Apple is emulated (or what a test answers Apple's URL with).
      emu.get('/musickit.js', { schema: { hide: true } }, async (_req, reply) =>
        sendStandInScript(reply, { kind: 'apple', config: { authorizeUrl: `${ctx.config.publicUrl}/emulator/apple/authorize`, apiUrl: `${ctx.config.publicUrl}/emulator/apple/v1` } }),
      );

      // MusicKit's authorize() stand-in. Scripts ask with login_hint and get JSON; a page without
      // MusicKit sends the fan here with redirect_uri (an allowed origin only, never an open
      // redirect) and gets the music user token back in that address's query.
      // A consent page, like the provider's own: nobody may frame it, and its URL is not passed on.
      emu.get('/authorize', { schema: { hide: true }, helmet: pageHeaders('nobody', 'no-referrer') }, async (req, reply) => {
        const q = req.query as { login_hint?: string; redirect_uri?: string };
        if (q.redirect_uri !== undefined && !isAllowedRedirect(ctx, q.redirect_uri)) {
          return reply.status(400).send({ detail: 'redirect_uri is not an allowed origin' });
        }
        const back = (params: Record<string, string>) => {
          const url = new URL(q.redirect_uri!);
          for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
          return url.toString();
        };
        if (q.login_hint) {
          const fan = demoFanByHint(q.login_hint);
          if (!fan) return q.redirect_uri ? reply.redirect(back({ error: 'access_denied', auth_service: 'apple' })) : reply.status(403).send({ error: 'access_denied' });
          const token = emulatorMusicUserToken(fan.hint);
          return q.redirect_uri ? reply.redirect(back({ music_user_token: token })) : { music_user_token: token };
        }
        const choice = (hint: string) => {
          const params = new URLSearchParams({ login_hint: hint });
          if (q.redirect_uri) params.set('redirect_uri', q.redirect_uri);
          return `?${params.toString()}`;
        };
        return reply.type('text/html; charset=utf-8').send(
          consentPage(
            'Apple Music (emulator): allow access',
            'Choose the demo account whose Apple Music the party may use.',
            DEMO_FANS.map((f) => ({ label: `Allow as ${f.displayName}${f.premium ? '' : ' (no subscription)'}`, href: choice(f.hint) })),
            q.redirect_uri ? back({ error: 'access_denied', auth_service: 'apple' }) : '?login_hint=',
          ),
        );
      });

      await emu.register(
        async (api) => {
          api.addHook('onRequest', async (req, reply) => {
            if (req.headers.authorization !== `Bearer ${EMULATOR_APPLE_DEVELOPER_TOKEN}`) {
              return reply.status(401).send({ errors: [{ status: '401', title: 'Unauthorized' }] });
            }
          });
          const fanOf = (req: FastifyRequest) => {
            const token = String(req.headers['music-user-token'] ?? '');
            const mut = verifyPayload<MusicUserToken>(token, EMULATOR_SIGNING_KEY);
            return mut?.kind === 'music_user' ? demoFanByHint(mut.fan) : undefined;
          };
          // Library add (pre-saves): `?ids[albums]=a,b&ids[songs]=c`, answered 202 like Apple.
          api.post('/me/library', async (req, reply) => {
            const fan = fanOf(req);
            if (!fan) return reply.status(403).send({ errors: [{ status: '403', title: 'Invalid music user token' }] });
            const q = req.query as Record<string, string | undefined>;
            const split = (v: string | undefined) => String(v ?? '').split(',').filter(Boolean);
            const albums = split(q['ids[albums]']);
            const songs = split(q['ids[songs]']);
            if (albums.length + songs.length === 0 || albums.length + songs.length > 100) {
              return reply.status(400).send({ errors: [{ status: '400', title: 'ids must name 1 to 100 items' }] });
            }
            const fault = library.takeFault('apple', fan.hint);
            if (fault) return reply.status(fault).send({ errors: [{ status: String(fault), title: 'Emulated failure' }] });
            library.add('apple', fan.hint, { albums, tracks: songs });
            return reply.status(202).send();
          });
          api.get('/me/storefront', async (req, reply) => {
            const fan = fanOf(req);
            if (!fan) return reply.status(403).send({ errors: [{ status: '403', title: 'Invalid music user token' }] });
            const sf: A.Storefront = {
              id: fan.country.toLowerCase(),
              type: 'storefronts',
              attributes: { name: fan.country, defaultLanguageTag: fan.country === 'DE' ? 'de-DE' : 'en-GB' },
            };
            return { data: [sf] };
          });
          // Whether the fan subscribes: the demo fans' `premium` (issue 47: a fan without a subscription).
          api.get('/me/account', async (req, reply) => {
            const token = String(req.headers['music-user-token'] ?? '');
            const mut = verifyPayload<MusicUserToken>(token, EMULATOR_SIGNING_KEY);
            const fan = mut?.kind === 'music_user' ? demoFanByHint(mut.fan) : undefined;
            if (!fan) return reply.status(403).send({ errors: [{ status: '403', title: 'Invalid music user token' }] });
            const account: A.AccountResponse = { meta: { subscription: { active: fan.premium, storefront: fan.country.toLowerCase() } } };
            return account;
          });
          api.get('/catalog/:storefront/albums/:id', async (req, reply) => {
            const al = catalog.albumByAppleId((req.params as { id: string }).id);
            // An album not released in a storefront is not found there, as on Apple Music.
            if (!al || !library.isAvailable('apple', al.apple_id, (req.params as { storefront: string }).storefront)) return reply.status(404).send(notFound);
            const album: A.Album = {
              id: al.apple_id,
              type: 'albums',
              attributes: { name: al.name, artistName: artistName(al.artist_keys), artwork: artwork(al.image), releaseDate: al.release_date },
              relationships: {
                tracks: { data: catalog.albumTracks(al).map(song) },
                artists: { data: al.artist_keys.map((k) => ({ id: catalog.artistByKey(k).apple_id, type: 'artists' as const })) },
              },
            };
            return { data: [album] };
          });
          api.get('/catalog/:storefront/songs/:id', async (req, reply) => {
            const { storefront, id } = req.params as { storefront: string; id: string };
            const t = catalog.trackByAppleId(id);
            // A release the control marked unavailable in this storefront is unknown there, as at Apple.
            if (!t || !library.isAvailable('apple', id, storefront)) return reply.status(404).send(notFound);
            return { data: [song(t)] };
          });
          // Songs by ISRC (`?filter[isrc]=`; a filter no song matches gives an empty list) or by id
          // (`?ids=`, what MusicKit's setQueue looks up). The emulator also knows a catalog track by
          // its Spotify id: a campaign names its tracks by Spotify id, and the stand-in plays them for an Apple fan.
          api.get('/catalog/:storefront/songs', async (req) => {
            const query = req.query as Record<string, string | undefined>;
            const isrc = query['filter[isrc]'];
            if (isrc !== undefined) return { data: catalog.tracks.filter((t) => t.isrc === isrc).map(song) };
            const ids = String(query.ids ?? '').split(',').filter(Boolean).slice(0, 300);
            const found = ids.map((id) => {
              const t = catalog.trackByAppleId(id) ?? catalog.trackBySpotifyId(id);
              return t ? { ...song(t), id } : null;
            });
            return { data: found.filter((s) => s !== null) };
          });
          api.get('/catalog/:storefront/playlists/:id', async (req, reply) => {
            const pl = catalog.playlistByAppleId((req.params as { id: string }).id);
            if (!pl) return reply.status(404).send(notFound);
            const playlist: A.Playlist = {
              id: pl.apple_id,
              type: 'playlists',
              attributes: { name: pl.name, curatorName: pl.owner, artwork: artwork(pl.image) },
              relationships: { tracks: { data: catalog.playlistTracks(pl).map(song) } },
            };
            return { data: [playlist] };
          });
        },
        { prefix: '/v1' },
      );
    },
    { prefix: '/emulator/apple' },
  );
}
