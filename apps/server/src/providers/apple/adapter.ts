import { createHash } from 'node:crypto';
import type { MusicAlbum, MusicPlaylist, Track } from '@fanfare/protocol';
import type { AppleConfig } from '../../platform/config.ts';
import { fetchJson, ProviderError } from '../http.ts';
import type * as A from './musicApi.ts';

/** Apple Music API lookups by storefront, and the check of a fan's music user token. */
export class AppleAdapter {
  constructor(private readonly config: AppleConfig) {}

  async album(storefront: string, id: string): Promise<MusicAlbum> {
    const res = await this.get<A.DataResponse<A.Album>>(`/catalog/${sf(storefront)}/albums/${encodeURIComponent(id)}`);
    const a = first(res);
    return {
      id: a.id,
      name: a.attributes.name,
      artists: [{ id: a.relationships.artists?.data[0]?.id ?? '', name: a.attributes.artistName }],
      image: artworkUrl(a.attributes.artwork),
      release_date: a.attributes.releaseDate ?? null,
      tracks: a.relationships.tracks.data.map(toTrack),
    };
  }

  async playlist(storefront: string, id: string): Promise<MusicPlaylist> {
    const res = await this.get<A.DataResponse<A.Playlist>>(`/catalog/${sf(storefront)}/playlists/${encodeURIComponent(id)}`);
    const p = first(res);
    return {
      id: p.id,
      name: p.attributes.name,
      owner: p.attributes.curatorName,
      image: p.attributes.artwork ? artworkUrl(p.attributes.artwork) : null,
      tracks: p.relationships.tracks.data.map(toTrack),
    };
  }

  /**
   * A song's 30 s preview: by Apple id, or by ISRC (`filter[isrc]`, the first match). Null when
   * Apple offers none; a ProviderError 404 when the storefront does not know the song.
   */
  async songPreviewUrl(storefront: string, by: { id: string } | { isrc: string }): Promise<string | null> {
    const path =
      'id' in by
        ? `/catalog/${sf(storefront)}/songs/${encodeURIComponent(by.id)}`
        : `/catalog/${sf(storefront)}/songs?filter[isrc]=${encodeURIComponent(by.isrc)}`;
    const res = await this.get<A.DataResponse<A.Song>>(path);
    // An ISRC filter no song matches answers an empty list, not a 404: the same "unknown" as an id.
    if (res.data.length === 0) throw new ProviderError('apple', 404, 'no song matches');
    return first(res).attributes.previews?.[0]?.url ?? null;
  }

  /**
   * Whether the storefront carries a catalogue item: Apple answers 404 for an item that is not
   * available there.
   */
  async inStorefront(storefront: string, kind: 'albums' | 'songs', id: string): Promise<boolean> {
    try {
      await this.get(`/catalog/${sf(storefront)}/${kind}/${encodeURIComponent(id)}`);
      return true;
    } catch (e) {
      if (e instanceof ProviderError && e.status === 404) return false;
      throw e;
    }
  }

  /** Adds albums and songs to the fan's library (`POST /v1/me/library?ids[albums]=...`). */
  async addToLibrary(musicUserToken: string, items: { albums: string[]; songs: string[] }): Promise<void> {
    const q = new URLSearchParams();
    if (items.albums.length) q.set('ids[albums]', items.albums.join(','));
    if (items.songs.length) q.set('ids[songs]', items.songs.join(','));
    await fetchJson('apple', `${this.config.apiUrl}/me/library?${q.toString()}`, {
      method: 'POST',
      headers: { ...this.auth(), 'music-user-token': musicUserToken },
    });
  }

  /**
   * Checks a music user token by asking for the fan's storefront. Apple gives no stable user id, so
   * the fan is identified by a hash of the token (see docs/decisions/0003-apple-identity.md).
   */
  async identify(musicUserToken: string): Promise<{ id: string; storefront: string; hasSubscription?: boolean }> {
    const headers = { ...this.auth(), 'music-user-token': musicUserToken };
    const res = await fetchJson<A.DataResponse<A.Storefront>>('apple', `${this.config.apiUrl}/me/storefront`, { headers });
    // Whether the fan subscribes (issue 47: without it MusicKit cannot play whole tracks). Asked of
    // the account resource; when Apple does not answer it, the fan is taken as a subscriber, as before.
    const account = await fetchJson<A.AccountResponse>('apple', `${this.config.apiUrl}/me/account?meta=subscription`, { headers }).catch(() => null);
    const active = account?.meta?.subscription?.active;
    return {
      id: createHash('sha256').update(musicUserToken).digest('hex').slice(0, 32),
      storefront: first(res).id,
      ...(typeof active === 'boolean' ? { hasSubscription: active } : {}),
    };
  }

  private get<T>(path: string): Promise<T> {
    return fetchJson<T>('apple', `${this.config.apiUrl}${path}`, { headers: this.auth() });
  }

  private auth(): Record<string, string> {
    return { authorization: `Bearer ${this.config.developerToken}` };
  }
}

function sf(storefront: string): string {
  return encodeURIComponent(storefront.toLowerCase());
}

function first<T>(res: A.DataResponse<T>): T {
  const item = res.data[0];
  if (!item) throw new Error('Apple Music answered with no data');
  return item;
}

function artworkUrl(a: A.Artwork): string {
  return a.url.replace('{w}', String(a.width)).replace('{h}', String(a.height));
}

function toTrack(s: A.Song): Track {
  return {
    id: s.id,
    name: s.attributes.name,
    artists: [s.attributes.artistName],
    album: s.attributes.albumName,
    duration_ms: s.attributes.durationInMillis,
    image: artworkUrl(s.attributes.artwork),
    service: 'apple',
    hls_url: null,
  };
}
