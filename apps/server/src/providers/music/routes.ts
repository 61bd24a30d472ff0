import { PARTY_ROUTES } from '@fanfare/protocol';
import type { ServerContext } from '../../context.ts';
import type { App } from '../../platform/http.ts';
import { partyRoute } from '../../party/route.ts';
import { lookup } from '../http.ts';

/** Music search of spec section 7: catalog lookups through the provider adapters. */
export async function registerMusicRoutes(app: App, ctx: ServerContext): Promise<void> {
  const route = partyRoute(ctx);
  const { spotify, apple } = ctx.providers;
  route(app, PARTY_ROUTES.searchSpotifyAlbum, (req) => lookup('Album', () => spotify.album(req.params.id)));
  route(app, PARTY_ROUTES.searchSpotifyPlaylist, (req) => lookup('Playlist', () => spotify.playlist(req.params.id)));
  route(app, PARTY_ROUTES.searchSpotifyArtist, (req) => lookup('Artist', () => spotify.artist(req.params.id)));
  route(app, PARTY_ROUTES.searchServiceAlbum, (req) => {
    const { service, country, id } = req.params;
    return lookup('Album', () => (service === 'apple' ? apple.album(country, id) : spotify.album(id, country)));
  });
  route(app, PARTY_ROUTES.searchServicePlaylist, (req) => {
    const { service, country, id } = req.params;
    return lookup('Playlist', () => (service === 'apple' ? apple.playlist(country, id) : spotify.playlist(id, country)));
  });
}
