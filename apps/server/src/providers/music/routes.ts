import { CatalogIdParam, MusicAlbum, MusicArtist, MusicPlaylist, ServiceCatalogParams } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { lookup } from '../http.ts';

/** Music search of spec section 7: catalog lookups through the provider adapters. */
export async function registerMusicRoutes(app: App, ctx: ServerContext): Promise<void> {
  const { spotify, apple } = ctx.providers;
  const tags = ['music'];
  app.get('/api/spotify/albums/:id', { schema: { tags, params: CatalogIdParam, response: { 200: MusicAlbum } } }, (req) =>
    lookup('Album', () => spotify.album(req.params.id)),
  );
  app.get('/api/spotify/playlists/:id', { schema: { tags, params: CatalogIdParam, response: { 200: MusicPlaylist } } }, (req) =>
    lookup('Playlist', () => spotify.playlist(req.params.id)),
  );
  app.get('/api/spotify/artists/:id', { schema: { tags, params: CatalogIdParam, response: { 200: MusicArtist } } }, (req) =>
    lookup('Artist', () => spotify.artist(req.params.id)),
  );
  app.get(
    '/api/:service/albums/:country/:id',
    { schema: { tags, params: ServiceCatalogParams, response: { 200: MusicAlbum } } },
    (req) => {
      const { service, country, id } = req.params;
      return lookup('Album', () => (service === 'apple' ? apple.album(country, id) : spotify.album(id, country)));
    },
  );
  app.get(
    '/api/:service/playlists/:country/:id',
    { schema: { tags, params: ServiceCatalogParams, response: { 200: MusicPlaylist } } },
    (req) => {
      const { service, country, id } = req.params;
      return lookup('Playlist', () => (service === 'apple' ? apple.playlist(country, id) : spotify.playlist(id, country)));
    },
  );
}
