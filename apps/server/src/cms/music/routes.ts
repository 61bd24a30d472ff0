import { CMS_ROUTES, type AppleDataResponse, type SeveralTracksResponse } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { fetchJson, lookup } from '../../providers/http.ts';
import { registerPreviewRoutes } from '../previews/routes.ts';
import { cmsRoute } from '../route.ts';

/**
 * Music lookups of the campaign pages (spec 7, no token), answered in the providers' own JSON
 * (the mock player reads `tracks.items`, `images`, `duration_ms`, ...). Several tracks: at most 50
 * ids per call (spec 9), the page batches longer lists.
 */
export async function registerCmsMusicRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = cmsRoute(ctx);
  const { spotify } = ctx.providers;
  const spotifyPath = (kind: string, id: string) => `/${kind}/${encodeURIComponent(id)}`;

  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 200 && /^\/api\/(spotify|apple)\//.test(req.url)) void reply.header('cache-control', 'public, max-age=300');
    return payload;
  });

  route(app, CMS_ROUTES.spotifyArtist, (req) => lookup('Artist', () => spotify.webApi(spotifyPath('artists', req.params.id))));
  route(app, CMS_ROUTES.spotifyAlbum, (req) => lookup('Album', () => spotify.webApi(spotifyPath('albums', req.params.id))));
  route(app, CMS_ROUTES.spotifyPlaylist, (req) => lookup('Playlist', () => spotify.webApi(spotifyPath('playlists', req.params.id))));
  route(app, CMS_ROUTES.spotifyTrack, (req) => lookup('Track', () => spotify.webApi(spotifyPath('tracks', req.params.id))));
  route(app, CMS_ROUTES.spotifyTracks, (req) =>
    lookup('Tracks', () => spotify.webApi<SeveralTracksResponse>(`/tracks?ids=${req.query.ids.map(encodeURIComponent).join(',')}`)),
  );

  const apple = (kind: 'albums' | 'playlists') => (req: { params: { storefront: string; id: string } }) =>
    lookup(kind === 'albums' ? 'Album' : 'Playlist', () =>
      fetchJson<AppleDataResponse>('apple', `${ctx.config.apple.apiUrl}/catalog/${req.params.storefront.toLowerCase()}/${kind}/${encodeURIComponent(req.params.id)}`, {
        headers: { authorization: `Bearer ${ctx.config.apple.developerToken}` },
      }),
    );
  route(app, CMS_ROUTES.appleAlbum, apple('albums'));
  route(app, CMS_ROUTES.applePlaylist, apple('playlists'));
  // The HLS preview of a track (spec 7) belongs with the lookups that name the tracks.
  await registerPreviewRoutes(app, ctx);
}
