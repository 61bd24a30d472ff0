import {
  AppleDataResponse,
  AppleLookupParams,
  SeveralTracksQuery,
  SeveralTracksResponse,
  SpotifyAlbum,
  SpotifyArtist,
  SpotifyLookupParams,
  SpotifyPlaylist,
  SpotifyTrack,
} from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { fetchJson, lookup } from '../../providers/http.ts';

/**
 * Music lookups of the campaign pages (spec 7, no token), answered in the providers' own JSON
 * (the mock player reads `tracks.items`, `images`, `duration_ms`, ...). Several tracks: at most 50
 * ids per call (spec 9), the page batches longer lists.
 */
export async function registerCmsMusicRoutes(app: App, ctx: ServerContext): Promise<void> {
  const { spotify } = ctx.providers;
  const tags = ['music lookups'];
  const spotifyPath = (kind: string, id: string) => `/${kind}/${encodeURIComponent(id)}`;

  app.addHook('onSend', async (req, reply, payload) => {
    if (reply.statusCode === 200 && /^\/api\/(spotify|apple)\//.test(req.url)) void reply.header('cache-control', 'public, max-age=300');
    return payload;
  });

  app.get('/api/spotify/artists/:id', { schema: { tags, params: SpotifyLookupParams, response: { 200: SpotifyArtist } } }, (req) =>
    lookup('Artist', () => spotify.webApi(spotifyPath('artists', req.params.id))),
  );
  app.get('/api/spotify/albums/:id', { schema: { tags, params: SpotifyLookupParams, response: { 200: SpotifyAlbum } } }, (req) =>
    lookup('Album', () => spotify.webApi(spotifyPath('albums', req.params.id))),
  );
  app.get('/api/spotify/playlists/:id', { schema: { tags, params: SpotifyLookupParams, response: { 200: SpotifyPlaylist } } }, (req) =>
    lookup('Playlist', () => spotify.webApi(spotifyPath('playlists', req.params.id))),
  );
  app.get('/api/spotify/tracks/:id', { schema: { tags, params: SpotifyLookupParams, response: { 200: SpotifyTrack } } }, (req) =>
    lookup('Track', () => spotify.webApi(spotifyPath('tracks', req.params.id))),
  );
  app.get(
    '/api/spotify/tracks',
    { schema: { tags, summary: 'Several tracks: ?ids=a,b,... (at most 50)', querystring: SeveralTracksQuery, response: { 200: SeveralTracksResponse } } },
    (req) => lookup('Tracks', () => spotify.webApi<SeveralTracksResponse>(`/tracks?ids=${req.query.ids.map(encodeURIComponent).join(',')}`)),
  );

  const apple = (kind: 'albums' | 'playlists') => (req: { params: { storefront: string; id: string } }) =>
    lookup(kind === 'albums' ? 'Album' : 'Playlist', () =>
      fetchJson<AppleDataResponse>('apple', `${ctx.config.apple.apiUrl}/catalog/${req.params.storefront.toLowerCase()}/${kind}/${encodeURIComponent(req.params.id)}`, {
        headers: { authorization: `Bearer ${ctx.config.apple.developerToken}` },
      }),
    );
  app.get('/api/apple/albums/:storefront/:id', { schema: { tags, params: AppleLookupParams, response: { 200: AppleDataResponse } } }, apple('albums'));
  app.get('/api/apple/playlists/:storefront/:id', { schema: { tags, params: AppleLookupParams, response: { 200: AppleDataResponse } } }, apple('playlists'));
}
