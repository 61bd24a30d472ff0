/** The subset of Spotify Web API objects we read (and the emulator writes). */
export interface Image {
  url: string;
  width: number | null;
  height: number | null;
}
export interface ArtistRef {
  id: string;
  name: string;
}
export interface Artist extends ArtistRef {
  images: Image[];
  type: 'artist';
}
export interface SimpleTrack {
  id: string;
  name: string;
  duration_ms: number;
  track_number: number;
  artists: ArtistRef[];
  uri: string;
}
export interface FullTrack extends SimpleTrack {
  album: { id?: string; name: string; images: Image[] };
  /** A 30 s MP3 of the track, or null (Spotify leaves it null for many tracks and apps). */
  preview_url?: string | null;
  external_ids?: { isrc?: string };
}
export interface SimpleAlbum {
  id: string;
  name: string;
  images: Image[];
  release_date?: string;
  artists: ArtistRef[];
}
export interface Paging<T> {
  items: T[];
  next: string | null;
  total: number;
}
export interface Album extends SimpleAlbum {
  tracks: Paging<SimpleTrack>;
}
export interface Playlist {
  id: string;
  name: string;
  description: string;
  owner: { id: string; display_name?: string };
  images: Image[];
  tracks: Paging<{ track: FullTrack | null }>;
}
export interface User {
  id: string;
  display_name?: string;
  email?: string;
  country?: string;
  product?: string;
  images?: Image[];
}
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}
export interface Device {
  id: string | null;
  is_active: boolean;
  is_restricted: boolean;
  name: string;
  type: string;
  volume_percent: number | null;
  supports_volume: boolean;
}
