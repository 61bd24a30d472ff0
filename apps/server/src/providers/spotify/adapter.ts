import type { MusicAlbum, MusicArtist, MusicPlaylist, Track } from '@fanfare/protocol';
import type { SpotifyConfig } from '../../platform/config.ts';
import { fetchJson } from '../http.ts';
import type { ProviderProfile, ProviderTokens } from '../providers.ts';
import type * as W from './webApi.ts';

/** Scopes a party needs: profile, e-mail, and control of the fan's player for synced playback. */
export const SPOTIFY_SCOPES = [
  'user-read-email',
  'user-read-private',
  'user-read-playback-state',
  'user-modify-playback-state',
  'streaming',
  'user-follow-modify',
  // Pre-saves put the release in the fan's library at release time.
  'user-library-modify',
].join(' ');

/**
 * Spotify through its real HTTP API (Accounts service for OAuth, Web API for lookups). The same code
 * talks to the built-in emulator when no credentials are configured: only the base URLs differ.
 */
export class SpotifyAdapter {
  private appToken: { token: string; expiresAt: number } | null = null;

  constructor(private readonly config: SpotifyConfig) {}

  /** The provider's authorize page for the authorization-code flow. */
  authorizeUrl(opts: { redirectUri: string; state: string; loginHint?: string }): string {
    const url = new URL(`${this.config.accountsUrl}/authorize`);
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('redirect_uri', opts.redirectUri);
    url.searchParams.set('scope', SPOTIFY_SCOPES);
    url.searchParams.set('state', opts.state);
    if (opts.loginHint) url.searchParams.set('login_hint', opts.loginHint);
    return url.toString();
  }

