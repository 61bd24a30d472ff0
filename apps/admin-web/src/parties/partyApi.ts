/**
 * The party admin calls (spec listening-party §6, "CMS-authenticated actions") on the typed party
 * client `@fanfare/client/party`. The party API has its own origin (PUBLIC_URL, written into the
 * page by the CMS: `usePartyUrl`); the back-office user's bearer
 * token is accepted as a CMS token there (`requireCms`). A 401 ends the session like a CMS call.
 */
import { ApiError, createPartyClient, type PartyApiClient } from '@fanfare/client/party';
import type { MusicAlbum, MusicPlaylist, MusicType, PlayerService, PostGrantBody, PutPartyBody, PutTracksBody } from '@fanfare/protocol';
import { useMemo } from 'react';
import { useApi, usePartyUrl, useSessionStore } from '../api/context.tsx';

/** The party app of `id` with its admin flag, so the editor may show any screen (spec §2). */
export const partyPreviewUrl = (partyUrl: string, id: string) => `${partyUrl}/p/${encodeURIComponent(id)}/?admin=true`;

/**
 * The party app in preview mode (issue 14): the admin flag (no redirect), the preview flag (sample
 * fan, no socket, the bridge listens) and the timeline-only player (no audio in the editor).
 */
export const partyPreviewFrameUrl = (partyUrl: string, id: string, screen: string) =>
  `${partyUrl}/p/${encodeURIComponent(id)}/?admin=true&preview=1&player=mock#/${screen}`;

/** One catalog lookup: an album or playlist id on a service, in a storefront country. */
export interface CatalogQuery {
  type: MusicType;
  service: PlayerService;
  country: string;
  id: string;
}

export interface PartyApiOptions {
  baseUrl: string;
  token: () => string | null;
  onExpired: () => void;
}

/** The typed party client's `call`, with a 401 reported as the back-office session's end. */
export function sessionPartyCall(opts: PartyApiOptions): PartyApiClient['call'] {
  const client: PartyApiClient = createPartyClient({ baseUrl: opts.baseUrl, token: opts.token });
  return (async (...args: Parameters<PartyApiClient['call']>) => {
    try {
      return await client.call(...args);
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) opts.onExpired();
      throw e;
    }
  }) as PartyApiClient['call'];
}

export function createPartyAdminApi(opts: PartyApiOptions) {
  const call = sessionPartyCall(opts);
  return {
    list: () => call('listParties'),
    get: (id: string) => call('getParty', { params: { id } }),
    put: (id: string, body: PutPartyBody) => call('putParty', { params: { id }, body }),
    /** Puts back a saved version of the settings (saved as a new version). */
    restoreVersion: (id: string, version: number) => call('restorePartyVersion', { params: { id, version } }),
    tracks: (id: string) => call('getTracks', { params: { id } }),
    putTracks: (id: string, body: PutTracksBody) => call('putTracks', { params: { id }, body }),
    /** A catalog lookup (spec 7 "Search"): Spotify by id, other services by storefront country and id. */
    lookup: (q: CatalogQuery): Promise<MusicAlbum | MusicPlaylist> =>
      q.service === 'spotify'
        ? q.type === 'album'
          ? call('searchSpotifyAlbum', { params: { id: q.id } })
          : call('searchSpotifyPlaylist', { params: { id: q.id } })
        : q.type === 'album'
          ? call('searchServiceAlbum', { params: { service: q.service, country: q.country, id: q.id } })
          : call('searchServicePlaylist', { params: { service: q.service, country: q.country, id: q.id } }),
    grants: (id: string) => call('listGrants', { params: { id } }),
    addGrant: (id: string, body: PostGrantBody) => call('postGrant', { params: { id }, body }),
    revokeToken: (id: string, token: string) => call('deleteGrantByToken', { params: { id, token } }),
    revokeAccount: (id: string, service: 'spotify' | 'apple', serviceId: string) => call('deleteGrantByService', { params: { id, service, serviceId } }),
  };
}

export type PartyAdminApi = ReturnType<typeof createPartyAdminApi>;

/** The party admin API of this tab, signed in as the back-office user. */
export function usePartyApi(): PartyAdminApi {
  const session = useSessionStore();
  const cms = useApi();
  const baseUrl = usePartyUrl();
  return useMemo(
    () =>
      createPartyAdminApi({
        baseUrl,
        token: cms.token,
        onExpired: () => session.signOut(true),
      }),
    [cms, session, baseUrl],
  );
}

export { ApiError };
