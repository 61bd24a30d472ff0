/** The subset of Apple Music API resources we read (and the emulator writes). */
export interface Artwork {
  url: string; // template with {w} and {h}
  width: number;
  height: number;
}
export interface Song {
  id: string;
  type: 'songs';
  attributes: {
    name: string;
    artistName: string;
    albumName: string;
    durationInMillis: number;
    artwork: Artwork;
    isrc?: string;
    /** Apple's 30 s previews of the song (an AAC file each). */
    previews?: { url: string }[];
  };
}
export interface Album {
  id: string;
  type: 'albums';
  attributes: { name: string; artistName: string; artwork: Artwork; releaseDate?: string };
  relationships: { tracks: { data: Song[] }; artists?: { data: { id: string; type: 'artists' }[] } };
}
export interface Playlist {
  id: string;
  type: 'playlists';
  attributes: { name: string; curatorName: string; artwork?: Artwork };
  relationships: { tracks: { data: Song[] } };
}
export interface Storefront {
  id: string;
  type: 'storefronts';
  attributes: { name: string; defaultLanguageTag: string };
}
/** `GET /v1/me/account?meta=subscription`: whether the fan's Apple Music subscription is active. */
export interface AccountResponse {
  meta?: { subscription?: { active: boolean; storefront: string } };
}
export interface DataResponse<T> {
  data: T[];
}