  exchangeCode(code: string, redirectUri: string): Promise<ProviderTokens> {
    return this.token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  /** Spotify may rotate the refresh token; when it does not, the old one stays valid. */
  async refresh(refreshToken: string): Promise<ProviderTokens> {
    const tokens = await this.token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
  }

  async me(accessToken: string): Promise<ProviderProfile> {
    const me = await fetchJson<W.User>('spotify', `${this.config.apiUrl}/me`, { headers: bearer(accessToken) });
    return {
      id: me.id,
      displayName: me.display_name ?? me.id,
      email: me.email ?? null,
      country: me.country?.toLowerCase() ?? null,
      premium: me.product === 'premium',
      image: me.images?.[0]?.url ?? null,
    };
  }

  /** Follows artists for the fan (asked for by the party's login link). */
  async followArtists(accessToken: string, artistIds: string[]): Promise<void> {
    await fetchJson('spotify', `${this.config.apiUrl}/me/following?type=artist&ids=${artistIds.map(encodeURIComponent).join(',')}`, {
      method: 'PUT',
      headers: bearer(accessToken),
    });
  }

  /** Saves albums to the fan's library (`PUT /me/albums`, at most 20 ids). */
  async saveAlbums(accessToken: string, ids: string[]): Promise<void> {
    await fetchJson('spotify', `${this.config.apiUrl}/me/albums?ids=${ids.map(encodeURIComponent).join(',')}`, { method: 'PUT', headers: bearer(accessToken) });
  }

  /** Saves tracks to the fan's library (`PUT /me/tracks`, at most 50 ids). */
  async saveTracks(accessToken: string, ids: string[]): Promise<void> {
    await fetchJson('spotify', `${this.config.apiUrl}/me/tracks?ids=${ids.map(encodeURIComponent).join(',')}`, { method: 'PUT', headers: bearer(accessToken) });
  }

  /**
   * The markets (upper-case country codes) an album or track is available in, as the catalogue
   * lists them without a `market`; null when the answer carries no list (then: everywhere).
   */
  async availableMarkets(kind: 'albums' | 'tracks', id: string): Promise<string[] | null> {
    const item = await this.get<{ available_markets?: string[] }>(`/${kind}/${encodeURIComponent(id)}`);
    return item.available_markets ?? null;
  }

  async album(id: string, market?: string): Promise<MusicAlbum> {
    const a = await this.get<W.Album>(`/albums/${encodeURIComponent(id)}${marketQuery(market)}`);
    const albumRef = { name: a.name, images: a.images };
    return {
      id: a.id,
      name: a.name,
      artists: a.artists.map((x) => ({ id: x.id, name: x.name })),
      image: a.images[0]?.url ?? null,
      release_date: a.release_date ?? null,
      tracks: a.tracks.items.map((t) => toTrack({ ...t, album: albumRef })),
    };
  }

  async playlist(id: string, market?: string): Promise<MusicPlaylist> {
    const p = await this.get<W.Playlist>(`/playlists/${encodeURIComponent(id)}${marketQuery(market)}`);
    return {
      id: p.id,
      name: p.name,
      owner: p.owner.display_name ?? p.owner.id,
      image: p.images[0]?.url ?? null,
      tracks: p.tracks.items.flatMap((i) => (i.track ? [toTrack(i.track)] : [])),
    };
  }

  async artist(id: string): Promise<MusicArtist> {
    const a = await this.get<W.Artist>(`/artists/${encodeURIComponent(id)}`);
    const albums = await this.get<W.Paging<W.SimpleAlbum>>(`/artists/${encodeURIComponent(id)}/albums`);
    return {
      id: a.id,
      name: a.name,
      image: a.images[0]?.url ?? null,
      albums: albums.items.map((al) => ({ id: al.id, name: al.name, image: al.images[0]?.url ?? null })),
    };
  }

  async track(id: string): Promise<Track> {
    return toTrack(await this.get<W.FullTrack>(`/tracks/${encodeURIComponent(id)}`));
  }

  /** The track's 30 s preview (`preview_url`), or null when Spotify offers none. */
  async previewUrl(id: string): Promise<string | null> {
    const t = await this.get<W.FullTrack>(`/tracks/${encodeURIComponent(id)}`);
    return t.preview_url ?? null;
  }

  /** Several tracks in one call; the Web API takes at most 50 ids per request. */
  async tracks(ids: string[]): Promise<(Track | null)[]> {
    const res = await this.get<{ tracks: (W.FullTrack | null)[] }>(`/tracks?ids=${ids.map(encodeURIComponent).join(',')}`);
    return res.tracks.map((t) => (t ? toTrack(t) : null));
  }

  /**
   * A catalog lookup answered in the Web API's own JSON (the campaign pages read that shape), with
   * the app's client-credentials token. `path` starts with `/`, e.g. `/tracks?ids=a,b`.
   */
  webApi<T>(path: string): Promise<T> {
    return this.get<T>(path);
  }

  private async get<T>(path: string): Promise<T> {
    return fetchJson<T>('spotify', `${this.config.apiUrl}${path}`, { headers: bearer(await this.clientToken()) });
  }

  // Catalog lookups need no fan: the client-credentials token of the app, cached until near expiry.
  private async clientToken(): Promise<string> {
    if (this.appToken && this.appToken.expiresAt - 60_000 > Date.now()) return this.appToken.token;
    const t = await this.token({ grant_type: 'client_credentials' });
    this.appToken = { token: t.accessToken, expiresAt: t.expiresAt };
    return t.accessToken;
  }

  private async token(form: Record<string, string>): Promise<ProviderTokens> {
    const basic = Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64');
    const res = await fetchJson<W.TokenResponse>('spotify', `${this.config.accountsUrl}/api/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    return {
      accessToken: res.access_token,
      refreshToken: res.refresh_token ?? null,
      expiresAt: Date.now() + res.expires_in * 1000,
    };
  }
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

function marketQuery(market?: string): string {
  return market ? `?market=${encodeURIComponent(market.toUpperCase())}` : '';
}

function toTrack(t: W.FullTrack): Track {
  return {
    id: t.id,
    name: t.name,
    artists: t.artists.map((a) => a.name),
    album: t.album.name,
    duration_ms: t.duration_ms,
    image: t.album.images[0]?.url ?? null,
    service: 'spotify',
    hls_url: null,
  };
}
